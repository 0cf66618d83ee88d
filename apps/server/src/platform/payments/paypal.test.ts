import fc from 'fast-check'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { FAKE_PAYER_EMAIL, FAKE_PAYPAL_CLIENT, startFakePaypal } from '../../test/fake-providers.ts'
import { centsToDecimal, createPaypalProvider, decimalToCents } from './paypal.ts'
import { PaymentUnavailable, type CheckoutRequest, type PaymentProvider } from './port.ts'

/** The PayPal adapter against a local fake of PayPal's REST API (OAuth token, Orders v2). */

const fake = await startFakePaypal()
afterAll(() => fake.close())

const config = {
  PAYPAL_CLIENT_ID: FAKE_PAYPAL_CLIENT.id,
  PAYPAL_CLIENT_SECRET: FAKE_PAYPAL_CLIENT.secret,
  PAYPAL_API_BASE: fake.url,
  PAYPAL_MERCHANT_ID: 'MERCHANTFAKE',
}
let paypal: PaymentProvider
beforeEach(() => {
  fake.mode = 'ok'
  fake.requests.length = 0
  paypal = createPaypalProvider(config, { timeoutMs: 5_000 })
})

const request = (over: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  transactionId: 7,
  source: 'paypal',
  mode: 'payment',
  lines: [{ description: 'Balance top-up', quantity: 1, amount_cents: 15_050 }],
  amountCents: 15_050,
  customerEmail: 'ada@example.com',
  successUrl: 'http://portal.test/app/nuitrack/balance-purchase-success/',
  cancelUrl: 'http://portal.test/app/nuitrack/',
  expiresAt: new Date(Date.now() + 24 * 3600_000),
  ...over,
})

describe('amounts', () => {
  it('cents and PayPal decimal strings convert both ways without floats', () => {
    expect(centsToDecimal(15_000)).toBe('150.00')
    expect(centsToDecimal(5)).toBe('0.05')
    expect(centsToDecimal(99_999_999)).toBe('999999.99')
    expect(decimalToCents('150.5')).toBe(15_050)
    expect(decimalToCents('150')).toBe(15_000)
    for (const bad of ['', '1.234', '-1.00', '1e3', 'abc', '1,00']) expect(decimalToCents(bad), bad).toBeNull()
    fc.assert(fc.property(fc.integer({ min: 0, max: 99_999_999_999 }), (cents) => decimalToCents(centsToDecimal(cents)) === cents))
  })
})

describe('createCheckout', () => {
  it('takes an OAuth token, then creates a CAPTURE order in USD carrying our transaction and answers the approval link', async () => {
    const session = await paypal.createCheckout(request())
    expect(session.provider).toBe('paypal')
    const order = fake.orders.get(session.sessionId)!
    expect(order).toBeDefined()
    expect(session.url).toBe(`https://www.sandbox.paypal.test/checkoutnow?token=${session.sessionId}`)

    const [token, create] = fake.requests
    expect(token!.path).toBe('/v1/oauth2/token')
    expect(create!.path).toBe('/v2/checkout/orders')
    expect(create!.headers['paypal-request-id']).toBe('portal-checkout-7')
    expect(order.body).toEqual({
      intent: 'CAPTURE',
      purchase_units: [
        {
          reference_id: '7',
          custom_id: '7',
          description: 'Balance top-up',
          amount: { currency_code: 'USD', value: '150.50', breakdown: { item_total: { currency_code: 'USD', value: '150.50' } } },
          items: [{ name: 'Balance top-up', quantity: '1', unit_amount: { currency_code: 'USD', value: '150.50' }, category: 'DIGITAL_GOODS' }],
          payee: { merchant_id: 'MERCHANTFAKE' },
        },
      ],
      payment_source: {
        paypal: {
          email_address: 'ada@example.com',
          experience_context: {
            locale: 'en-US',
            shipping_preference: 'NO_SHIPPING',
            user_action: 'PAY_NOW',
            return_url: 'http://portal.test/app/nuitrack/balance-purchase-success/',
            cancel_url: 'http://portal.test/app/nuitrack/',
          },
        },
      },
    })
  })

  it('items add up to the total even when a line does not divide by its quantity', async () => {
    const session = await paypal.createCheckout(
      request({
        lines: [
          { description: 'Nuitrack Pro', quantity: 3, amount_cents: 9_000 },
          { description: 'Face SDK', quantity: 3, amount_cents: 1_000 },
        ],
        amountCents: 10_000,
      }),
    )
    const unit = (fake.orders.get(session.sessionId)!.body.purchase_units as { items: unknown[] }[])[0]!
    expect(unit.items).toEqual([
      { name: 'Nuitrack Pro', quantity: '3', unit_amount: { currency_code: 'USD', value: '30.00' }, category: 'DIGITAL_GOODS' },
      { name: '3 × Face SDK', quantity: '1', unit_amount: { currency_code: 'USD', value: '10.00' }, category: 'DIGITAL_GOODS' },
    ])
  })

  it('the token is cached until it expires; parallel calls share one token request', async () => {
    const before = fake.tokensIssued()
    await Promise.all([paypal.createCheckout(request({ transactionId: 1 })), paypal.createCheckout(request({ transactionId: 2 }))])
    await paypal.createCheckout(request({ transactionId: 3 }))
    expect(fake.tokensIssued() - before).toBe(1)

    // with the clock past the token's lifetime a new one is taken
    let now = Date.now()
    const aging = createPaypalProvider(config, { now: () => now })
    await aging.createCheckout(request({ transactionId: 4 }))
    now += 32_400_000
    await aging.createCheckout(request({ transactionId: 5 }))
    expect(fake.tokensIssued() - before).toBe(3)
  })

  it('a token PayPal revoked early: one fresh token, and the call goes through', async () => {
    await paypal.createCheckout(request({ transactionId: 1 }))
    const before = fake.tokensIssued()
    fake.revokeTokens()
    const session = await paypal.createCheckout(request({ transactionId: 2 }))
    expect(fake.orders.has(session.sessionId)).toBe(true)
    expect(fake.tokensIssued() - before).toBe(1)
  })

  it.each([
    ['a 500', 500],
    ['a 503', 503],
    ['a 400', 400],
    ['a dropped connection', 'drop' as const],
  ])('PayPal answering %s: PaymentUnavailable', async (_label, mode) => {
    fake.mode = mode
    await expect(paypal.createCheckout(request())).rejects.toBeInstanceOf(PaymentUnavailable)
  })

  it('wrong client credentials: PaymentUnavailable', async () => {
    const wrong = createPaypalProvider({ ...config, PAYPAL_CLIENT_SECRET: 'nope' })
    await expect(wrong.createCheckout(request())).rejects.toBeInstanceOf(PaymentUnavailable)
  })
})

