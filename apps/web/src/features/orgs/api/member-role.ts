import { useMutation, useQueryClient } from '@tanstack/react-query'
import { contractCalls, type Role } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'
import { membersQueryOptions } from './members.ts'

export const setMemberRole = ({ memberId, role }: { memberId: number; role: Role }) =>
  call(contractCalls.memberRole, { params: { memberId }, body: { role } }, { handle: ['last_owner'] })

export function useSetMemberRole() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: setMemberRole, onSuccess: (answer) => qc.setQueryData(membersQueryOptions().queryKey, answer) })
}
