import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client.ts'

export interface ChangelogEntry {
  version: string
  date: string
  changes: string[]
}

export const getChangelog = (signal?: AbortSignal) => api.get<{ entries: ChangelogEntry[] }>('/api/changelog/', { signal })

export const changelogQueryOptions = () =>
  queryOptions({
    queryKey: ['changelog'] as const,
    queryFn: ({ signal }) => getChangelog(signal),
    staleTime: 5 * 60_000,
  })

export const useChangelog = (enabled: boolean) => useQuery({ ...changelogQueryOptions(), enabled })
