import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** GET /api/org/: the signed-in person and the accounts they act in. */
export const getOrgs = (signal?: AbortSignal) => call(contractCalls.orgList, {}, { signal })

export const orgsQueryOptions = () => queryOptions({ queryKey: ['orgs'] as const, queryFn: ({ signal }) => getOrgs(signal), staleTime: 30_000 })

/** Asked for when `enabled` (the account menu, once opened). */
export const useOrgs = (enabled = true) => useQuery({ ...orgsQueryOptions(), enabled })
