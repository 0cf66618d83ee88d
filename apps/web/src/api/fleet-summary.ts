import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls, type Platform } from '@portal/domain'
import { call } from '../lib/api-client.ts'

/** GET /account/fleet/{platform}/: one platform's active devices and licenses expiring soon (the dashboard's strip). */
export const getFleetSummary = (platform: Platform, signal?: AbortSignal) => call(contractCalls.fleetSummary, { params: { platform } }, { signal })

export const fleetSummaryQueryOptions = (platform: Platform) =>
  queryOptions({
    queryKey: ['fleet', 'summary', platform] as const,
    queryFn: ({ signal }) => getFleetSummary(platform, signal),
  })
export const useFleetSummary = (platform: Platform) => useQuery(fleetSummaryQueryOptions(platform))
