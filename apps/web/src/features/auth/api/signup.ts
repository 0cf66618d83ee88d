import { useMutation } from '@tanstack/react-query'
import type { ErrorName, SignupBody } from '@portal/domain'
import { api } from '../../../lib/api-client.ts'

export const SIGNUP_HANDLED = ['email_in_use', 'email_invalid', 'password_invalid'] as const satisfies readonly ErrorName[]

export const signup = (body: SignupBody) => api.post<{ client_id: number; email: string }>('/api/client/signup/', body, { handle: SIGNUP_HANDLED })

export const useSignup = () => useMutation({ mutationFn: signup })
