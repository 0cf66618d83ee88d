import { describe, expect, it } from 'vitest'
import { expiryText, groupOnHold, showsAsTrial, type LicenseView } from './license-views.ts'
import {
  PRODUCTS,
  PRODUCT_FACTS,
  SUBSCRIPTION_PRODUCTS,
  isCustomProduct,
  isSubscription,
  licenseState,
  licenseStatus,
  productKind,
  type LicenseFacts,
} from './licenses.ts'

const now = new Date('2026-11-22T12:00:00Z')
const later = new Date('2026-12-22T12:00:00Z')
const earlier = new Date('2026-10-22T12:00:00Z')
const trial = (over: Partial<LicenseFacts> = {}): LicenseFacts => ({
  product: 'fmc_subscribe',
  config: { product: 'fmc_subscribe', tag: 'FMC Trial' },
  status: 0,
  held_until: null,
  expire_date: later,
  activation_date: null,
  activation_count: 0,
  ...over,
})

describe('the state a person sees', () => {
  it('a paused trial is paused, not new, while the API keeps the spec status', () => {
    const paused = trial({ config: { product: 'fmc_subscribe', tag: 'FMC Trial', paused: true } })
    expect(licenseState(paused, now)).toBe('paused')
    expect(licenseStatus(paused, now)).toBe('new')
    expect(licenseState(trial(), now)).toBe('new')
  })
  it('a paused, activated subscription is paused', () => {
    expect(licenseState(trial({ config: { product: 'na_subscribe', paused: true }, product: 'na_subscribe', activation_count: 1 }), now)).toBe('paused')
  })
  it('on hold and suspended come first: an expired paused license is suspended', () => {
    const config = { product: 'fmc_subscribe', paused: true }
    expect(licenseState(trial({ config, expire_date: earlier }), now)).toBe('suspended')
    expect(licenseState(trial({ config, held_until: later }), now)).toBe('holded')
    expect(licenseState(trial({ config, status: 1 }), now)).toBe('suspended')
  })
  it('only a subscription can be paused', () => {
    expect(licenseState(trial({ product: 'old', config: { product: 'old', paused: true } }), now)).toBe('new')
  })
})

describe('product facts decide filters and terms, not product names (item 24)', () => {
  it('every product has a kind; the subscriptions are the products of kind subscription', () => {
    for (const p of PRODUCTS) expect(['trial', 'subscription', 'perpetual', 'term']).toContain(PRODUCT_FACTS[p].kind)
    expect([...SUBSCRIPTION_PRODUCTS].sort()).toEqual(PRODUCTS.filter((p) => isSubscription(p)).sort())
    for (const p of SUBSCRIPTION_PRODUCTS) expect(PRODUCT_FACTS[p as keyof typeof PRODUCT_FACTS].term).toMatch(/^(month|year)$/)
  })
  it('AI perpetual is perpetual like Pro perpetual; subscriptions and trials are not', () => {
    expect(productKind('nuitrack_ai_perpetual')).toBe('perpetual')
    expect(productKind('old')).toBe('perpetual')
    expect(productKind('nuitrack_ai_subscription_monthly')).toBe('subscription')
    expect(productKind('nuitrack_trial')).toBe('trial')
  })
  it('custom products are the ones staff make to order', () => {
    expect(isCustomProduct('face_offline_custom')).toBe(true)
    expect(isCustomProduct('face_offline_perpetual')).toBe(true)
    expect(isCustomProduct('face_online_subscribe')).toBe(false)
    expect(isCustomProduct('not_a_product')).toBe(false)
  })
})

describe('expiry text (item 24)', () => {
  const view = (over: Partial<LicenseView>) =>
    ({ expire_date: null, next_payment: null, is_subscription: false, lifetime: null, config: { product: 'old' }, ...over }) as LicenseView
  it('a date when there is one', () => {
    expect(expiryText(view({ expire_date: '2027-01-01T00:00:00.000Z' }))).toEqual({ kind: 'date', date: '2027-01-01T00:00:00.000Z' })
  })
  it('a subscription without a date renews, by its own term or else its product term, never "never"', () => {
    expect(expiryText(view({ is_subscription: true, config: { product: 'nuitrack_subscribe' } }))).toEqual({ kind: 'renews', term: 'month', months: 1 })
    expect(expiryText(view({ is_subscription: true, config: { product: 'nuitrack_ai_subscription_yearly' } }))).toEqual({
      kind: 'renews',
      term: 'year',
      months: 12,
    })
    expect(
      expiryText(view({ is_subscription: true, lifetime: 'year', config: { product: 'face_online_all_in_one', license_expire_delta: 31_104_000 } })),
    ).toEqual({ kind: 'renews', term: 'year', months: 12 })
    // a 3-month all-in-one term renews every 3 months, not monthly
    expect(
      expiryText(view({ is_subscription: true, lifetime: 'month', config: { product: 'face_online_all_in_one', license_expire_delta: 7_776_000 } })),
    ).toEqual({ kind: 'renews', term: 'month', months: 3 })
    for (const product of SUBSCRIPTION_PRODUCTS) expect(expiryText(view({ is_subscription: true, config: { product } })).kind).toBe('renews')
  })
  it('never only for a license that does not end', () => {
    expect(expiryText(view({}))).toEqual({ kind: 'never' })
  })
})

describe("groupOnHold: an upgrade holds some of a group's licenses", () => {
  const now = new Date('2026-11-23T10:00:00Z')
  it('while held_until is ahead, and not after it', () => {
    expect(groupOnHold({ held_until: '2026-11-23T10:10:00Z', holded_limit: 2 }, now)).toBe(true)
    expect(groupOnHold({ held_until: '2026-11-23T09:59:00Z', holded_limit: 2 }, now)).toBe(false)
  })
  it('a view without the date: while holded_limit counts held licenses', () => {
    expect(groupOnHold({ held_until: null, holded_limit: 1 }, now)).toBe(true)
    expect(groupOnHold({ held_until: null, holded_limit: 0 }, now)).toBe(false)
  })
})

describe('showsAsTrial', () => {
  it('a trial that nothing pays for reads as a trial; a license with a paid subscription never does', () => {
    expect(showsAsTrial({ is_trial: true, subscription: null })).toBe(true)
    expect(showsAsTrial({ is_trial: false, subscription: null })).toBe(false)
    const paid = {
      id: 1,
      state: 'active',
      payment_source: 'balance',
      wallet: false,
      cancel_at_period_end: false,
      failed_attempts: 0,
      next_attempt: null,
      renewal_price: 15,
    }
    expect(showsAsTrial({ is_trial: true, subscription: paid as LicenseView['subscription'] })).toBe(false)
  })
})
