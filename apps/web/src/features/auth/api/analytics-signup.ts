import type { CaptchaChallenge } from '@portal/domain'
import { api } from '../../../lib/api-client.ts'

export const CAPTCHA_CODES = ['1fb53c53', '824d29c0'] as const

export const getCaptchaChallenge = () => api.get<CaptchaChallenge>('/api/captcha/challenge/', { silent: true })

export const analyticsSignup = (body: { username: string; password: string; captcha_token: string }) =>
  api.post<{ step: 'fill_info' | 'exist'; next: string }>('/api/nuitrack-analytics/signup/', body, { handle: ['e4a5b8f4', '4f37c7da', '6a38afc1'] })

export const analyticsFillInfo = (body: { username: string; password: string; name: string; company: string; site: string }) =>
  api.post<{ status: 'ok'; next: string }>('/api/nuitrack-analytics/fill-info/', body, { handle: ['6a38afc1'] })
