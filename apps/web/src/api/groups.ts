import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../lib/api-client.ts'

/**
 * The groups' read. The entry loads this module for the dashboard's prefetch (app/prefetch.ts): the
 * calls that change groups are in api/group-changes.ts.
 */
export const getGroups = () => call(contractCalls.groupList, {})
export const groupsQueryOptions = () => queryOptions({ queryKey: ['groups'], queryFn: getGroups, staleTime: 10_000 })
export const useGroups = () => useQuery(groupsQueryOptions())
