import { PLATFORMS, usdToCents, type Cents, type PriceRow, type ProfileResponse } from '@portal/domain'

/** A price row as the web reads it: the domain's PriceRow, with the old price for a struck-through label. */
export interface ShownPriceRow extends PriceRow {
  old_price_cents: Cents | null
}

/**
 * The price rows GET /api/client/ answers (USD) as the domain's rows in cents: the same rows the
 * server prices an order from, so a page shows what the server will charge. Shared by the basket
 * and the dashboard's first steps (the fill step's plan price).
 */
export function priceRowsOf(prices: ProfileResponse['prices']): ShownPriceRow[] {
  return PLATFORMS.flatMap((platform) =>
    (prices[platform] ?? []).map((e) => ({
      platform,
      product: e.product,
      license_type: e.license_type,
      tier: e.tier,
      cost_cents: usdToCents(e.cost),
      deprecated: e.deprecated,
      old_price_cents: e.old_price === null ? null : usdToCents(e.old_price),
    })),
  )
}
