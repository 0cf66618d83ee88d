import { contractCalls, type ContractBody, type contracts } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

export type LicenseUpgradeBody = ContractBody<typeof contracts.licenseUpgrade>
export type GroupUpgradeBody = ContractBody<typeof contracts.groupUpgrade>

/** The upgrade failures the upgrade checkout explains itself (no error modal for these). */
export const UPGRADE_HANDLED = [
  'license_on_hold',
  'upgrade_by_support',
  'action_unavailable',
  'insufficient_funds',
  'external_payments_unavailable',
  'not_enough_licenses',
] as const

/** POST /api/license/{id}/upgrade/: a trial to its paid product, or Nuitrack Pro to AI, in place. */
export const upgradeLicense = (id: number, body: LicenseUpgradeBody) =>
  call(contractCalls.licenseUpgrade, { params: { id }, body }, { handle: UPGRADE_HANDLED })

/** POST /api/group/{id}/upgrade/: `limit` of a group's available licenses, Nuitrack Pro to AI. */
export const upgradeGroup = (id: number, body: GroupUpgradeBody) => call(contractCalls.groupUpgrade, { params: { id }, body }, { handle: UPGRADE_HANDLED })
