import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { ERRORS } from './errors.ts'
import { messageFor } from './messages.ts'
import {
  PROMO_FLOOR_CENTS,
  discountCents,
  discountedTotal,
  formatDiscount,
  parseDiscount,
  promoAppliesTo,
  promoValidateBody,
  type PromoDiscount,
} from './promo.ts'
import { salesMessageBody } from './sales-message.ts'

const percent = fc.integer({ min: 1, max: 10_000 }).map((basisPoints): PromoDiscount => ({ kind: 'percent', basisPoints }))
const fixed = fc.integer({ min: 1, max: 999_999_999 }).map((cents): PromoDiscount => ({ kind: 'fixed', cents }))
const discount = fc.oneof(percent, fixed)
const subtotal = fc.integer({ min: 0, max: 10 ** 10 })

describe('promo discounts (section 5: containing % is a percent, else a fixed amount)', () => {
  it('parses percents and fixed amounts', () => {
    expect(parseDiscount('10%')).toEqual({ kind: 'percent', basisPoints: 1000 })
    expect(parseDiscount(' 12.5 %')).toEqual({ kind: 'percent', basisPoints: 1250 })
    expect(parseDiscount('100%')).toEqual({ kind: 'percent', basisPoints: 10_000 })
    expect(parseDiscount('15')).toEqual({ kind: 'fixed', cents: 1500 })
    expect(parseDiscount('15.5')).toEqual({ kind: 'fixed', cents: 1550 })
    expect(parseDiscount(15)).toEqual({ kind: 'fixed', cents: 1500 })
    expect(parseDiscount('0.01')).toEqual({ kind: 'fixed', cents: 1 })
  })

  it('refuses what is not a discount: zero, over 100%, negative, 3 decimals, words, a % in the middle', () => {
    for (const bad of ['', '%', '0%', '0', '0.00', '100.01%', '101%', '-5', '-5%', '1.005', '1.5.5', 'ten', '5%5', '1e3', '10000000', '0x10', ' ']) {
      expect(parseDiscount(bad), bad).toBeNull()
    }
  })

  it('formats to a text that parses back to the same discount', () => {
    fc.assert(
      fc.property(discount, (d) => {
        const text = formatDiscount(d)
        expect(text.includes('%')).toBe(d.kind === 'percent')
        expect(parseDiscount(text)).toEqual(d)
      }),
    )
    expect(formatDiscount({ kind: 'percent', basisPoints: 1000 })).toBe('10%')
    expect(formatDiscount({ kind: 'fixed', cents: 1500 })).toBe('15')
  })

  it('takes a percent off to the cent and a fixed amount as it is', () => {
    expect(discountedTotal(9990, '10%')).toBe(8991)
    expect(discountedTotal(328, '15%')).toBe(279) // 49.2 cents off rounds to 49
    expect(discountedTotal(330, '15%')).toBe(280) // 49.5 cents off rounds half up to 50
    expect(discountedTotal(9990, '15')).toBe(8490)
    expect(discountedTotal(9990, '15.50')).toBe(8440)
    expect(discountCents(10_000, { kind: 'percent', basisPoints: 1250 })).toBe(1250)
  })

  it('applies the section-5 floor: 0 when the subtotal is about 0, else 0.5 USD', () => {
    expect(discountedTotal(9990, '100%')).toBe(PROMO_FLOOR_CENTS)
    expect(discountedTotal(9990, '99.90')).toBe(PROMO_FLOOR_CENTS)
    expect(discountedTotal(9990, '500')).toBe(PROMO_FLOOR_CENTS)
    expect(discountedTotal(9990, '99.89')).toBe(1)
    expect(discountedTotal(0, '100%')).toBe(0)
    expect(discountedTotal(0, '15')).toBe(0)
    expect(PROMO_FLOOR_CENTS).toBe(50)
  })

  it('leaves the subtotal alone without a discount or with one that does not parse', () => {
    expect(discountedTotal(9990, null)).toBe(9990)
    expect(discountedTotal(9990, undefined)).toBe(9990)
    expect(discountedTotal(9990, 'nonsense')).toBe(9990)
  })

  it('always answers whole cents, never below zero, never above the subtotal (or the floor)', () => {
    fc.assert(
      fc.property(subtotal, discount, (s, d) => {
        const total = discountedTotal(s, d)
        expect(Number.isInteger(total)).toBe(true)
        expect(total).toBeGreaterThanOrEqual(0)
        expect(total).toBeLessThanOrEqual(Math.max(s, PROMO_FLOOR_CENTS))
        if (s === 0) expect(total).toBe(0)
        else expect(total).toBeGreaterThan(0)
        // once the discount covers the order, the floor is what it costs
        if (discountCents(s, d) >= s && s > 0) expect(total).toBe(PROMO_FLOOR_CENTS)
        else if (s > 0) expect(total).toBe(s - discountCents(s, d))
      }),
    )
  })

  it('a larger percent never costs more', () => {
    fc.assert(
      fc.property(subtotal, fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 10_000 }), (s, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a]
        const cheaperOrSame = discountedTotal(s, { kind: 'percent', basisPoints: hi })
        const dearer = discountedTotal(s, { kind: 'percent', basisPoints: lo })
        // both above the floor: the larger discount is cheaper; the floor itself is the least
        if (cheaperOrSame !== PROMO_FLOOR_CENTS) expect(cheaperOrSame).toBeLessThanOrEqual(dearer)
      }),
    )
  })

  it('a percent discount of a sum differs from the sum of the discounts by at most a cent per line', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 10 ** 7 }), { minLength: 1, maxLength: 10 }), percent, (lines, d) => {
        const whole = discountCents(
          lines.reduce((a, b) => a + b, 0),
          d,
        )
        const parts = lines.reduce((a, l) => a + discountCents(l, d), 0)
        expect(Math.abs(whole - parts)).toBeLessThanOrEqual(lines.length)
      }),
    )
  })

  it('a code without platforms applies everywhere; with platforms, only there', () => {
    expect(promoAppliesTo([], 'face')).toBe(true)
    expect(promoAppliesTo(['face'], 'face')).toBe(true)
    expect(promoAppliesTo(['face', 'nuitrack'], 'nuitrack-analytics')).toBe(false)
  })
})

