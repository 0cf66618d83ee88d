import { useMutation, useQueryClient } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'
import { orgsQueryOptions } from './orgs.ts'

export const acceptInvitation = (token: string) =>
  call(contractCalls.invitationAccept, { params: { token } }, { handle: ['invitation_invalid', 'invitation_other_email', 'already_member', 'not_corporate'] })

/** Joins and acts in the organisation: what was cached was the previous account's. */
export function useAcceptInvitation() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: acceptInvitation,
    onSuccess: (orgs) => {
      qc.removeQueries()
      qc.setQueryData(orgsQueryOptions().queryKey, orgs)
    },
  })
}
