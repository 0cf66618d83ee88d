import type { CaptchaChallenge, ErrorName } from '@portal/domain'
import { api } from '../../../lib/api-client.ts'

/** A failed or expired captcha: the form draws a new challenge. */
export const CAPTCHA_ERRORS = ['captcha_invalid', 'captcha_missing'] as const satisfies readonly ErrorName[]

export const getCaptchaChallenge = () => api.get<CaptchaChallenge>('/api/captcha/challenge/', { silent: true })

export const analyticsSignup = (body: { username: string; password: string; captcha_token: string }) =>
  api.post<{ step: 'fill_info' | 'exist'; next: string }>('/api/nuitrack-analytics/signup/', body, {
    handle: ['email_invalid', 'password_invalid', 'validation_failed'],
  })

export const analyticsFillInfo = (body: { username: string; password: string; name: string; company: string; site: string }) =>
  api.post<{ status: 'ok'; next: string }>('/api/nuitrack-analytics/fill-info/', body, { handle: ['validation_failed'] })
