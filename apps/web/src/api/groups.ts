import { queryOptions, useQuery } from '@tanstack/react-query'
import type { GroupView, LicenseView } from '@portal/domain'
import { api } from '../lib/api-client.ts'

export const getGroups = () => api.get<{ groups: GroupView[] }>('/group/')
export const groupsQueryOptions = () => queryOptions({ queryKey: ['groups'], queryFn: getGroups, staleTime: 10_000 })
export const useGroups = () => useQuery(groupsQueryOptions())

export const renameGroup = (id: number, title: string) => api.post<{ group: GroupView }>(`/group/${id}/`, { title }, { handle: ['bad_title'] })
export const splitGroup = (id: number, title: string, limit: number) =>
  api.post<{ dest_group: GroupView; source_group: GroupView }>(`/group/${id}/split/`, { title, limit }, { handle: ['bad_title', 'group_limit', 'group_size'] })
export const resizeGroup = (id: number, limit: number) =>
  api.post<{ group: GroupView; default_group: GroupView }>(`/group/${id}/resize/`, { limit }, { handle: ['source_group_limit_reached', 'group_size'] })
export const newLicenseFromGroup = (id: number, title?: string) => api.post<LicenseView>(`/group/${id}/new-license/`, title ? { title } : {})
