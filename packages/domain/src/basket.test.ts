import { saleEntriesOf } from './catalogue.ts'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  subscriptionInterval,
  STEPPER_MAX,
  balanceCanPay,
  basketKey,
  chargedNowCents,
  type PurchaseItem,
  orderTotalCents,
  priceOrder,
  saleEntryFor,
  shortfallCents,
  stepperValue,
} from './basket.ts'
import { unitPriceCents, type PriceRow } from './prices.ts'
import { CATALOGUE_PRICES, SALE_ENTRIES, productKind } from './catalogue.ts'
import { renewalTermSeconds } from './licenses.ts'
import { renewalPriceCents } from './subscriptions.ts'

const ROWS: PriceRow[] = CATALOGUE_PRICES.map((p) => ({ ...p }))

describe('the stepper (0 to 999)', () => {
  it('keeps digits only and clamps', () => {
    expect(stepperValue('12a')).toBe(12)
    expect(stepperValue('')).toBe(0)
    expect(stepperValue('1000')).toBe(100)
    expect(stepperValue(1000)).toBe(STEPPER_MAX)
    expect(stepperValue(-3)).toBe(0)
    expect(stepperValue(2.7)).toBe(2)
    fc.assert(
      fc.property(fc.string(), (s) => {
        const v = stepperValue(s)
        expect(Number.isInteger(v) && v >= 0 && v <= STEPPER_MAX).toBe(true)
      }),
    )
  })
})

describe('which catalogue entry a line buys', () => {
  it('keys lines as product_expiredelta, lowercase', () => {
    expect(basketKey('face_online_all_in_one', 15_552_000)).toBe('face_online_all_in_one_15552000')
    expect(basketKey('nuitrack_ai_perpetual', null)).toBe('nuitrack_ai_perpetual_0')
  })

  it('matches by product and term only', () => {
    expect(saleEntryFor({ product: 'face_online_all_in_one', license_expire_delta: 7_776_000 })?.months).toBe(3)
    expect(saleEntryFor({ product: 'nuitrack_ai_perpetual' })?.product).toBe('nuitrack_ai_perpetual')
    // a term the catalogue does not sell, a product it does not sell, a made-up product
    expect(saleEntryFor({ product: 'face_online_all_in_one', license_expire_delta: 86_400 })).toBeNull()
    expect(saleEntryFor({ product: 'nuitrack_unlimited' })).toBeNull()
    expect(saleEntryFor({ product: '__proto__' })).toBeNull()
  })

  it('every platform with a basket has entries', () => {
    for (const p of ['nuitrack', 'face', 'nuitrack-analytics', 'face-machine'] as const) expect(saleEntriesOf(p).length, p).toBeGreaterThan(0)
  })
})

describe('prices from the table', () => {
  it('prices a face all-in-one term as its monthly row times the months', () => {
    const six = saleEntryFor({ product: 'face_online_all_in_one', license_expire_delta: 15_552_000 })!
    expect(unitPriceCents(six, ROWS)).toBe(5000 * 6)
  })

  it('takes the price a staff member set, not the seed', () => {
    const entry = saleEntryFor({ product: 'nuitrack_ai_perpetual' })!
    const changed = ROWS.map((r) => (r.product === 'nuitrack_ai_perpetual' ? { ...r, cost_cents: 12_345 } : r))
    expect(unitPriceCents(entry, changed)).toBe(12_345)
    expect(
      unitPriceCents(
        entry,
        ROWS.filter((r) => r.product !== 'nuitrack_ai_perpetual'),
      ),
    ).toBeNull()
  })

  it('every catalogue entry has a price in the seeded table', () => {
    for (const e of SALE_ENTRIES) expect(unitPriceCents(e, ROWS), e.id).toBeGreaterThan(0)
  })

  it('prices an order line by line and refuses what is not for sale or mixes platforms', () => {
    const order = priceOrder(
      [
        { config: { product: 'nuitrack_online_subscription_monthly', license_expire_delta: 2_592_000 }, count: 3 },
        { config: { product: 'nuitrack_ai_perpetual' }, count: 1 },
      ],
      ROWS,
    )
    if (!('lines' in order)) throw new Error('priced')
    expect(order.lines.map((l) => l.amount_cents)).toEqual([328 * 3, 29_990])
    expect(orderTotalCents(order.lines)).toBe(328 * 3 + 29_990)
    expect(order.lines.map((l) => l.os_type)).toEqual([0, 0])
    expect(priceOrder([], ROWS)).toEqual({ problem: 'empty' })
    const linux = priceOrder([{ config: { product: 'nuitrack_ai_perpetual', os_type: 1 }, count: 2 }], ROWS)
    expect('lines' in linux && linux.lines[0]!.os_type).toBe(1)
    // face comes without an os
    expect(priceOrder([{ config: { product: 'face_online_subscribe', license_expire_delta: 2_592_000, os_type: 1 }, count: 1 }], ROWS)).toEqual({
      problem: 'not_for_sale',
      index: 0,
    })
    expect(priceOrder([{ config: { product: 'tvico' }, count: 1 }], ROWS)).toEqual({ problem: 'not_for_sale', index: 0 })
    expect(
      priceOrder(
        [
          { config: { product: 'nuitrack_ai_perpetual' }, count: 1 },
          { config: { product: 'fmc_subscribe', license_expire_delta: 2_592_000 }, count: 1 },
        ],
        ROWS,
      ),
    ).toEqual({ problem: 'mixed_platforms' })
  })

  it('an order total is the exact sum of whole cents', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...SALE_ENTRIES), fc.integer({ min: 1, max: STEPPER_MAX })), { maxLength: 10 }), (picks) => {
        const lines = picks.map(([e, count]) => ({ amount_cents: unitPriceCents(e, ROWS)! * count }))
        const total = orderTotalCents(lines)
        expect(Number.isSafeInteger(total)).toBe(true)
        expect(total).toBe(lines.reduce((s, l) => s + l.amount_cents, 0))
      }),
    )
  })
})

