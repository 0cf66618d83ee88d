import { useMutation, useQueryClient } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'
import { membersQueryOptions } from './members.ts'

export const revokeInvitation = (id: number) => call(contractCalls.invitationRevoke, { params: { id } })

export function useRevokeInvitation() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: revokeInvitation, onSuccess: (answer) => qc.setQueryData(membersQueryOptions().queryKey, answer) })
}
