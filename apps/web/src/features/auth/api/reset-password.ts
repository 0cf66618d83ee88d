import { useMutation, useQueryClient } from '@tanstack/react-query'
import { contractCalls, type ContractBody, type ErrorName, type contracts } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'
import { profileQueryOptions } from '../../../lib/auth.ts'
import { notifySession } from '../../../lib/session.ts'

/** Field codes, plus the token codes that send the page to its expired-link screen. */
export const RESET_TOKEN_ERRORS = ['token_invalid', 'client_not_found', 'token_invalid_path'] as const satisfies readonly ErrorName[]
export const RESET_HANDLED = [
  'new_password_same_as_old',
  'password_contains_email',
  'password_invalid',
  ...RESET_TOKEN_ERRORS,
] as const satisfies readonly ErrorName[]

export type ResetPasswordBody = ContractBody<typeof contracts.resetPassword>

export const resetPassword = (body: ResetPasswordBody) => call(contractCalls.resetPassword, { body }, { handle: RESET_HANDLED })

export function useResetPassword() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: (profile) => {
      qc.setQueryData(profileQueryOptions().queryKey, profile)
      notifySession()
    },
  })
}
