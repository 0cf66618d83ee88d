import { queryOptions, useQuery } from '@tanstack/react-query'
import type { ProfileResponse } from '@portal/domain'
import { api } from './api-client.ts'
import { useLogged } from './session.ts'

/** GET /api/client/: the signed-in client's profile. Shared by every feature, so it lives here. */
export const getProfile = (signal?: AbortSignal) => api.get<ProfileResponse>('/api/client/', { signal })

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
