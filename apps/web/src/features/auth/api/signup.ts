import { useMutation } from '@tanstack/react-query'
import { contractCalls, type ErrorName, type SignupBody } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

export const SIGNUP_HANDLED = ['email_in_use', 'email_invalid', 'password_invalid'] as const satisfies readonly ErrorName[]

export const signup = (body: SignupBody) => call(contractCalls.signup, { body }, { handle: SIGNUP_HANDLED })

export const useSignup = () => useMutation({ mutationFn: signup })
