import { queryOptions, useQuery } from '@tanstack/react-query'
import type { GroupView, LicenseView } from '@portal/domain'
import { api } from '../lib/api-client.ts'

export const getGroups = () => api.get<{ groups: GroupView[] }>('/group/')
export const groupsQueryOptions = () => queryOptions({ queryKey: ['groups'], queryFn: getGroups, staleTime: 10_000 })
export const useGroups = () => useQuery(groupsQueryOptions())

export const renameGroup = (id: number, title: string) => api.post<{ group: GroupView }>(`/group/${id}/`, { title }, { handled: ['d097efb8'] })
export const splitGroup = (id: number, title: string, limit: number) =>
  api.post<{ dest_group: GroupView; source_group: GroupView }>(`/group/${id}/split/`, { title, limit }, { handled: ['d097efb8', 'e9cff808', '3073f8c2'] })
export const resizeGroup = (id: number, limit: number) =>
  api.post<{ group: GroupView; default_group: GroupView }>(`/group/${id}/resize/`, { limit }, { handled: ['fe501c38', '3073f8c2'] })
export const newLicenseFromGroup = (id: number, title?: string) => api.post<LicenseView>(`/group/${id}/new-license/`, title ? { title } : {})
