import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ERRORS, type ProfileResponse } from '@portal/domain'
import { api } from '../../../lib/api-client.ts'
import { profileQueryOptions } from '../../../lib/auth.ts'
import { notifySession } from '../../../lib/session.ts'

/** Field codes, plus the token codes that send the page to its expired-link screen. */
export const RESET_HANDLED = ['0c21cb17', '59991e53', '4f37c7da', ERRORS.token_invalid.code, ERRORS.client_not_found.code, ERRORS.token_invalid_path.code] as const

export interface ResetPasswordBody {
  client_id: number
  confirmation_token: string
  new_password: string
}

export const resetPassword = (body: ResetPasswordBody) =>
  api.post<ProfileResponse>('/api/client/reset-password/', body, { handle: RESET_HANDLED })

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