describe('capture', () => {
  it('captures an approved order: a paid event with the capture id, the amount and the payer', async () => {
    const { sessionId } = await paypal.createCheckout(request())
    fake.approve(sessionId)
    const event = await paypal.capture!(sessionId)
    const capture = fake.orders.get(sessionId)!.capture!
    expect(event).toEqual({
      provider: 'paypal',
      eventId: capture.id,
      sessionId,
      outcome: 'paid',
      amountCents: 15_050,
      paymentMethod: `PayPal (${FAKE_PAYER_EMAIL})`,
    })
    expect(fake.requests.at(-1)!.headers['paypal-request-id']).toBe(`portal-capture-${sessionId}`)
  })

  it('an order captured already answers the same event (read back from the order), in parallel too', async () => {
    const { sessionId } = await paypal.createCheckout(request())
    fake.approve(sessionId)
    const events = await Promise.all(Array.from({ length: 5 }, () => paypal.capture!(sessionId)))
    expect(new Set(events.map((e) => e.eventId)).size).toBe(1)
    expect(events.every((e) => e.outcome === 'paid' && e.amountCents === 15_050)).toBe(true)
    // one capture, four answers of ORDER_ALREADY_CAPTURED followed by a GET of the order
    expect(fake.requests.filter((r) => r.method === 'GET').length).toBe(4)
    expect((await paypal.capture!(sessionId)).eventId).toBe(events[0]!.eventId)
  })

  it('the payer funding refused: a declined event; an order not approved yet: PaymentUnavailable (nothing to apply)', async () => {
    const declined = await paypal.createCheckout(request({ transactionId: 8 }))
    fake.approve(declined.sessionId, { declines: true })
    expect(await paypal.capture!(declined.sessionId)).toMatchObject({ outcome: 'declined', sessionId: declined.sessionId })

    const open = await paypal.createCheckout(request({ transactionId: 9 }))
    await expect(paypal.capture!(open.sessionId)).rejects.toBeInstanceOf(PaymentUnavailable)
  })

  it('PayPal down at capture: PaymentUnavailable', async () => {
    const { sessionId } = await paypal.createCheckout(request())
    fake.approve(sessionId)
    fake.mode = 503
    await expect(paypal.capture!(sessionId)).rejects.toBeInstanceOf(PaymentUnavailable)
    fake.mode = 'drop'
    await expect(paypal.capture!(sessionId)).rejects.toBeInstanceOf(PaymentUnavailable)
    expect(fake.orders.get(sessionId)!.capture).toBeNull()
  })
})
