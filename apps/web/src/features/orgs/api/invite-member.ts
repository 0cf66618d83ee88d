import { useMutation, useQueryClient } from '@tanstack/react-query'
import { contractCalls, type InviteBody } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'
import { membersQueryOptions } from './members.ts'

export const inviteMember = (body: InviteBody) =>
  call(contractCalls.memberInvite, { body }, { handle: ['already_member', 'not_corporate', 'email_invalid', 'validation_failed', 'rate_limited'] })

export function useInviteMember() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: inviteMember, onSuccess: (answer) => qc.setQueryData(membersQueryOptions().queryKey, answer) })
}
