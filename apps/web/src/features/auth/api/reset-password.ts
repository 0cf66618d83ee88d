import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ErrorName, ProfileResponse } from '@portal/domain'
import { api } from '../../../lib/api-client.ts'
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

export interface ResetPasswordBody {
  client_id: number
  confirmation_token: string
  new_password: string
}

export const resetPassword = (body: ResetPasswordBody) => api.post<ProfileResponse>('/api/client/reset-password/', body, { handle: RESET_HANDLED })

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
