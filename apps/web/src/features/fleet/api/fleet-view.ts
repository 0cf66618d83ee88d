import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** GET /account/fleet/: the account's activations, licenses by status and expiry, and spend. */
export const getFleetView = (signal?: AbortSignal) => call(contractCalls.fleetView, {}, { signal })

export const fleetViewQueryOptions = () =>
  queryOptions({
    queryKey: ['fleet', 'view'] as const,
    queryFn: ({ signal }) => getFleetView(signal),
  })
export const useFleetView = () => useQuery(fleetViewQueryOptions())
