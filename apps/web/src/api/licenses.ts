import { queryOptions, useQuery } from '@tanstack/react-query'
import type { LicenseView } from '@portal/domain'
import { api } from '../lib/api-client.ts'

/** License calls shared by the dashboard, the info screens and group keys. */
export const getLicenses = () => api.get<{ licenses: LicenseView[] }>('/license/')
export const licensesQueryOptions = () => queryOptions({ queryKey: ['licenses'], queryFn: getLicenses, staleTime: 10_000 })
export const useLicenses = () => useQuery(licensesQueryOptions())

export const getLicense = (id: string) => api.get<LicenseView>(`/license/${id}/`, { handle: ['not_found'] })
export const licenseQueryOptions = (id: string) => queryOptions({ queryKey: ['licenses', id], queryFn: () => getLicense(id), retry: false })
export const useLicense = (id: string) => useQuery(licenseQueryOptions(id))

export const renameLicense = (id: number, title: string) => api.post<LicenseView>(`/license/${id}/`, { title }, { handle: ['bad_title'] })
export const releaseLicense = (id: number) => api.post<{ status: 'ok' }>(`/license/${id}/release/`, {})
export const pauseLicense = (id: number) => api.post<LicenseView>(`/license/${id}/pause/`, {})
export const resumeLicense = (id: number) => api.post<LicenseView>(`/license/${id}/resume/`, {})
export const startTrial = (product: string, tag: string | null) =>
  api.post<{ licenses: LicenseView[] }>('/resource/create/', { count: 1, config: { product, tag } })
