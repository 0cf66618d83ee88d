import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** GET /api/face-machine/rates/: the plans. The service being down is no modal: the screen shows the default configuration. */
export const getFaceMachineRates = () => call(contractCalls.faceMachineRates, {}, { handle: ['face_machine_unavailable'] })
export const faceMachineRatesQueryOptions = () =>
  queryOptions({ queryKey: ['face-machine', 'rates'] as const, queryFn: getFaceMachineRates, staleTime: 10 * 60_000, retry: false })
export const useFaceMachineRates = (enabled = true) => useQuery({ ...faceMachineRatesQueryOptions(), enabled })
