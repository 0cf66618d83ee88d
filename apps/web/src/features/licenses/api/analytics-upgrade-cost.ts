import { queryOptions, useQuery } from '@tanstack/react-query'
import { contracts } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** GET /api/nuitrack-analytics/{id}/upgrade-cost/: what upgrading this license costs (USD). Shown, never decisive: a failure is quiet. */
export const getAnalyticsUpgradeCost = (id: number) => call(contracts.analyticsUpgradeCost, { params: { id } }, { silent: true })
export const analyticsUpgradeCostQueryOptions = (id: number) =>
  queryOptions({ queryKey: ['nuitrack-analytics', id, 'upgrade-cost'] as const, queryFn: () => getAnalyticsUpgradeCost(id), retry: false })
export const useAnalyticsUpgradeCost = (id: number, enabled = true) => useQuery({ ...analyticsUpgradeCostQueryOptions(id), enabled })
