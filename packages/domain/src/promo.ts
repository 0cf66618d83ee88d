import { z } from './zod.ts'
import { PRODUCTS } from './catalogue.ts'
import { centsToUsd, type Cents } from './money.ts'
import { text } from './fields.ts'
import { PROMO_CODE_MAX } from './text-limits.ts'

/**
 * Promo codes (spec sections 3, 4, 5 and 8). A code carries its discount as text: one containing %
 * is a percent of the order, anything else a fixed amount of US dollars off. Totals are integer
 * cents; the section-5 floor keeps a discounted order from becoming free by accident.
 */

/** letters, digits, - and _ (at most PROMO_CODE_MAX); compared without regard to case */
const PROMO_CODE_RE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/

/** A discount, parsed: a percent in basis points (1000 = 10%), or a fixed number of cents. */
export type PromoDiscount = { kind: 'percent'; basisPoints: number } | { kind: 'fixed'; cents: Cents }

/** the largest fixed discount a code may carry: 9,999,999.99 USD */
export const PROMO_FIXED_MAX_CENTS = 999_999_999

/**
 * The discount of a code's text: "10%", "12.5 %" (a percent above 0 and at most 100, 2 decimals at
 * most) or "15", "15.50" (US dollars above 0, 2 decimals at most). Null for anything else.
 */
export function parseDiscount(raw: string | number): PromoDiscount | null {
  const value = String(raw).trim()
  if (value.includes('%')) {
    const m = /^(\d{1,3})(?:\.(\d{1,2}))?\s*%$/.exec(value)
    if (!m) return null
    const basisPoints = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
    return basisPoints > 0 && basisPoints <= 10_000 ? { kind: 'percent', basisPoints } : null
  }
  const m = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(value)
  if (!m) return null
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
  return cents > 0 && cents <= PROMO_FIXED_MAX_CENTS ? { kind: 'fixed', cents } : null
}

/** The one text of a discount (what the table stores and the API answers): "10%", "12.5%", "15", "15.5". */
export function formatDiscount(d: PromoDiscount): string {
  return d.kind === 'percent' ? `${d.basisPoints / 100}%` : `${d.cents / 100}`
}

/** Section 5: a total below this many dollars counts as zero. */
export const ABOUT_ZERO_USD = 0.0001
/** Section 5: what a discounted total that came out at about zero costs when the order itself did not. */
export const PROMO_FLOOR_CENTS: Cents = 50

const aboutZero = (cents: Cents) => Math.abs(centsToUsd(cents)) < ABOUT_ZERO_USD

/** How many cents a discount takes off a subtotal, before the section-5 floor (a percent rounds to the cent, half up). */
export function discountCents(subtotal: Cents, discount: PromoDiscount): Cents {
  return discount.kind === 'percent' ? Math.round((subtotal * discount.basisPoints) / 10_000) : discount.cents
}

/**
 * The order total after a promo (section 5): the subtotal less the discount; when that is below
 * 0.0001 USD it becomes 0 if the subtotal itself is about 0, and 0.5 USD otherwise. Without a
 * discount (or with one that does not parse) the subtotal stands.
 */
export function discountedTotal(subtotal: Cents, discount: PromoDiscount | string | null | undefined): Cents {
  const d = typeof discount === 'string' ? parseDiscount(discount) : (discount ?? null)
  if (!d) return subtotal
  const total = subtotal - discountCents(subtotal, d)
  if (centsToUsd(total) < ABOUT_ZERO_USD) return aboutZero(subtotal) ? 0 : PROMO_FLOOR_CENTS
  return total
}

/** Whether a code applies to a platform: a code without platforms applies to all of them. */
export const promoAppliesTo = (platforms: readonly string[], platform: string) => platforms.length === 0 || platforms.includes(platform)

/** The promo code field: trimmed, 1 to 64 letters, digits, - or _. */
export const promoCodeField = text().trim().min(1, 'promo_empty_error').max(PROMO_CODE_MAX, 'promo_format_error').regex(PROMO_CODE_RE, 'promo_format_error')

/** POST /promocode/validate/: the code and the product it is for (its platform decides the platform check). */
export const promoValidateBody = z.object({
  promocode: promoCodeField,
  product: z.enum(PRODUCTS, 'product_unknown_error'),
})

/** The answer: the code as it was created, and its discount text ("10%" or a fixed amount "15"). */
export const promoValidateAnswer = z.object({
  promocode: z.string(),
  discount: z.string(),
})
export type PromoValidateAnswer = z.infer<typeof promoValidateAnswer>
