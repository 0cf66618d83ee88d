import { useMemo } from 'react'
import { PLATFORMS, usdToCents, type Cents, type PriceRow, type ProfileResponse } from '@portal/domain'
import { useProfile } from '../../../lib/auth.ts'

/** A price row as the basket reads it: the domain's PriceRow, with the old price for a struck-through label. */
export interface ShownPriceRow extends PriceRow {
  old_price_cents: Cents | null
}

/**
 * The price rows GET /api/client/ answers (USD) as the domain's rows in cents: the same rows the
 * server prices an order from, so the page shows what the server will charge.
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

/** The price rows and the balance (cents); null while the profile loads. */
export function useBasketData(): { rows: ShownPriceRow[]; balanceCents: Cents } | null {
  const profile = useProfile()
  const data = profile.data
  return useMemo(() => (data ? { rows: priceRowsOf(data.prices), balanceCents: usdToCents(data.client_info.balance) } : null), [data])
}
