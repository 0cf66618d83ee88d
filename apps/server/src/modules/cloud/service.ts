import { FACE_MACHINE_PLANS, centsToUsd, isTrial, platformOfProduct, productRecord, upgradePriceCents } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { fail } from '../../platform/errors.ts'
import { listPriceRows } from '../catalogue/service.ts'
import { findLicense } from '../licenses/service.ts'
import { parseId } from '../licenses/service.ts'

/** GET /face-machine/rates/: the plans of the catalogue (null or 'infinite' is unlimited). */
export function faceMachineRates() {
  return { plans: FACE_MACHINE_PLANS.map((p) => ({ ...p, transactions: { ...p.transactions }, samples: { ...p.samples } })) }
}

/**
 * GET /nuitrack-analytics/{id}/upgrade-cost/: what upgrading this Analytics trial costs, the price of
 * the paid product it upgrades to (the tier-4 price: 20 USD by default), the same amount the upgrade
 * charges. Another platform's license is not found; a license that is no trial any more has no upgrade.
 */
export async function analyticsUpgradeCost(ctx: AppContext, clientId: number, rawId: string) {
  const row = (await findLicense(ctx.db, clientId, parseId(rawId))) ?? fail('not_found')
  if (platformOfProduct(row.product) !== 'nuitrack-analytics') return fail('not_found')
  const to = productRecord(row.product)?.trial?.upgrades_to
  if (!to || !isTrial(row)) return fail('action_unavailable', 'This license has no upgrade')
  const cents = upgradePriceCents(to, await listPriceRows(ctx.db)) ?? fail('action_unavailable', 'This upgrade is not for sale')
  return { amount: centsToUsd(cents) }
}
