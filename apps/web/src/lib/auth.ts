import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from './api-client.ts'
import { useLogged } from './session.ts'

/** GET /api/client/: the signed-in client's profile. Shared by every feature, so it lives here. */
export const getProfile = (signal?: AbortSignal) => call(contractCalls.profile, {}, { signal })

export const profileQueryOptions = () =>
  queryOptions({
    queryKey: ['client', 'profile'] as const,
    queryFn: ({ signal }) => getProfile(signal),
    staleTime: 30_000,
  })

export function useProfile() {
  const logged = useLogged()
  return useQuery({ ...profileQueryOptions(), enabled: logged })
}
