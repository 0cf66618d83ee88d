import { useMutation, useQueryClient } from '@tanstack/react-query'
import { contractCalls, type ErrorName, type SigninBody } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'
import { profileQueryOptions } from '../../../lib/auth.ts'
import { notifySession } from '../../../lib/session.ts'

/** Codes the sign-in form shows itself (section 8). */
export const SIGNIN_HANDLED = [
  'wrong_password',
  'client_not_found_by_email',
  'email_not_confirmed',
  'invalid_credentials',
] as const satisfies readonly ErrorName[]

export const signin = (body: SigninBody) => call(contractCalls.signin, { body }, { handle: SIGNIN_HANDLED })

export function useSignin() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: signin,
    onSuccess: (profile) => {
      qc.setQueryData(profileQueryOptions().queryKey, profile)
      notifySession()
    },
  })
}