describe('the promo validate body', () => {
  it('takes a trimmed code and a product of the catalogue', () => {
    expect(promoValidateBody.parse({ promocode: ' SPRING-10 ', product: 'nuitrack_ai_perpetual' })).toEqual({
      promocode: 'SPRING-10',
      product: 'nuitrack_ai_perpetual',
    })
  })

  it('refuses an empty or malformed code and an unknown product, with message keys', () => {
    const issue = (body: unknown) => {
      const r = promoValidateBody.safeParse(body)
      return r.success ? null : r.error.issues[0]!.message
    }
    expect(issue({ promocode: '  ', product: 'old' })).toBe('promo_empty_error')
    expect(issue({ promocode: 'a b', product: 'old' })).toBe('promo_format_error')
    expect(issue({ promocode: 'x'.repeat(65), product: 'old' })).toBe('promo_format_error')
    expect(issue({ promocode: 'A\u0000', product: 'old' })).toBe('text_invalid_character_error')
    expect(issue({ promocode: 'OK', product: 'no_such_product' })).toBe('product_unknown_error')
    for (const key of ['promo_empty_error', 'promo_format_error', 'product_unknown_error']) expect(messageFor(key)).not.toBe(key)
  })

  it('the four refusals keep the codes spec section 8 names', () => {
    expect(ERRORS.promo_not_found.code).toBe('c2bcf3bf')
    expect(ERRORS.promo_expired.code).toBe('860468cb')
    expect(ERRORS.promo_wrong_platform.code).toBe('75d895af')
    expect(ERRORS.promo_used_up.code).toBe('c8f7c88b')
  })
})

describe('the contact-sales body (section 5: name 30, details 20 to 10000)', () => {
  const ok = { recipient: 'sales', name: 'Ann', email: ' ann@example.com ', message: 'We need 40 licenses for our stores.' }
  const issue = (body: unknown) => {
    const r = salesMessageBody.safeParse(body)
    return r.success ? null : `${String(r.error.issues[0]!.path[0])}:${r.error.issues[0]!.message}`
  }

  it('takes a valid message, trims the e-mail and defaults the recipient to sales', () => {
    expect(salesMessageBody.parse(ok).email).toBe('ann@example.com')
    const { recipient: _recipient, ...rest } = ok
    expect(salesMessageBody.parse(rest).recipient).toBe('sales')
  })

  it('names each broken field with its message key', () => {
    expect(issue({ ...ok, name: ' ' })).toBe('name:name_empty_error')
    expect(issue({ ...ok, name: 'x'.repeat(31) })).toBe('name:max_length_error:30')
    expect(issue({ ...ok, name: 'x'.repeat(30) })).toBeNull()
    expect(issue({ ...ok, email: 'nope' })).toBe('email:email_validation_error')
    expect(issue({ ...ok, message: '' })).toBe('message:details_empty_error')
    expect(issue({ ...ok, message: 'x'.repeat(19) })).toBe('message:details_low_length_error')
    expect(issue({ ...ok, message: 'x'.repeat(10_000) })).toBeNull()
    expect(issue({ ...ok, message: 'x'.repeat(10_001) })).toBe('message:details_alot_length_error')
    expect(issue({ ...ok, recipient: 'Sales Team' })).toBe('recipient:sales_recipient_error')
    for (const key of ['details_empty_error', 'details_low_length_error', 'details_alot_length_error', 'sales_recipient_error']) {
      expect(messageFor(key)).not.toBe(key)
    }
  })
})
