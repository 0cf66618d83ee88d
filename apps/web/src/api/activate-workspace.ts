import { contractCalls, type Platform } from '@portal/domain'
import { call } from '../lib/api-client.ts'

/**
 * POST /api/facemachine/{id}/activate-workspace/ or /api/nuitrack-analytics/{id}/activate-workspace/:
 * renewing a cloud subscription turns its workspace back on. A subscription that cannot come back as
 * it is answers license_status: the caller offers reactivation, so no modal for it.
 */
export const activateWorkspace = (platform: Platform, id: number) =>
  call(
    platform === 'nuitrack-analytics' ? contractCalls.analyticsWorkspaceActivate : contractCalls.faceMachineWorkspaceActivate,
    { params: { id } },
    { handle: ['license_status'] },
  )
