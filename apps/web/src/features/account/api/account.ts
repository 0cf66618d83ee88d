import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ClientInfo, ProfileResponse, UpdateClientBody } from '@portal/domain'
import { api } from '../../../lib/api-client.ts'
import { profileQueryOptions } from '../../../lib/auth.ts'

export const updateClient = (body: UpdateClientBody) =>
  api.post<{ client_info: ClientInfo; email_confirmation_sent: boolean }>('/client/', body, {
    handle: ['email_in_use', 'email_invalid', 'validation_failed', 'rate_limited'],
  })

/** Saves and puts the answer into the profile the whole app reads. */
export function useUpdateClient() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: updateClient,
    onSuccess: ({ client_info }) => {
      qc.setQueryData(profileQueryOptions().queryKey, (old: ProfileResponse | undefined) => (old ? { ...old, client_info } : old))
    },
  })
}

export const changePassword = (body: { old_password: string; new_password: string }) =>
  api.post<{ status: 'ok' }>('/client/change-password/', body, {
    handle: ['wrong_password', 'new_password_same_as_old', 'password_contains_email', 'password_invalid', 'validation_failed'],
  })
