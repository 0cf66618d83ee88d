import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** GET /license/{id}/history/: what happened to one license, newest first. */
export const getLicenseHistory = (id: string) => call(contractCalls.licenseHistory, { params: { id } }, { handle: ['not_found'] })
export const licenseHistoryQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['activity', 'license', id], queryFn: () => getLicenseHistory(id), retry: false })
export const useLicenseHistory = (id: string) => useQuery(licenseHistoryQueryOptions(id))
