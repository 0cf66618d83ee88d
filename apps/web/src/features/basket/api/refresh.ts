import { useQueryClient } from '@tanstack/react-query'
import { groupsQueryOptions } from '../../../api/groups.ts'
import { licensesQueryOptions } from '../../../api/licenses.ts'
import { profileQueryOptions } from '../../../lib/auth.ts'

/** Reads the profile again: the balance after a purchase, or the balance and prices a refusal says moved. */
export function useRefreshProfile() {
  const qc = useQueryClient()
  return () => qc.invalidateQueries({ queryKey: profileQueryOptions().queryKey })
}

/** After a license purchase: groups, licenses and the balance are read again (section 2). */
export function useRefreshAfterPurchase() {
  const qc = useQueryClient()
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: groupsQueryOptions().queryKey }),
      qc.invalidateQueries({ queryKey: licensesQueryOptions().queryKey }),
      qc.invalidateQueries({ queryKey: profileQueryOptions().queryKey }),
    ])
}
