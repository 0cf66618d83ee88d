import { queryOptions, useQuery } from '@tanstack/react-query'
import { contracts } from '@portal/domain'
import { call } from '../lib/api-client.ts'

export const getGroups = () => call(contracts.groupList, {})
export const groupsQueryOptions = () => queryOptions({ queryKey: ['groups'], queryFn: getGroups, staleTime: 10_000 })
export const useGroups = () => useQuery(groupsQueryOptions())

export const renameGroup = (id: number, title: string) => call(contracts.groupRename, { params: { id }, body: { title } }, { handle: ['bad_title'] })
export const splitGroup = (id: number, title: string, limit: number) =>
  call(contracts.groupSplit, { params: { id }, body: { title, limit } }, { handle: ['bad_title', 'group_limit', 'group_size'] })
export const resizeGroup = (id: number, limit: number) =>
  call(contracts.groupResize, { params: { id }, body: { limit } }, { handle: ['source_group_limit_reached', 'group_size'] })
export const newLicenseFromGroup = (id: number, title?: string) => call(contracts.groupNewLicense, { params: { id }, body: title ? { title } : {} })
