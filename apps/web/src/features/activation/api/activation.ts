import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

export type OfflineInput = { data: string } | { hardware_key_serial: string }

export const activateOffline = (licenseId: number, input: OfflineInput) =>
  call(contractCalls.licenseActivateOffline, { params: { id: licenseId }, body: input }, { handle: ['invalid_license_file', 'validation_failed'] })

export const activateGroupOffline = (groupId: number, input: OfflineInput) =>
  call(contractCalls.groupActivateOffline, { params: { id: groupId }, body: input }, { handle: ['invalid_license_file', 'validation_failed'] })

export const releaseDevice = (licenseId: number, deviceId: number) => call(contractCalls.deviceRelease, { params: { id: licenseId, deviceId } })
