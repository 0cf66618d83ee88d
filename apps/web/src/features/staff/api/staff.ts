import { useQuery } from '@tanstack/react-query'
import type { LicenseView, StaffLicenseBody } from '@portal/domain'
import { api } from '../../../lib/api-client.ts'

export const createCustomLicenses = (body: StaffLicenseBody) => api.post<{ licenses: LicenseView[] }>('/resource/custom/create/', body, { silent: true })

export const getFaceVersions = () => api.get<{ facesdk_versions: { version: string; is_default: boolean }[] }>('/versions/face/')
/** Staff calls: `enabled` once the profile says staff, so a client never meets their 403. */
export const useFaceVersions = (enabled: boolean) => useQuery({ queryKey: ['face-versions'], queryFn: getFaceVersions, staleTime: 10 * 60_000, enabled })

export const getFaceComponents = () => api.get<{ components: string[] }>('/components/face/')
export const useFaceComponents = (enabled: boolean) => useQuery({ queryKey: ['face-components'], queryFn: getFaceComponents, staleTime: 10 * 60_000, enabled })
