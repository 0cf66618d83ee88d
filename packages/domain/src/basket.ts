import { z } from './zod.ts'
import { CUSTOM_FACE_PRODUCT, SALE_ENTRIES, YEAR_SECONDS, productRecord, type OsType, type SaleEntry } from './catalogue.ts'
import { contentOf, customFaceContent, customFacePriceCents, customSaleEntry, selectionOf } from './face-custom.ts'
import type { Cents } from './money.ts'
import { unitPriceCents, type PriceRow } from './prices.ts'

/**
 * The basket's math (spec sections 3, 4, 5 and 9): which catalogue entry a line sells, what it costs
 * from the price table, the total, and whether the balance covers it. The server prices every order
 * with these functions from its own price rows; the web shows the same numbers.
 */

/** The quantity stepper: a whole number from 0 to 999 (0 removes the line). */
export const STEPPER_MIN = 0
export const STEPPER_MAX = 999
export const STEPPER_MAX_DIGITS = 3

/** The stepper's value for what was typed: digits only, clamped to 0..999. */
export function stepperValue(input: string | number): number {
  const n = typeof input === 'number' ? input : Number(String(input).replace(/\D/g, '').slice(0, STEPPER_MAX_DIGITS) || 0)
  if (!Number.isFinite(n)) return STEPPER_MIN
  return Math.min(STEPPER_MAX, Math.max(STEPPER_MIN, Math.trunc(n)))
}

/** The basket's productsMap key: product_expiredelta, lowercase (a perpetual product's delta is 0). */
export const basketKey = (product: string, expireDelta: number | null | undefined) => `${product}_${expireDelta ?? 0}`.toLowerCase()

export const saleEntryById = (id: string): SaleEntry | null => SALE_ENTRIES.find((e) => e.id === id) ?? null

/** A request's line: the config names the product and, for terms, its license_expire_delta; the count is the stepper's. */
export const purchaseItemSchema = z.object({
  config: z.object({
    product: z.string().max(100),
    license_expire_delta: z.number().int().nullable().optional(),
    /** the custom Face SDK subscription's components and database size (the builder's); ignored for other products */
    license_content: z.record(z.string().max(64), z.number()).optional(),
    /** Nuitrack's licenses come per os: 0 Windows, 1 Linux, 2 Android */
    os_type: z
      .union([z.literal(0), z.literal(1), z.literal(2)])
      .nullable()
      .optional(),
  }),
  count: z.number().int().min(1).max(STEPPER_MAX),
})
export type PurchaseItem = z.infer<typeof purchaseItemSchema>

/**
 * The catalogue entry a request's line buys: by product and term. Nothing else in the request's
 * config counts (a price, a plan or components sent by the browser are never trusted).
 */
export function saleEntryFor(config: PurchaseItem['config']): SaleEntry | null {
  if (!productRecord(config.product)) return null
  return saleEntryById(basketKey(config.product, config.license_expire_delta)) ?? null
}

export interface PricedLine {
  entry: SaleEntry
  /** the os its licenses are for, when the product comes per os (else null) */
  os_type: OsType | null
  count: number
  unit_cents: Cents
  amount_cents: Cents
}

export type PricingProblem = { problem: 'not_for_sale'; index: number } | { problem: 'mixed_platforms' } | { problem: 'empty' }

/** Prices an order's lines from the price table: every line must be a catalogue entry of one platform. */
export function priceOrder(
  items: readonly PurchaseItem[],
  rows: readonly PriceRow[],
  opts: { subscriptionsOnly?: boolean } = {},
): { lines: PricedLine[] } | PricingProblem {
  if (items.length === 0) return { problem: 'empty' }
  const lines: PricedLine[] = []
  for (const [index, item] of items.entries()) {
    const custom = item.config.product === CUSTOM_FACE_PRODUCT ? customLine(item.config.license_content, rows) : null
    const entry = custom?.entry ?? saleEntryFor(item.config)
    const unit = custom ? custom.unit : entry ? unitPriceCents(entry, rows) : null
    if (!entry || unit === null) return { problem: 'not_for_sale', index }
    if (opts.subscriptionsOnly && productRecord(entry.product)!.kind !== 'subscription') return { problem: 'not_for_sale', index }
    const osTypes = productRecord(entry.product)!.os_types
    const os = item.config.os_type ?? null
    // a product sold per os needs one it comes in (Windows when none is named); others take none
    if (osTypes.length === 0 ? os !== null : os !== null && !osTypes.includes(os)) return { problem: 'not_for_sale', index }
    const osType = osTypes.length === 0 ? null : (os ?? osTypes[0]!)
    lines.push({ entry, os_type: osType, count: item.count, unit_cents: unit, amount_cents: unit * item.count })
  }
  if (new Set(lines.map((l) => l.entry.platform)).size > 1) return { problem: 'mixed_platforms' }
  return { lines }
}

/** A builder's line: its components priced from the rows; a custom total must be above 0 (section 5). */
function customLine(content: Record<string, number> | undefined, rows: readonly PriceRow[]): { entry: SaleEntry; unit: Cents } | null {
  const parsed = customFaceContent.safeParse(content ?? {})
  if (!parsed.success) return null
  const selection = selectionOf(parsed.data)
  const unit = customFacePriceCents(selection, rows)
  if (unit === null || unit <= 0) return null
  return { entry: customSaleEntry(contentOf(selection), unit), unit }
}

/**
 * How often a subscription order renews, as the provider's checkout shows it: yearly when every line's
 * term is a year or more, else monthly (a 3- or 6-month term shows as monthly: the port has no count).
 */
export function subscriptionInterval(lines: readonly Pick<PricedLine, 'entry'>[]): 'month' | 'year' {
  const yearly = lines.length > 0 && lines.every((l) => (l.entry.config.license_expire_delta ?? 0) >= YEAR_SECONDS)
  return yearly ? 'year' : 'month'
}

export const orderTotalCents = (lines: readonly Pick<PricedLine, 'amount_cents'>[]): Cents => lines.reduce((sum, l) => sum + l.amount_cents, 0)

/**
 * What a purchase charges now (section 5: "at least one month's price for subscriptions"): each
 * line's first period. Every plan in the catalogue is billed once per term (a month, a year, a face
 * all-in-one term of 1 to 12 months) and charges its first term when bought; none bills a longer
 * term by the month. So a monthly plan charges one month now and a yearly plan its year, and the
 * later periods are the renewals (docs/adr/balance-holds-what-is-charged-now.md).
 */
export const chargedNowCents = (lines: readonly Pick<PricedLine, 'amount_cents'>[]): Cents => orderTotalCents(lines)

/**
 * Whether the balance can pay (section 5): it must hold what is charged now (`chargedNowCents`, after
 * any discount), and the balance is not offered when a promo is applied.
 */
export const balanceCanPay = (balance: Cents, chargedNow: Cents, promoApplied: boolean) => !promoApplied && balance >= chargedNow && chargedNow > 0

/** What is missing on the balance for what is charged now: the fill-balance modal's shortfall. */
export const shortfallCents = (balance: Cents, chargedNow: Cents): Cents => Math.max(0, chargedNow - balance)
