import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../lib/api-client.ts'

export const getGroups = () => call(contractCalls.groupList, {})
export const groupsQueryOptions = () => queryOptions({ queryKey: ['groups'], queryFn: getGroups, staleTime: 10_000 })
export const useGroups = () => useQuery(groupsQueryOptions())

export const renameGroup = (id: number, title: string) => call(contractCalls.groupRename, { params: { id }, body: { title } }, { handle: ['bad_title'] })
export const splitGroup = (id: number, title: string, limit: number) =>
  call(contractCalls.groupSplit, { params: { id }, body: { title, limit } }, { handle: ['bad_title', 'group_limit', 'group_size'] })
export const resizeGroup = (id: number, limit: number) =>
  call(contractCalls.groupResize, { params: { id }, body: { limit } }, { handle: ['source_group_limit_reached', 'group_size'] })
export const newLicenseFromGroup = (id: number, title?: string) => call(contractCalls.groupNewLicense, { params: { id }, body: title ? { title } : {} })
export const newLicensesFromGroup = (id: number, count: number) => call(contractCalls.groupNewLicenses, { params: { id }, body: { count } })
