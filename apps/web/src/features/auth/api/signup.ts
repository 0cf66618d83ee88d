import { useMutation } from '@tanstack/react-query'
import type { SignupBody } from '@portal/domain'
import { api } from '../../../lib/api-client.ts'

export const SIGNUP_HANDLED = ['6352926b', 'e4a5b8f4', '4f37c7da'] as const

export const signup = (body: SignupBody) =>
  api.post<{ client_id: number; email: string }>('/api/client/signup/', body, { handle: SIGNUP_HANDLED })

export const useSignup = () => useMutation({ mutationFn: signup })
