import { useMutation, useQueryClient } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'
import { orgsQueryOptions } from './orgs.ts'

export const switchOrg = (orgId: number) => call(contractCalls.orgSwitch, { body: { org_id: orgId } })

/** Acts in another account: everything cached was the previous account's, so all of it is dropped. */
export function useSwitchOrg() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: switchOrg,
    onSuccess: (orgs) => {
      qc.removeQueries()
      qc.setQueryData(orgsQueryOptions().queryKey, orgs)
    },
  })
}
