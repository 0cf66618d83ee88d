import type { SaleEntry } from './catalogue.ts'
import type { Cents } from './money.ts'

/** A row of the price table, as the server reads it and GET /client/ carries it (in cents here). */
export interface PriceRow {
  platform: string
  product: string
  license_type: string
  tier: number | null
  cost_cents: Cents
  deprecated: boolean
}

/** The row that prices an entry: same platform, product, license type and tier. */
export const priceRowOf = (entry: SaleEntry, rows: readonly PriceRow[]): PriceRow | null =>
  rows.find(
    (r) => r.platform === entry.platform && r.product === entry.product && r.license_type === entry.price.license_type && r.tier === entry.price.tier,
  ) ?? null

/**
 * One license of the entry: the row's cost, times the months of a face all-in-one term (its row is
 * the monthly price). Null when the table has no row for it: the entry is not for sale.
 */
export function unitPriceCents(entry: SaleEntry, rows: readonly PriceRow[]): Cents | null {
  const row = priceRowOf(entry, rows)
  if (!row) return null
  return row.cost_cents * (entry.months ?? 1)
}
