import {
  PLATFORMS,
  PRODUCT_CATALOGUE,
  PRODUCTS,
  canUpgrade,
  groupOnHold,
  isOnHold,
  productRecord,
  productTitle,
  type GroupView,
  type LicenseView,
  type Platform,
} from '@portal/domain'
import { UPGRADE_CHECKOUT_TYPES, UPGRADE_LICENSE_TYPES, type UpgradeCheckoutType, type UpgradeLicenseType } from '../../../config/paths.ts'

export type { UpgradeCheckoutType, UpgradeLicenseType }

/**
 * The upgrade checkouts (spec section 2): /app/{platform}/basket/checkout/{checkoutType}/{licenseType}/{id}/.
 * What the route's segments may be, and what a license or group upgrades to, read from the catalogue.
 */

/**
 * The platforms with an upgrade checkout: those selling a product that upgrades self-service (a
 * tagged trial to its paid product, or Pro to AI): nuitrack, face-machine, nuitrack-analytics.
 */
export const UPGRADE_PLATFORMS: readonly Platform[] = PLATFORMS.filter((platform) =>
  PRODUCTS.some((code) => {
    const r = PRODUCT_CATALOGUE[code]
    return r.platform === platform && (r.trial?.upgrades_to || r.upgrade?.how === 'self')
  }),
)

export const isCheckoutType = (v: string | undefined): v is UpgradeCheckoutType => (UPGRADE_CHECKOUT_TYPES as readonly string[]).includes(v ?? '')
export const isUpgradeLicenseType = (v: string | undefined): v is UpgradeLicenseType => (UPGRADE_LICENSE_TYPES as readonly string[]).includes(v ?? '')

/** What the checkout sells: the product names either side and the sale entry that prices it. */
export interface UpgradePlan {
  kind: 'trial' | 'ai'
  /** the product upgraded from (a trial is the trial of its paid product) */
  from: string
  to: string
  /** the sale entry's product that prices it (upgradePriceCents) */
  soldAs: string
}

/** Why a license or group has no checkout here (the screen says which). */
export type UpgradeRefusal = 'on_hold' | 'by_support' | 'not_upgradeable' | 'none_available'

/** On hold while an upgrade's payment is pending (status 2, or held_until still ahead). */
export const licenseOnHold = (l: Pick<LicenseView, 'status' | 'held_until'>, now: Date) => l.status === 2 || isOnHold(l, now)

/** The upgrade of one license for the route's license type: trial → its paid product, pro → AI. */
export function licenseUpgradePlan(l: LicenseView, licenseType: UpgradeLicenseType, now: Date): UpgradePlan | { refused: UpgradeRefusal } {
  if (licenseOnHold(l, now)) return { refused: 'on_hold' }
  const product = l.config.product
  const u = canUpgrade({ product, config: l.config, held_until: null }, now)
  if (!u || u.kind !== (licenseType === 'trial' ? 'trial' : 'ai')) return { refused: 'not_upgradeable' }
  // Pro → AI: the server's upgradeable.toAI has the last word (a staff-made license is upgraded by support)
  const how = u.kind === 'ai' ? l.upgradeable.toAI : u.how
  if (how === null) return { refused: 'not_upgradeable' }
  if (how === 'bySupport') return { refused: 'by_support' }
  const soldAs = u.kind === 'trial' ? u.to : productRecord(product)?.upgrade?.sold_as
  if (!soldAs) return { refused: 'not_upgradeable' }
  return { kind: u.kind, from: productTitle(product), to: productTitle(u.to), soldAs }
}

/** The upgrade of a group's available licenses (upgrade-y): Nuitrack Pro to AI only. */
export function groupUpgradePlan(g: GroupView, licenseType: UpgradeLicenseType, now: Date): UpgradePlan | { refused: UpgradeRefusal } {
  if (groupOnHold(g, now)) return { refused: 'on_hold' }
  const upgrade = productRecord(g.product)?.upgrade
  if (licenseType !== 'pro' || !upgrade || g.upgradeable.toAI === null) return { refused: 'not_upgradeable' }
  if (g.upgradeable.toAI === 'bySupport' || upgrade.how === 'bySupport') return { refused: 'by_support' }
  if (g.limit < 1) return { refused: 'none_available' }
  return { kind: 'ai', from: productTitle(g.product), to: productTitle(upgrade.to), soldAs: upgrade.sold_as }
}

/**
 * The "Licenses to upgrade" field of a group upgrade: a whole number from 1 to the group's
 * available licenses. Answers the count, or the message key of what is wrong.
 */
export function upgradeCount(text: string, max: number): { count: number } | { error: string } {
  const trimmed = text.trim()
  if (trimmed === '') return { error: 'Enter how many licenses to upgrade.' }
  if (!/^\d+$/.test(trimmed)) return { error: 'Enter a whole number.' }
  const n = Number(trimmed)
  if (n < 1 || n > max) return { error: max === 1 ? 'Only 1 license can be upgraded.' : 'Enter a number from 1 to {{max}}.' }
  return { count: n }
}
