import {
  PRODUCT_CATALOGUE,
  PRODUCTS,
  priceOrder,
  productKind,
  productRecord,
  productTitle,
  saleEntriesOf,
  termMonths,
  type Cents,
  type OsType,
  type Platform,
  type PriceRow,
  type PurchaseItem,
  type SaleEntry,
} from '@portal/domain'

/** Products sold only through an upgrade checkout (a license's own upgrade), never from the basket. */
const UPGRADE_PRODUCTS = new Set(PRODUCTS.flatMap((p) => (PRODUCT_CATALOGUE[p].upgrade ? [PRODUCT_CATALOGUE[p].upgrade!.sold_as] : [])))

/** What the basket of a platform sells. */
export const basketEntriesOf = (platform: Platform): SaleEntry[] => saleEntriesOf(platform).filter((e) => !UPGRADE_PRODUCTS.has(e.product))

/** The request's config of a catalogue entry: product and term (the server reads nothing else). */
export const configOf = (entry: SaleEntry): PurchaseItem['config'] => ({ product: entry.product, license_expire_delta: entry.config.license_expire_delta })

export const isYearly = (entry: SaleEntry) => productRecord(entry.product)?.term === 'year'
export const isSubscription = (product: string) => productKind(product) === 'subscription'

/** Section 9: the annual subscriptions are offered only when the old prices are deprecated. */
export const annualOffered = (platform: Platform, rows: readonly PriceRow[]) => rows.some((r) => r.platform === platform && r.deprecated)

export interface ShownLine {
  key: string
  config: PurchaseItem['config']
  count: number
  title: string
  /** null: the price table has no row for it (not for sale) */
  unit_cents: Cents | null
  amount_cents: Cents
  /** a subscription's term in months: it renews at the line's amount every term until cancelled */
  renews_every_months: number | null
}

/** Each line priced by the domain from the rows the server prices from. */
export function priceLines(items: readonly { key: string; config: PurchaseItem['config']; count: number }[], rows: readonly PriceRow[]): ShownLine[] {
  return items.map((item) => {
    const priced = priceOrder([{ config: item.config, count: item.count }], rows)
    if ('problem' in priced) return { ...item, title: productTitle(item.config.product), unit_cents: null, amount_cents: 0, renews_every_months: null }
    const line = priced.lines[0]!
    const renews = isSubscription(item.config.product) ? termMonths({ product: item.config.product, config: line.entry.config }) : null
    return { ...item, title: line.entry.title, unit_cents: line.unit_cents, amount_cents: line.amount_cents, renews_every_months: renews }
  })
}

/** Route state the license selection sends to a checkout: the license type chosen there (carried along). */
export interface CheckoutState {
  addLicenseType?: string
}

/** The os a product's licenses come for (Nuitrack: Windows, Linux, Android); none for the others. */
export const osTypesOf = (product: string): readonly OsType[] => productRecord(product)?.os_types ?? []