describe('paying from the balance (section 5)', () => {
  it('charges now the first period of each line: a month of a monthly plan, the year of a yearly one, the whole face term', () => {
    const charged = (items: PurchaseItem[]) => {
      const order = priceOrder(items, ROWS)
      if (!('lines' in order)) throw new Error('priced')
      return chargedNowCents(order.lines)
    }
    expect(charged([{ config: { product: 'nuitrack_ai_subscription_monthly', license_expire_delta: 2_592_000 }, count: 2 }])).toBe(999 * 2)
    expect(charged([{ config: { product: 'nuitrack_ai_subscription_yearly', license_expire_delta: 31_104_000 }, count: 1 }])).toBe(9990)
    expect(charged([{ config: { product: 'face_online_all_in_one', license_expire_delta: 7_776_000 }, count: 1 }])).toBe(5000 * 3)
    expect(charged([{ config: { product: 'nuitrack_ai_perpetual' }, count: 1 }])).toBe(29_990)
  })

  it('no plan in the catalogue bills a longer term by the month: what is charged now is what each renewal charges', () => {
    // a plan billed monthly over a longer term would charge less now than its renewal: the balance rule would need its month
    for (const e of SALE_ENTRIES.filter((e) => productKind(e.product) === 'subscription')) {
      const license = { product: e.product, config: e.config }
      expect(renewalTermSeconds(license), e.id).toBe(e.config.license_expire_delta)
      expect(renewalPriceCents(license, ROWS), e.id).toBe(unitPriceCents(e, ROWS))
    }
  })

  it('needs what is charged now and no promo', () => {
    expect(balanceCanPay(1000, 1000, false)).toBe(true)
    expect(balanceCanPay(999, 1000, false)).toBe(false)
    expect(balanceCanPay(5000, 1000, true)).toBe(false)
    expect(balanceCanPay(5000, 0, false)).toBe(false)
    expect(shortfallCents(999, 1000)).toBe(1)
    expect(shortfallCents(2000, 1000)).toBe(0)
  })
})

describe("a subscription order's interval (what the provider checkout shows)", () => {
  const entry = (id: string) => ({ entry: SALE_ENTRIES.find((e) => e.id === id)! })
  it('yearly when every line is a year or more, else monthly', () => {
    expect(subscriptionInterval([entry('nuitrack_ai_subscription_yearly_31104000')])).toBe('year')
    expect(subscriptionInterval([entry('nuitrack_ai_subscription_monthly_2592000')])).toBe('month')
    expect(subscriptionInterval([entry('nuitrack_ai_subscription_yearly_31104000'), entry('nuitrack_ai_subscription_monthly_2592000')])).toBe('month')
    expect(subscriptionInterval([])).toBe('month')
  })
})
