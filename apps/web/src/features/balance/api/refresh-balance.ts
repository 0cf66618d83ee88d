import { useQueryClient } from '@tanstack/react-query'
import { profileQueryOptions } from '../../../lib/auth.ts'

/** The balance is part of the client's profile: after a top-up it is read again. */
export function useRefreshBalance() {
  const qc = useQueryClient()
  return () => qc.invalidateQueries({ queryKey: profileQueryOptions().queryKey })
}
