import { useMutation, useQueryClient } from '@tanstack/react-query'
import { contractCalls, type ContractBody, type ProfileResponse, type UpdateClientBody, type contracts } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'
import { profileQueryOptions } from '../../../lib/auth.ts'

export const updateClient = (body: UpdateClientBody) =>
  call(
    contractCalls.profileUpdate,
    { body },
    {
      handle: ['email_in_use', 'email_invalid', 'validation_failed', 'rate_limited', 'org_has_members'],
    },
  )

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

export const changePassword = (body: ContractBody<typeof contracts.changePassword>) =>
  call(
    contractCalls.changePassword,
    { body },
    {
      handle: ['wrong_password', 'new_password_same_as_old', 'password_contains_email', 'password_invalid', 'validation_failed'],
    },
  )
