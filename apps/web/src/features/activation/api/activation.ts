import type { LicenseView } from '@portal/domain'
import { api } from '../../../lib/api-client.ts'

export type OfflineInput = { data: string } | { hardware_key_serial: string }

export const activateOffline = (licenseId: number, input: OfflineInput) =>
  api.post<LicenseView>(`/license/${licenseId}/activate/offline/`, input, { handle: ['invalid_license_file', 'validation_failed'] })

export const activateGroupOffline = (groupId: number, input: OfflineInput) =>
  api.post<LicenseView>(`/group/${groupId}/activate/offline/`, input, { handle: ['invalid_license_file', 'validation_failed'] })

export const releaseDevice = (licenseId: number, deviceId: number) => api.post<LicenseView>(`/license/${licenseId}/devices/${deviceId}/release/`, {})
