import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../lib/api-client.ts'

/** GET /api/nuitrack-analytics/{id}/upgrade-cost/: what upgrading this analytics license costs (USD); shared by the upgrade checkout and the info screen's trial. */
export const getAnalyticsUpgradeCost = (id: number) =>
  call(contractCalls.analyticsUpgradeCost, { params: { id } }, { handle: ['not_found', 'action_unavailable'] })

export const analyticsUpgradeCostQueryOptions = (id: number) =>
  queryOptions({ queryKey: ['licenses', String(id), 'upgrade-cost'], queryFn: () => getAnalyticsUpgradeCost(id), retry: false })

export const useAnalyticsUpgradeCost = (id: number, enabled: boolean) => useQuery({ ...analyticsUpgradeCostQueryOptions(id), enabled })
