import { useQuery } from '@tanstack/react-query'
import { contractCalls, type StaffLicenseBody } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

export const createCustomLicenses = (body: StaffLicenseBody) => call(contractCalls.staffLicenseCreate, { body }, { silent: true })

export const getFaceVersions = () => call(contractCalls.faceSdkVersions, {})
/** Staff calls: `enabled` once the profile says staff, so a client never meets their 403. */
export const useFaceVersions = (enabled: boolean) => useQuery({ queryKey: ['face-versions'], queryFn: getFaceVersions, staleTime: 10 * 60_000, enabled })

export const getFaceComponents = () => call(contractCalls.faceComponents, {})
export const useFaceComponents = (enabled: boolean) => useQuery({ queryKey: ['face-components'], queryFn: getFaceComponents, staleTime: 10 * 60_000, enabled })
