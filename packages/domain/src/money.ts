import { z } from './zod.ts'
import { SAFE_TEXT_RE } from './validation.ts'

/**
 * Money. Every amount is integer cents of USD in the database and in this math; the wire carries
 * dollars with 2 decimals (the spec's `amount`, `balance`, `cost`), converted at the edge only.
 */

/** A whole number of US cents. */
export type Cents = number

export const CURRENCY = 'USD'

/** cents → dollars for the wire; fractional cents (never stored) round to the nearest */
export const centsToUsd = (cents: Cents) => Math.round(cents) / 100

/** dollars → cents, rounding at the cent (0.1 + 0.2 dollars is 30 cents, not 30.000000000000004) */
export const usdToCents = (usd: number): Cents => Math.round(Math.round(usd * 1000) / 10)

const numberFormats = new Map<number, Intl.NumberFormat>()
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: CURRENCY })

/** A number with en-US thousands separators and `decimals` places (Intl.NumberFormat): 1234567.5, 2 → "1,234,567.50". */
export function groupDigits(value: number, decimals = 0): string {
  let format = numberFormats.get(decimals)
  if (!format) numberFormats.set(decimals, (format = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })))
  return format.format(value)
}

/** $1,234.56; an amount below 0.0001 in size shows as $0.00 (spec section 9), never as -$0.00 */
export function formatUsd(amount: number): string {
  return usd.format(Math.abs(amount) < 0.0001 ? 0 : amount)
}

export const formatCents = (cents: Cents) => formatUsd(centsToUsd(cents))

// ---- top-up (spec sections 5 and 9) ----

/** the least a top-up may be, in whole dollars */
export const MIN_TOP_UP_USD = 20
export const DEFAULT_TOP_UP_USD = 100
/** the amount input takes at most 6 digits */
export const MAX_TOP_UP_USD = 999_999
export const TOP_UP_MAX_DIGITS = 6

/** a shortfall in whole dollars, rounded up: the top-up must cover it */
const shortfallUsd = (shortfall: Cents) => Math.max(0, Math.ceil(shortfall / 100))

/** The least the customer may top up: 20 USD, or the purchase's shortfall when that is larger. */
export const topUpMinimum = (shortfall: Cents = 0) => Math.min(MAX_TOP_UP_USD, Math.max(MIN_TOP_UP_USD, shortfallUsd(shortfall)))

/** What the amount starts at: the shortfall when a purchase needs one (at least the minimum), else 100. */
export const topUpDefault = (shortfall: Cents = 0) => (shortfall > 0 ? topUpMinimum(shortfall) : DEFAULT_TOP_UP_USD)

/** Why an amount cannot be topped up, or null: a whole number of dollars from the minimum to 6 digits. */
export function topUpProblem(amount: number, shortfall: Cents = 0): 'not_whole' | 'below_min' | 'above_max' | null {
  if (!Number.isInteger(amount)) return 'not_whole'
  if (amount < topUpMinimum(shortfall)) return 'below_min'
  if (amount > MAX_TOP_UP_USD) return 'above_max'
  return null
}

/** The amount field of a top-up: whole dollars, 20 to 999999. */
export const topUpAmount = z
  .number({ message: 'refill_amount_error' })
  .int('refill_amount_error')
  .min(MIN_TOP_UP_USD, 'refill_amount_error')
  .max(MAX_TOP_UP_USD, 'refill_amount_error')

// ---- transactions (spec section 3) ----

/** A transaction's status in the spec's numbers and words. */
export const TRANSACTION_STATUS = { ok: 0, pending: 1, declined: 2, expired: 3 } as const
export type TransactionStatus = keyof typeof TRANSACTION_STATUS
export const TRANSACTION_STATUSES = Object.keys(TRANSACTION_STATUS) as TransactionStatus[]
export const transactionStatusOf = (code: number): TransactionStatus => TRANSACTION_STATUSES.find((s) => TRANSACTION_STATUS[s] === code) ?? 'pending'

/** Type 0 is a credit (shown with a plus), anything else a debit (shown with a minus). */
export const TRANSACTION_TYPE = { credit: 0, debit: 1 } as const
export const isCredit = (type: number) => type === TRANSACTION_TYPE.credit

/** A transaction's amount as the payment documents show it: +$150.00 for a credit, -$3.28 for a debit. */
export const signedAmount = (t: { type: number; amount: number }) => `${isCredit(t.type) ? '+' : '-'}${formatUsd(Math.abs(t.amount))}`

/** An invoice's number as the invoice and the payment documents print it: 42 → INV-000042. */
export const formatInvoiceNumber = (n: number) => `INV-${String(n).padStart(6, '0')}`
/** a credit note's number: its own gapless series beside the invoices' */
export const formatCreditNoteNumber = (n: number) => `CN-${String(n).padStart(6, '0')}`

/** How long a checkout may stay unpaid before its transaction expires. */
export const PAYMENT_SESSION_HOURS = 24

// ---- payment sources ----

/** Where a customer's money comes from: a card (served by the `stripe` source), PayPal, or the balance. */
export const EXTERNAL_PAYMENT_SOURCES = ['stripe', 'paypal'] as const
export type ExternalPaymentSource = (typeof EXTERNAL_PAYMENT_SOURCES)[number]
export const PAYMENT_SOURCES = [...EXTERNAL_PAYMENT_SOURCES, 'balance'] as const
export type PaymentSource = (typeof PAYMENT_SOURCES)[number]

/** The adapters behind the payment port. */
export const PAYMENT_PROVIDERS = ['sandbox', 'stripe', 'paypal'] as const
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number]

/**
 * A return address after a checkout: a path of this portal's app (/app/…), never another site. A
 * scheme, a host (`//evil`), a backslash or an encoded escape out of /app/ is refused.
 */
export function isAppReturnPath(url: string): boolean {
  // a lone surrogate is no text at all (the database would store a replacement character)
  if (url.length > 2000 || !APP_RETURN_PATH_RE.test(url) || url.includes('\\') || /\p{Cs}/u.test(url) || [...url].some((ch) => ch < ' ' || ch === '\u007f'))
    return false
  try {
    const parsed = new URL(url, 'http://portal.invalid')
    return parsed.origin === 'http://portal.invalid' && parsed.pathname.startsWith('/app/') && !/%2e|%2f|%5c/i.test(parsed.pathname)
  } catch {
    return false
  }
}

/**
 * isAppReturnPath's rule as a pattern the OpenAPI document states: /app/ first; in the path (before
 * any ? or #) no `.` or `..` segment and no encoded dot, slash or backslash; nowhere a backslash, a
 * control character or DEL. The URL parse behind it refuses nothing this pattern lets through.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what it refuses
export const APP_RETURN_PATH_RE = /^(?![^?#]*(?:\/\.\.?(?:[/?#]|$)|%2e|%2f|%5c))\/app\/[^\\\u0000-\u001F\u007F]*$/i

export const appReturnPath = z
  .string()
  .max(2000)
  .regex(SAFE_TEXT_RE, 'return_url_error')
  .regex(APP_RETURN_PATH_RE, 'return_url_error')
  .refine(isAppReturnPath, 'return_url_error')
  .describe("a path of this portal's app (/app/…), never another site")
