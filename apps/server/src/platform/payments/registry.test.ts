import { describe, expect, it } from 'vitest'
import type { PaymentProviderName } from '@portal/domain'
import type { Config } from '../config.ts'
import { PaymentUnavailable, type PaymentProvider } from './port.ts'
import { sandboxAllowed, selectPaymentProviders, type PaymentAdapters } from './registry.ts'

/** Which adapter serves each payment source, from the configuration and the adapters the app could build. */

const adapter = (name: PaymentProviderName): PaymentProvider => ({
  name,
  createCheckout: async () => ({ provider: name, sessionId: `${name}-1`, url: `https://${name}.test/` }),
  charge: async () => {
    throw new Error('not charged in these tests')
  },
})
const sandbox = adapter('sandbox')
const stripe = adapter('stripe')
const paypal = adapter('paypal')

type Settings = Pick<Config, 'NODE_ENV' | 'PAYMENTS_SANDBOX' | 'PAYMENTS_CARD_PROVIDER' | 'PAYMENTS_PAYPAL_PROVIDER'>
const settings = (over: Partial<Settings> = {}): Settings => ({
  NODE_ENV: 'development',
  PAYMENTS_SANDBOX: '0',
  PAYMENTS_CARD_PROVIDER: 'auto',
  PAYMENTS_PAYPAL_PROVIDER: 'auto',
  ...over,
})
const select = (over: Partial<Settings>, adapters: PaymentAdapters) => selectPaymentProviders(settings(over), adapters)

describe('auto', () => {
  it('the real provider when it was built (its keys are set), else the sandbox', () => {
    expect(select({}, { sandbox }).describe()).toEqual({ stripe: 'sandbox', paypal: 'sandbox' })
    expect(select({}, { sandbox, stripe }).describe()).toEqual({ stripe: 'stripe', paypal: 'sandbox' })
    expect(select({}, { sandbox, paypal }).describe()).toEqual({ stripe: 'sandbox', paypal: 'paypal' })
    const both = select({}, { sandbox, stripe, paypal })
    expect(both.describe()).toEqual({ stripe: 'stripe', paypal: 'paypal' })
    expect(both.forSource('stripe')).toBe(stripe)
    expect(both.forSource('paypal')).toBe(paypal)
  })

  it('no adapter at all: every source is unavailable', () => {
    const none = select({}, {})
    expect(none.describe()).toEqual({ stripe: 'unavailable', paypal: 'unavailable' })
    expect(() => none.forSource('stripe')).toThrow(PaymentUnavailable)
  })
})

describe('production', () => {
  it('without PAYMENTS_SANDBOX the sandbox serves nothing: a source without its real provider is unavailable', () => {
    const prod = select({ NODE_ENV: 'production' }, { sandbox, stripe })
    expect(prod.describe()).toEqual({ stripe: 'stripe', paypal: 'unavailable' })
    expect(() => prod.forSource('paypal')).toThrow(PaymentUnavailable)
    expect(prod.byName('sandbox')).toBeUndefined()
    // forcing the sandbox in production does not bring it back either
    const forced = select({ NODE_ENV: 'production', PAYMENTS_CARD_PROVIDER: 'sandbox' }, { sandbox, stripe })
    expect(forced.describe().stripe).toBe('unavailable')
  })

  it('with PAYMENTS_SANDBOX=1 (a staging site) the sandbox serves as in development', () => {
    expect(sandboxAllowed({ NODE_ENV: 'production', PAYMENTS_SANDBOX: '1' })).toBe(true)
    expect(sandboxAllowed({ NODE_ENV: 'production', PAYMENTS_SANDBOX: '0' })).toBe(false)
    expect(sandboxAllowed({ NODE_ENV: 'test', PAYMENTS_SANDBOX: '0' })).toBe(true)
    const staging = select({ NODE_ENV: 'production', PAYMENTS_SANDBOX: '1' }, { sandbox, stripe })
    expect(staging.describe()).toEqual({ stripe: 'stripe', paypal: 'sandbox' })
    expect(staging.byName('sandbox')).toBe(sandbox)
  })
})

describe('forced settings', () => {
  it('sandbox: the sandbox even where the real provider is built', () => {
    const forced = select({ PAYMENTS_CARD_PROVIDER: 'sandbox', PAYMENTS_PAYPAL_PROVIDER: 'sandbox' }, { sandbox, stripe, paypal })
    expect(forced.describe()).toEqual({ stripe: 'sandbox', paypal: 'sandbox' })
    // the real adapters still answer by name, so their webhooks of checkouts opened before apply
    expect(forced.byName('stripe')).toBe(stripe)
    expect(forced.byName('paypal')).toBe(paypal)
  })

  it('the real provider named but not built (its keys missing): unavailable, never a silent fallback to the sandbox', () => {
    const forced = select({ PAYMENTS_CARD_PROVIDER: 'stripe', PAYMENTS_PAYPAL_PROVIDER: 'paypal' }, { sandbox })
    expect(forced.describe()).toEqual({ stripe: 'unavailable', paypal: 'unavailable' })
    expect(() => forced.forSource('stripe')).toThrow(PaymentUnavailable)
    expect(() => forced.forSource('paypal')).toThrow(PaymentUnavailable)
  })

  it('the real provider named and built serves its source', () => {
    const forced = select({ PAYMENTS_CARD_PROVIDER: 'stripe' }, { sandbox, stripe })
    expect(forced.forSource('stripe')).toBe(stripe)
    expect(forced.forSource('paypal')).toBe(sandbox)
  })
})
