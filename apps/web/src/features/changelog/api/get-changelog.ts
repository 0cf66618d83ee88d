import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls, type ContractResponse, type contracts } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

export type ChangelogEntry = ContractResponse<typeof contracts.changelog>['entries'][number]

export const getChangelog = (signal?: AbortSignal) => call(contractCalls.changelog, {}, { signal })

export const changelogQueryOptions = () =>
  queryOptions({
    queryKey: ['changelog'] as const,
    queryFn: ({ signal }) => getChangelog(signal),
    staleTime: 5 * 60_000,
  })

export const useChangelog = (enabled: boolean) => useQuery({ ...changelogQueryOptions(), enabled })
