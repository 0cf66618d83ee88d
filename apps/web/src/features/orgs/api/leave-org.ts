import { useMutation, useQueryClient } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'
import { orgsQueryOptions } from './orgs.ts'

export const leaveOrg = () => call(contractCalls.orgLeave, {}, { handle: ['last_owner', 'founder_stays'] })

/** Leaves the current organisation; the session is back in the person's own account, so the cache goes. */
export function useLeaveOrg() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: leaveOrg,
    onSuccess: (orgs) => {
      qc.removeQueries()
      qc.setQueryData(orgsQueryOptions().queryKey, orgs)
    },
  })
}
