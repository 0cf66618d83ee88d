import { queryOptions } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from './api-client.ts'

/**
 * GET /api/client/: the signed-in client's profile. Shared by every feature, so it lives here. Its
 * hook is in lib/use-profile.ts: the entry (prefetching) and the sign-in screens (which put the
 * profile in the cache) import this module, and a hook here would bring the query observer into
 * their first load.
 */
export const getProfile = (signal?: AbortSignal) => call(contractCalls.profile, {}, { signal })

export const profileQueryOptions = () =>
  queryOptions({
    queryKey: ['client', 'profile'] as const,
    queryFn: ({ signal }) => getProfile(signal),
    staleTime: 30_000,
  })
