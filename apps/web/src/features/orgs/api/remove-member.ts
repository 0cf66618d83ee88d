import { useMutation, useQueryClient } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'
import { membersQueryOptions } from './members.ts'

export const removeMember = (memberId: number) => call(contractCalls.memberRemove, { params: { memberId } }, { handle: ['last_owner', 'founder_stays'] })

export function useRemoveMember() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: removeMember, onSuccess: (answer) => qc.setQueryData(membersQueryOptions().queryKey, answer) })
}
