import { describe, expect, it } from 'vitest'
import { aiUpgradeSoldAs, paymentMethodText, subscriptionPhase, type LicenseView } from './license-views.ts'
import type { SubscriptionView } from './subscriptions.ts'

const sub = (over: Partial<SubscriptionView> = {}): SubscriptionView => ({
  id: 1,
  state: 'active',
  payment_source: 'stripe',
  wallet: false,
  cancel_at_period_end: false,
  failed_attempts: 0,
  next_attempt: '2026-12-22T12:00:00.000Z',
  renewal_price: 49,
  ...over,
})
type PhaseInput = Parameters<typeof subscriptionPhase>[0]
const view = (over: Partial<PhaseInput> = {}): PhaseInput => ({
  status: 0,
  state: 'active',
  subscription: sub(),
  subscription_status: 'active',
  is_trial: false,
  is_subscription: true,
  ...over,
})

describe('subscriptionPhase (section 4)', () => {
  it('a license that does not renew has none: perpetual, trial', () => {
    expect(subscriptionPhase(view({ subscription: null, is_subscription: false, subscription_status: 'none' }))).toBeNull()
    expect(subscriptionPhase(view({ subscription: null, is_trial: true, subscription_status: 'none' }))).toBeNull()
  })
  it('each state, by precedence', () => {
    expect(subscriptionPhase(view())).toBe('active')
    expect(subscriptionPhase(view({ subscription: null }))).toBe('active')
    expect(subscriptionPhase(view({ subscription: sub({ cancel_at_period_end: true }) }))).toBe('cancel_pending')
    expect(subscriptionPhase(view({ subscription: sub({ state: 'past_due', failed_attempts: 1 }) }))).toBe('past_due')
    expect(subscriptionPhase(view({ subscription: sub({ state: 'awaiting_authentication' }) }))).toBe('awaiting_authentication')
    expect(subscriptionPhase(view({ state: 'paused', subscription_status: 'paused' }))).toBe('paused')
    expect(subscriptionPhase(view({ subscription_status: 'cancelled' }))).toBe('cancelled')
    expect(subscriptionPhase(view({ subscription: sub({ state: 'ended' }) }))).toBe('cancelled')
    expect(subscriptionPhase(view({ status: 1, subscription: sub({ state: 'stopped' }) }))).toBe('stopped')
    expect(subscriptionPhase(view({ status: 1, subscription_status: 'cancelled' }))).toBe('stopped')
    // suspended because its payment was taken back: not a renewal to pay
    expect(subscriptionPhase(view({ status: 1, suspended_reason: 'payment refunded (CN-000001): x', subscription: sub({ state: 'stopped' }) }))).toBe(
      'taken_back',
    )
    expect(subscriptionPhase(view({ status: 2, suspended_reason: 'payment refunded (CN-000001): x' }))).toBe('on_hold')
    expect(subscriptionPhase(view({ status: 2, subscription: sub({ state: 'past_due' }) }))).toBe('on_hold')
  })
})

describe('paymentMethodText', () => {
  const l = (over: Partial<Pick<LicenseView, 'card_brand' | 'card_last4' | 'paypal_email'>>, source: SubscriptionView['payment_source'] | null) => ({
    card_brand: null,
    card_last4: null,
    paypal_email: null,
    ...over,
    subscription: source ? { payment_source: source } : null,
  })
  it('names the card, the PayPal e-mail or the balance', () => {
    expect(paymentMethodText(l({ card_brand: 'visa', card_last4: '4242' }, 'stripe'))).toBe('Visa •••• 4242')
    expect(paymentMethodText(l({ card_brand: 'amex', card_last4: '0005' }, 'stripe'))).toBe('American Express •••• 0005')
    expect(paymentMethodText(l({ card_brand: 'discover', card_last4: '1117' }, null))).toBe('Discover •••• 1117')
    expect(paymentMethodText(l({ paypal_email: 'ann@example.com' }, 'paypal'))).toBe('PayPal (ann@example.com)')
    expect(paymentMethodText(l({ card_brand: 'visa', card_last4: '4242' }, 'balance'))).toBe('Balance')
    expect(paymentMethodText(l({}, 'paypal'))).toBe('PayPal')
    expect(paymentMethodText(l({}, null))).toBeNull()
  })
})

describe('aiUpgradeSoldAs', () => {
  it('Pro is upgraded as the catalogue sells it; a product without an upgrade has none', () => {
    expect(aiUpgradeSoldAs('nuitrack_online')).toBe('upgrade_nuitrack_pro')
    expect(aiUpgradeSoldAs('nuitrack_ai_perpetual')).toBeNull()
  })
})
