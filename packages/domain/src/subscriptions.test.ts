import { describe, expect, it } from 'vitest'
import { CATALOGUE_PRICES, MONTH_SECONDS, SALE_ENTRIES, YEAR_SECONDS } from './catalogue.ts'
import { pricePerTerm, renewalTermSeconds, subscriptionStatus, termLabel, termMonths, termPeriod, type LicenseFacts } from './licenses.ts'
import {
  OUTAGE_LIMIT_HOURS,
  authenticationPayBy,
  autofillAmountCents,
  autofillChargeKey,
  nextRetryAt,
  onSessionChargeKey,
  outagePastLimit,
  outageRetryAt,
  reactivationKind,
  renewalChargeKey,
  renewalPriceCents,
  subscriptionRenews,
} from './subscriptions.ts'

const rows = CATALOGUE_PRICES.map((p) => ({ ...p }))
const now = new Date('2026-11-22T12:00:00Z')
const earlier = new Date('2026-11-01T12:00:00Z')
const later = new Date('2026-12-01T12:00:00Z')
const lic = (over: Partial<LicenseFacts> = {}): LicenseFacts => ({
  product: 'face_online_subscribe',
  config: { product: 'face_online_subscribe' },
  status: 0,
  held_until: null,
  expire_date: later,
  activation_date: null,
  activation_count: 0,
  ...over,
})

describe('renewal term and price', () => {
  it('the term is the license’s own delta, else its product’s', () => {
    expect(renewalTermSeconds({ product: 'face_online_all_in_one', config: { license_expire_delta: 3 * MONTH_SECONDS } })).toBe(3 * MONTH_SECONDS)
    expect(renewalTermSeconds({ product: 'nuitrack_ai_subscription_yearly', config: {} })).toBe(YEAR_SECONDS)
    expect(renewalTermSeconds({ product: 'fmc_subscribe', config: {} })).toBe(MONTH_SECONDS)
    expect(renewalTermSeconds({ product: 'old', config: {} })).toBeNull()
  })
  it('the price is the sale entry’s unit price now: per term for face all-in-one, tier 4 for analytics', () => {
    expect(renewalPriceCents({ product: 'nuitrack_online_subscription_monthly', config: { license_expire_delta: MONTH_SECONDS } }, rows)).toBe(328)
    expect(renewalPriceCents({ product: 'face_online_all_in_one', config: { license_expire_delta: 6 * MONTH_SECONDS } }, rows)).toBe(6 * 5000)
    expect(renewalPriceCents({ product: 'na_subscribe', config: {} }, rows)).toBe(2000)
    const dearer = rows.map((r) => (r.product === 'fmc_subscribe' ? { ...r, cost_cents: 5900 } : r))
    expect(renewalPriceCents({ product: 'fmc_subscribe', config: {} }, dearer)).toBe(5900)
  })
  it('a custom Face SDK subscription is priced from its license_content; no row, no price', () => {
    const content = { detector: 1, matcher: 1, database: 1000 }
    expect(renewalPriceCents({ product: 'face_online_custom_subscribe', config: { license_content: content } }, rows)).toBe(500 + 1400)
    expect(renewalPriceCents({ product: 'face_online_custom_subscribe', config: {} }, rows)).toBeNull()
    expect(renewalPriceCents({ product: 'nuitrack_subscribe', config: {} }, rows)).toBeNull()
    expect(
      renewalPriceCents(
        { product: 'fmc_subscribe', config: {} },
        rows.filter((r) => r.product !== 'fmc_subscribe'),
      ),
    ).toBeNull()
  })
})

