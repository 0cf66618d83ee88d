import type { Platform } from './platforms.ts'

/**
 * The seeded price list (USD cents). The money issue sells from it; GET /api/client/ shows it.
 * The analytics cloud price is tier 4 of na_subscribe; Face Machine is plan_id 3, Analytics 4.
 */
export interface CataloguePrice {
  platform: Platform
  product: string
  license_type: string
  plan_id: number | null
  tier: number | null
  cost_cents: number
  old_price_cents: number | null
  discount: number | null
  deprecated: boolean
}

const p = (
  platform: Platform,
  product: string,
  license_type: string,
  cost_cents: number,
  extra: Partial<CataloguePrice> = {},
): CataloguePrice => ({
  platform,
  product,
  license_type,
  plan_id: null,
  tier: null,
  old_price_cents: null,
  discount: null,
  deprecated: false,
  cost_cents,
  ...extra,
})

export const CATALOGUE_PRICES: CataloguePrice[] = [
  p('nuitrack', 'nuitrack_online_subscription_monthly', 'pro', 328, { old_price_cents: 499 }),
  p('nuitrack', 'nuitrack_online_subscription_yearly', 'pro', 3990),
  p('nuitrack', 'nuitrack_ai_subscription_monthly', 'ai', 999),
  p('nuitrack', 'nuitrack_ai_subscription_yearly', 'ai', 9990),
  p('nuitrack', 'nuitrack_ai_perpetual', 'ai', 29990),
  p('nuitrack', 'nuitrack_online', 'pro', 3990, { deprecated: true }),
  p('nuitrack', 'upgrade_nuitrack_pro', 'ai', 9990),
  p('face', 'face_online_all_in_one', 'all-in-one', 5000, { plan_id: 1 }),
  p('face', 'face_online_subscribe', 'subscription', 3000),
  p('face-machine', 'fmc_subscribe', 'cloud', 4900, { plan_id: 3 }),
  p('nuitrack-analytics', 'na_subscribe', 'cloud', 1500, { plan_id: 4, tier: 1 }),
  p('nuitrack-analytics', 'na_subscribe', 'cloud', 3000, { plan_id: 4, tier: 2 }),
  p('nuitrack-analytics', 'na_subscribe', 'cloud', 4500, { plan_id: 4, tier: 3 }),
  p('nuitrack-analytics', 'na_subscribe', 'cloud', 2000, { plan_id: 4, tier: 4 }),
]

export interface ChangelogEntry {
  version: string
  date: string
  changes: string[]
}

export const PORTAL_VERSION = '1.0.0'