describe('charges, retries and autofill', () => {
  it('one key per subscription, period end and attempt', () => {
    const end = new Date('2026-12-01T00:00:00Z')
    expect(renewalChargeKey(7, end, 0)).toBe('renewal:7:1796083200:0')
    expect(renewalChargeKey(7, end, 2)).not.toBe(renewalChargeKey(7, end, 1))
    expect(autofillChargeKey(7, end, 0)).toBe('autofill:7:1796083200:0')
  })
  it('retries 1, 3 and 7 days after the end, then none (stopped)', () => {
    const end = new Date('2026-12-01T00:00:00Z')
    expect([1, 2, 3].map((n) => nextRetryAt(end, n)!.toISOString())).toEqual([
      '2026-12-02T00:00:00.000Z',
      '2026-12-04T00:00:00.000Z',
      '2026-12-08T00:00:00.000Z',
    ])
    expect(nextRetryAt(end, 4)).toBeNull()
  })
  it('a renewal that asks for authentication is paid by the last retry day; its checkouts have keys of their own', () => {
    const end = new Date('2026-12-01T00:00:00Z')
    expect(authenticationPayBy(end).toISOString()).toBe(nextRetryAt(end, 3)!.toISOString())
    expect(onSessionChargeKey(7, end, 0, 2)).toBe('renewal:7:1796083200:0:on_session:2')
  })
  it('an outage is asked again after 5 minutes, doubling, at most 6 hours apart, never past the age limit', () => {
    const due = new Date('2026-12-01T00:00:00Z')
    const minutes = (n: number) => (outageRetryAt(due, n, due).getTime() - due.getTime()) / 60_000
    expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map(minutes)).toEqual([5, 10, 20, 40, 80, 160, 320, 360, 360])
    // near the limit the next try is at the limit itself, where the attempt fails
    const late = new Date(due.getTime() + (OUTAGE_LIMIT_HOURS - 1) * 3600_000)
    expect(outageRetryAt(late, 7, due).getTime()).toBe(due.getTime() + OUTAGE_LIMIT_HOURS * 3600_000)
    expect(outagePastLimit(due, new Date(due.getTime() + OUTAGE_LIMIT_HOURS * 3600_000 - 1))).toBe(false)
    expect(outagePastLimit(due, new Date(due.getTime() + OUTAGE_LIMIT_HOURS * 3600_000))).toBe(true)
  })
  it('an autofill top-up is the shortfall, at least 20 USD', () => {
    expect(autofillAmountCents(228)).toBe(2000)
    expect(autofillAmountCents(4500)).toBe(4500)
  })
  it('renews while active or past due, not cancelled, not paused', () => {
    expect(subscriptionRenews({ state: 'active', cancel_at_period_end: false }, false)).toBe(true)
    expect(subscriptionRenews({ state: 'past_due', cancel_at_period_end: false }, undefined)).toBe(true)
    expect(subscriptionRenews({ state: 'active', cancel_at_period_end: true }, false)).toBe(false)
    expect(subscriptionRenews({ state: 'active', cancel_at_period_end: false }, true)).toBe(false)
    expect(subscriptionRenews({ state: 'stopped', cancel_at_period_end: false }, false)).toBe(false)
    expect(subscriptionRenews(null, false)).toBe(false)
  })
  it('reactivation: undo a cancel inside the period, pay when ended, stopped, past due or expired, nothing otherwise', () => {
    expect(reactivationKind({ state: 'active', cancel_at_period_end: true }, false)).toBe('undo_cancel')
    expect(reactivationKind({ state: 'active', cancel_at_period_end: false }, false)).toBeNull()
    expect(reactivationKind({ state: 'active', cancel_at_period_end: true }, true)).toBe('pay')
    for (const state of ['ended', 'stopped', 'past_due'] as const) expect(reactivationKind({ state, cancel_at_period_end: false }, true)).toBe('pay')
  })
})

describe('subscription status with a subscription row (section 4)', () => {
  it('an ended subscription is cancelled, even inside what was its period', () => {
    expect(subscriptionStatus(lic({ subscription: { state: 'ended', cancel_at_period_end: true } }), now)).toBe('cancelled')
  })
  it('cancelled at the period end: active until the end, cancelled after it', () => {
    const sub = { state: 'active' as const, cancel_at_period_end: true }
    expect(subscriptionStatus(lic({ subscription: sub }), now)).toBe('active')
    expect(subscriptionStatus(lic({ subscription: sub, expire_date: earlier }), now)).toBe('cancelled')
  })
  it('a renewing one keeps the section-4 rules', () => {
    const sub = { state: 'active' as const, cancel_at_period_end: false }
    expect(subscriptionStatus(lic({ subscription: sub }), now)).toBe('active')
    expect(subscriptionStatus(lic({ product: 'fmc_subscribe', config: { product: 'fmc_subscribe', paused: true }, subscription: sub }), now)).toBe('paused')
    expect(subscriptionStatus(lic({ product: 'nuitrack_online_subscription_monthly', expire_date: earlier, subscription: sub }), now)).toBe('cancelled')
  })
})

describe('the real term of a purchase', () => {
  it('every sale entry states its own term in months, and its price per that term', () => {
    const face = SALE_ENTRIES.filter((e) => e.product === 'face_online_all_in_one')
    expect(face.map((e) => termMonths({ product: e.product, config: e.config }))).toEqual([1, 3, 6, 12])
    for (const e of SALE_ENTRIES) {
      const months = termMonths({ product: e.product, config: e.config })
      if (e.months !== null) expect(months).toBe(e.months)
    }
    expect(termMonths({ product: 'nuitrack_online_subscription_yearly', config: {} })).toBe(12)
    expect(termMonths({ product: 'na_subscribe', config: {} })).toBe(1)
    expect(termMonths({ product: 'nuitrack_ai_perpetual', config: {} })).toBeNull()
  })
  it('reads as the term it is', () => {
    expect([1, 3, 6, 12].map(termLabel)).toEqual(['Monthly', '3 months', '6 months', 'Annual'])
    expect(pricePerTerm('$150.00', 3)).toBe('$150.00 every 3 months')
    expect(pricePerTerm('$50.00', 1)).toBe('$50.00 a month')
    expect(pricePerTerm('$600.00', 12)).toBe('$600.00 a year')
    expect(termPeriod(1)).toBe('1 month')
    expect(termPeriod(6)).toBe('6 months')
  })
})
