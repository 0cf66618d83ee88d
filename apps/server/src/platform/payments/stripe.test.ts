import Stripe from 'stripe'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeStripe, stripeSessionEvent } from '../../test/fake-providers.ts'
import { PaymentRefused, PaymentUnavailable, WebhookSignatureError, type CheckoutRequest, type SavedPaymentMethod } from './port.ts'
import { createStripeProvider, withSessionIdParam } from './stripe.ts'

/** The Stripe adapter against a local fake of the Stripe API, and webhooks signed with the package's own test helper. */

const fake = await startFakeStripe()
afterAll(() => fake.close())
beforeEach(() => {
  fake.mode = 'ok'
  fake.requests.length = 0
  fake.sessions.length = 0
  fake.intentsCreated.length = 0
})

const SECRET = 'whsec_test_secret'
const config = { STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_BASE: fake.url }
/** each test an installation of its own: its own prefix of the idempotency keys */
let prefix = 'p-test'
const keyPrefix = () => Promise.resolve(prefix)
beforeEach(() => {
  prefix = `p${Math.random().toString(16).slice(2, 14)}`
})
const stripe = createStripeProvider(config, { maxNetworkRetries: 0, timeoutMs: 5_000, keyPrefix })

const request = (over: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  transactionId: 42,
  source: 'stripe',
  mode: 'payment',
  lines: [{ description: 'Balance top-up', quantity: 1, amount_cents: 15_000 }],
  amountCents: 15_000,
  customerEmail: 'ada@example.com',
  successUrl: 'http://portal.test/app/nuitrack/balance-purchase-success/?next=%2Fapp%2F',
  cancelUrl: 'http://portal.test/app/nuitrack/',
  expiresAt: new Date(Date.now() + 24 * 3600_000),
  ...over,
})

const signed = (payload: string, secret = SECRET) => ({
  rawBody: Buffer.from(payload),
  headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
})

describe('createCheckout', () => {
  it('opens a Checkout Session in payment mode with the lines in USD cents, the customer, the return addresses and our transaction', async () => {
    const session = await stripe.createCheckout(request())
    expect(session.provider).toBe('stripe')
    expect(session.sessionId).toMatch(/^cs_test_/)
    expect(session.url).toBe(`https://checkout.stripe.test/c/pay/${session.sessionId}`)

    const sent = fake.requests[0]!
    expect(sent.method).toBe('POST')
    expect(sent.path).toBe('/v1/checkout/sessions')
    expect(sent.headers.authorization).toBe('Bearer sk_test_fake')
    expect(sent.headers['idempotency-key']).toBe(`${prefix}:checkout:42`)
    const form = fake.sessions[0]!
    expect(form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '15000',
      'line_items[0][price_data][product_data][name]': 'Balance top-up',
      customer_email: 'ada@example.com',
      success_url: 'http://portal.test/app/nuitrack/balance-purchase-success/?next=%2Fapp%2F&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://portal.test/app/nuitrack/',
      client_reference_id: '42',
      'metadata[transaction_id]': '42',
      'payment_intent_data[metadata][transaction_id]': '42',
      'allowed_payment_method_types[0]': 'card',
    })
    expect(form['line_items[0][price_data][recurring][interval]']).toBeUndefined()
    // expires_at: within Stripe's window of 30 minutes to 24 hours
    const expires = Number(form.expires_at) - Date.now() / 1000
    expect(expires).toBeGreaterThan(30 * 60)
    expect(expires).toBeLessThan(24 * 3600)
  })

  it('a subscription: a payment that saves the card (customer_creation always, setup_future_usage off_session), no recurring prices', async () => {
    await stripe.createCheckout(
      request({
        mode: 'subscription',
        interval: 'year',
        lines: [
          { description: 'Nuitrack Pro', quantity: 3, amount_cents: 9_000 },
          { description: 'Face SDK', quantity: 3, amount_cents: 1_000 },
        ],
        amountCents: 10_000,
      }),
    )
    const form = fake.sessions[0]!
    expect(form).toMatchObject({
      mode: 'payment',
      customer_creation: 'always',
      'payment_intent_data[setup_future_usage]': 'off_session',
      'payment_intent_data[metadata][transaction_id]': '42',
      'payment_intent_data[metadata][portal_mode]': 'subscription',
      'metadata[portal_mode]': 'subscription',
      'line_items[0][quantity]': '3',
      'line_items[0][price_data][unit_amount]': '3000',
      // 1000 cents do not divide by 3: one item for the line's total, named with its quantity
      'line_items[1][quantity]': '1',
      'line_items[1][price_data][unit_amount]': '1000',
      'line_items[1][price_data][product_data][name]': '3 × Face SDK',
    })
    expect(Object.keys(form).filter((k) => k.includes('recurring') || k.startsWith('subscription_data'))).toEqual([])
    // a one-off payment saves nothing
    await stripe.createCheckout(request({ transactionId: 43 }))
    expect(fake.sessions[1]!.customer_creation).toBeUndefined()
    expect(fake.sessions[1]!['payment_intent_data[setup_future_usage]']).toBeUndefined()
  })

  it.each([
    ['a 500', 500],
    ['a 402 card error', 402],
    ['a 401 (a wrong key)', 401],
    ['a dropped connection', 'drop' as const],
  ])('Stripe answering %s: PaymentUnavailable', async (_label, mode) => {
    fake.mode = mode
    await expect(stripe.createCheckout(request())).rejects.toBeInstanceOf(PaymentUnavailable)
  })

  it('Stripe not listening at all: PaymentUnavailable', async () => {
    const gone = createStripeProvider({ ...config, STRIPE_API_BASE: 'http://127.0.0.1:9' }, { maxNetworkRetries: 0, timeoutMs: 2_000, keyPrefix })
    await expect(gone.createCheckout(request())).rejects.toBeInstanceOf(PaymentUnavailable)
  })
})

describe('withSessionIdParam', () => {
  it.each([
    ['http://p.test/app/x/', 'http://p.test/app/x/?session_id={CHECKOUT_SESSION_ID}'],
    ['http://p.test/app/x/?a=1', 'http://p.test/app/x/?a=1&session_id={CHECKOUT_SESSION_ID}'],
    ['http://p.test/app/x/?', 'http://p.test/app/x/?session_id={CHECKOUT_SESSION_ID}'],
    ['http://p.test/app/x/?a=1#top', 'http://p.test/app/x/?a=1&session_id={CHECKOUT_SESSION_ID}#top'],
  ])('%s', (url, expected) => expect(withSessionIdParam(url)).toBe(expected))
})

describe('parseWebhook', () => {
  const parse = (event: unknown) => stripe.parseWebhook!(signed(JSON.stringify(event)))

  it('checkout.session.completed and paid: a paid event with the amount, the card and the event id', async () => {
    const event = stripeSessionEvent('checkout.session.completed', { id: 'cs_1', amount_total: 15_000, transaction_id: 42 }, 'evt_1')
    expect(await parse(event)).toEqual({
      provider: 'stripe',
      eventId: 'evt_1',
      sessionId: 'cs_1',
      outcome: 'paid',
      amountCents: 15_000,
      paymentMethod: 'Card',
      // kept on the transaction: Stripe's refund and dispute events name it
      paymentRef: 'pi_fake',
    })
  })

  it('the card brand and last 4 when the event carries them', async () => {
    const event = stripeSessionEvent('checkout.session.completed', { id: 'cs_1', amount_total: 15_000 }, 'evt_1')
    Object.assign(event.data.object, {
      payment_intent: {
        id: 'pi_1',
        object: 'payment_intent',
        latest_charge: { id: 'ch_1', payment_method_details: { card: { brand: 'visa', last4: '4242' } } },
      },
    })
    expect((await parse(event))?.paymentMethod).toBe('Visa •••• 4242')
  })

  it('completed but not paid yet (an asynchronous method): nothing until async_payment_succeeded', async () => {
    expect(await parse(stripeSessionEvent('checkout.session.completed', { id: 'cs_1', amount_total: 15_000, payment_status: 'unpaid' }))).toBeNull()
    const ok = await parse(
      stripeSessionEvent('checkout.session.async_payment_succeeded', { id: 'cs_1', amount_total: 15_000, payment_status: 'paid' }, 'evt_2'),
    )
    expect(ok).toMatchObject({ outcome: 'paid', eventId: 'evt_2', amountCents: 15_000 })
  })

  it('async payment failed: declined; expired: expired; other types: ignored', async () => {
    expect(await parse(stripeSessionEvent('checkout.session.async_payment_failed', { id: 'cs_1' }, 'evt_3'))).toEqual({
      provider: 'stripe',
      eventId: 'evt_3',
      sessionId: 'cs_1',
      outcome: 'declined',
    })
    expect(await parse(stripeSessionEvent('checkout.session.expired', { id: 'cs_1' }, 'evt_4'))).toMatchObject({ outcome: 'expired', sessionId: 'cs_1' })
    expect(await parse({ ...stripeSessionEvent('payment_intent.created', { id: 'cs_1' }), data: { object: { id: 'pi_1' } } })).toBeNull()
  })

  it('a wrong secret, a changed body, a missing or stale header: WebhookSignatureError', async () => {
    const payload = JSON.stringify(stripeSessionEvent('checkout.session.completed', { id: 'cs_1', amount_total: 15_000 }))
    expect(() => stripe.parseWebhook!(signed(payload, 'whsec_other'))).toThrow(WebhookSignatureError)
    const good = signed(payload)
    expect(() => stripe.parseWebhook!({ ...good, rawBody: Buffer.from(payload.replace('15000', '99999')) })).toThrow(WebhookSignatureError)
    expect(() => stripe.parseWebhook!({ rawBody: good.rawBody, headers: {} })).toThrow(WebhookSignatureError)
    const stale = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 })
    expect(() => stripe.parseWebhook!({ rawBody: good.rawBody, headers: { 'stripe-signature': stale } })).toThrow(WebhookSignatureError)
  })

  it('a paid subscription-mode session: the PaymentIntent is fetched for the saved card (pm_, cus_, brand, last 4)', async () => {
    const paid = fake.paySession('cs_sub', { brand: 'mastercard', last4: '4444' })
    const event = stripeSessionEvent('checkout.session.completed', { id: 'cs_sub', amount_total: 3_000, transaction_id: 42, subscription: paid }, 'evt_s')
    expect(await parse(event)).toEqual({
      provider: 'stripe',
      eventId: 'evt_s',
      sessionId: 'cs_sub',
      outcome: 'paid',
      amountCents: 3_000,
      paymentMethod: 'Mastercard •••• 4444',
      paymentRef: paid.paymentIntent,
      savedMethod: { provider: 'stripe', source: 'stripe', token: paid.paymentMethod, customerRef: paid.customer, cardBrand: 'Mastercard', cardLast4: '4444' },
    })
    const get = fake.requests.find((r) => r.method === 'GET')!
    expect(decodeURIComponent(get.path)).toBe(`/v1/payment_intents/${paid.paymentIntent}?expand[0]=payment_method`)
    // a one-off session's event fetches nothing
    fake.requests.length = 0
    await parse(stripeSessionEvent('checkout.session.completed', { id: 'cs_1', amount_total: 15_000 }))
    expect(fake.requests).toEqual([])
  })

  it('Stripe down while reading the saved card: PaymentUnavailable (the webhook answers 503 and Stripe delivers it again)', async () => {
    const paid = fake.paySession('cs_sub')
    fake.mode = 500
    await expect(parse(stripeSessionEvent('checkout.session.completed', { id: 'cs_sub', amount_total: 3_000, subscription: paid }))).rejects.toBeInstanceOf(
      PaymentUnavailable,
    )
  })

  it('without STRIPE_WEBHOOK_SECRET webhooks cannot be verified: PaymentUnavailable', () => {
    const noSecret = createStripeProvider({ ...config, STRIPE_WEBHOOK_SECRET: undefined }, { keyPrefix })
    expect(() => noSecret.parseWebhook!(signed('{}'))).toThrow(PaymentUnavailable)
  })
})

describe('charge', () => {
  const saved = (card: { brand?: string; last4?: string } = {}) => {
    const paid = fake.paySession('cs_any', card)
    return {
      provider: 'stripe' as const,
      source: 'stripe' as const,
      token: paid.paymentMethod,
      customerRef: paid.customer,
      cardBrand: 'Visa',
      cardLast4: card.last4 ?? '4242',
    }
  }
  const charge = (method: SavedPaymentMethod, key = 'renewal:1:2026-12-01:0', amountCents = 2_900) =>
    stripe.charge({ transactionId: 77, idempotencyKey: key, method, amountCents, description: 'Face SDK renewal', customerEmail: 'ada@example.com' })

  it('an off-session PaymentIntent on the saved card, confirmed, with the idempotency key: a paid event', async () => {
    const method = saved()
    const result = await charge(method)
    expect(result.event.outcome).toBe('paid')
    const [form] = fake.intentsCreated
    expect(form).toMatchObject({
      amount: '2900',
      currency: 'usd',
      customer: method.customerRef,
      payment_method: method.token,
      off_session: 'true',
      confirm: 'true',
      'metadata[transaction_id]': '77',
    })
    const sent = fake.requests.find((r) => r.path === '/v1/payment_intents')!
    expect(sent.headers['idempotency-key']).toBe(`${prefix}:renewal:1:2026-12-01:0`)
    const intentId = [...fake.intents.keys()].at(-1)!
    expect(result).toEqual({
      event: { provider: 'stripe', eventId: `${intentId}.paid`, sessionId: intentId, outcome: 'paid', amountCents: 2_900, paymentMethod: 'Visa •••• 4242' },
    })
  })

  it('the same key twice (or 5 in parallel) is one PaymentIntent and the same event', async () => {
    const method = saved()
    const first = await charge(method, 'k-1')
    const again = await charge(method, 'k-1')
    const parallel = await Promise.all(Array.from({ length: 5 }, () => charge(method, 'k-2')))
    expect(again).toEqual(first)
    expect(new Set(parallel.map((r) => r.event.eventId)).size).toBe(1)
    expect(fake.intentsCreated).toHaveLength(2)
  })

  it('a card declined off-session: a declined event with the decline code (replayed the same for the same key)', async () => {
    const method = saved()
    fake.declineCard(method.token, 'insufficient_funds')
    const result = await charge(method, 'k-d')
    expect(result.declineReason).toBe('insufficient_funds')
    expect(result.event).toMatchObject({ provider: 'stripe', outcome: 'declined', amountCents: 2_900, sessionId: expect.stringMatching(/^pi_/) })
    expect(await charge(method, 'k-d')).toEqual(result)
    expect(fake.intentsCreated).toHaveLength(1)
  })

  it('a card Stripe no longer has: declined, payment_method_not_found', async () => {
    const result = await charge({ provider: 'stripe', source: 'stripe', token: 'pm_gone', customerRef: null }, 'k-gone')
    expect(result.declineReason).toBe('payment_method_not_found')
    expect(result.event.outcome).toBe('declined')
  })

  it.each([
    ['authentication_required', 'authentication_required'],
    ['expired_card', 'expired_card'],
    ['insufficient_funds', 'insufficient_funds'],
  ] as const)('an off-session charge refused with %s: a declined event with that reason, never PaymentUnavailable', async (_label, failure) => {
    const method = saved()
    fake.declineCard(method.token, failure)
    const result = await charge(method, `k-${failure}`)
    expect(result.declineReason).toBe(failure)
    expect(result.event).toMatchObject({ outcome: 'declined', sessionId: expect.stringMatching(/^pi_/) })
    // only a card asking for authentication sends the customer to confirm on-session
    expect(result.authenticationRequired ?? false).toBe(failure === 'authentication_required')
  })

  it('a 429 is not kept for the key: the same key later charges once', async () => {
    const method = saved()
    fake.failNextCharge(429)
    await expect(charge(method, 'k-429')).rejects.toBeInstanceOf(PaymentUnavailable)
    const result = await charge(method, 'k-429')
    expect(result.event.outcome).toBe('paid')
    expect(fake.intentsCreated).toHaveLength(1)
  })

  it('a 500 is kept for its key and replayed (Stripe-Should-Retry: false): nothing charged, so the key is marked spent', async () => {
    const method = saved()
    fake.failNextCharge(500)
    const first = await charge(method, 'k-500').catch((err: unknown) => err)
    expect(first).toBeInstanceOf(PaymentUnavailable)
    expect((first as PaymentUnavailable).keySpent).toBe(true)
    // the same key is the same 500 for ever
    await expect(charge(method, 'k-500')).rejects.toBeInstanceOf(PaymentUnavailable)
    expect(fake.intentsCreated).toHaveLength(0)
  })

  it("a 500 after which the transaction's PaymentIntent exists: answered from it (read from the customer's list)", async () => {
    const method = saved()
    await charge(method, 'k-made')
    fake.failNextCharge(500)
    const result = await charge(method, 'k-made-again')
    expect(result.event).toMatchObject({ outcome: 'paid', amountCents: 2_900 })
    expect(fake.intentsCreated).toHaveLength(1)
  })

  it('the same key with other parameters is refused by Stripe (idempotency_error) and charges nothing', async () => {
    const method = saved()
    await charge(method, 'k-drift', 2_900)
    // no retry under that key changes it: a refusal for good, not an outage
    await expect(charge(method, 'k-drift', 3_100)).rejects.toBeInstanceOf(PaymentRefused)
    expect(fake.intentsCreated).toHaveLength(1)
  })

  it.each([
    ['a 500', 500],
    ['a dropped connection', 'drop' as const],
  ])('Stripe answering %s: PaymentUnavailable (retried)', async (_label, mode) => {
    const method = saved()
    fake.mode = mode
    await expect(charge(method, `k-down-${String(mode)}`)).rejects.toBeInstanceOf(PaymentUnavailable)
  })

  it('Stripe answering a 401 (a wrong key): PaymentRefused, a refusal no retry changes', async () => {
    const method = saved()
    fake.mode = 401
    await expect(charge(method, 'k-down-401')).rejects.toBeInstanceOf(PaymentRefused)
  })
})

describe('lookup', () => {
  /** a session opened through the adapter, so the fake holds it as Stripe would */
  const opened = async (over: Partial<CheckoutRequest> = {}) => (await stripe.createCheckout(request(over))).sessionId

  it('a Checkout Session read back (GET with its PaymentIntent expanded): open is null, paid is the paid event with the card and the PaymentIntent', async () => {
    const id = await opened()
    expect(await stripe.lookup!(id)).toBeNull()
    const paid = fake.paySession(id, { brand: 'visa', last4: '4242' })
    expect(await stripe.lookup!(id)).toEqual({
      provider: 'stripe',
      eventId: `${id}.paid`,
      sessionId: id,
      outcome: 'paid',
      amountCents: 15_000,
      paymentMethod: 'Visa •••• 4242',
      paymentRef: paid.paymentIntent,
    })
    const get = fake.requests.filter((r) => r.method === 'GET').at(-1)!
    expect(decodeURIComponent(get.path)).toBe(`/v1/checkout/sessions/${id}?expand[0]=payment_intent.latest_charge&expand[1]=payment_intent.payment_method`)
    // reading it back creates nothing at Stripe
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
  })

  it('a subscription-mode session paid: the card its PaymentIntent saved comes with the event', async () => {
    const id = await opened({ mode: 'subscription', amountCents: 3_000, lines: [{ description: 'Face SDK', quantity: 1, amount_cents: 3_000 }] })
    const paid = fake.paySession(id, { brand: 'mastercard', last4: '4444' })
    expect(await stripe.lookup!(id)).toMatchObject({
      outcome: 'paid',
      amountCents: 3_000,
      paymentMethod: 'Mastercard •••• 4444',
      savedMethod: { provider: 'stripe', source: 'stripe', token: paid.paymentMethod, customerRef: paid.customer, cardBrand: 'Mastercard', cardLast4: '4444' },
    })
  })

  it('complete but unpaid: null while its PaymentIntent processes, declined when it failed; expired unpaid: expired', async () => {
    const processing = await opened()
    fake.settleSession(processing, 'processing')
    expect(await stripe.lookup!(processing)).toBeNull()
    fake.settleSession(processing, 'failed')
    expect(await stripe.lookup!(processing)).toMatchObject({ eventId: `${processing}.declined`, outcome: 'declined' })
    // another transaction's session (the same one's key would answer the same session)
    const expired = await opened({ transactionId: 43 })
    fake.settleSession(expired, 'expired')
    expect(await stripe.lookup!(expired)).toEqual({ provider: 'stripe', eventId: `${expired}.expired`, sessionId: expired, outcome: 'expired' })
  })

  it("an off-session PaymentIntent read back: the same event the charge answered; one waiting for the customer's authentication is still open", async () => {
    const paid = fake.paySession('cs_any')
    const method = {
      provider: 'stripe' as const,
      source: 'stripe' as const,
      token: paid.paymentMethod,
      customerRef: paid.customer,
      cardBrand: 'Visa',
      cardLast4: '4242',
    }
    const charged = await stripe.charge({
      transactionId: 5,
      idempotencyKey: 'k-look',
      method,
      amountCents: 2_900,
      description: 'x',
      customerEmail: 'a@example.com',
    })
    expect(await stripe.lookup!(charged.event.sessionId)).toEqual(charged.event)
    fake.failNextCharge(500, 'requires_action')
    await stripe.charge({ transactionId: 6, idempotencyKey: 'k-look-3ds', method, amountCents: 2_900, description: 'x', customerEmail: 'a@example.com' })
    const waiting = [...fake.intents.values()].find((i) => i.status === 'requires_action')!
    expect(await stripe.lookup!(String(waiting.id))).toBeNull()
  })

  it('a session or PaymentIntent Stripe does not know is null; Stripe down is PaymentUnavailable', async () => {
    expect(await stripe.lookup!('cs_test_unknown')).toBeNull()
    expect(await stripe.lookup!('pi_unknown')).toBeNull()
    expect(await stripe.lookup!('failed:renewal:1')).toBeNull()
    fake.mode = 500
    await expect(stripe.lookup!('cs_test_unknown')).rejects.toBeInstanceOf(PaymentUnavailable)
  })
})

describe('charge after a 500', () => {
  it('a PaymentIntent left waiting for authentication (requires_action) is declined authentication_required, not an outage', async () => {
    const paid = fake.paySession('cs_any')
    const method = { provider: 'stripe' as const, source: 'stripe' as const, token: paid.paymentMethod, customerRef: paid.customer }
    fake.failNextCharge(500, 'requires_action')
    const result = await stripe.charge({
      transactionId: 88,
      idempotencyKey: 'k-500-3ds',
      method,
      amountCents: 2_900,
      description: 'x',
      customerEmail: 'a@example.com',
    })
    expect(result.declineReason).toBe('authentication_required')
    const intent = [...fake.intents.values()].find((i) => (i.metadata as Record<string, string>).transaction_id === '88')!
    expect(result.event).toMatchObject({ outcome: 'declined', sessionId: intent.id, eventId: `${String(intent.id)}.declined` })
    expect(fake.intentsCreated).toHaveLength(1)
  })

  it('a retry of a charge answered processing reads its PaymentIntent and creates none', async () => {
    const paid = fake.paySession('cs_any')
    const method = { provider: 'stripe' as const, source: 'stripe' as const, token: paid.paymentMethod, customerRef: paid.customer }
    const first = await stripe.charge({
      transactionId: 89,
      idempotencyKey: 'k-ref',
      method,
      amountCents: 2_900,
      description: 'x',
      customerEmail: 'a@example.com',
    })
    fake.requests.length = 0
    const again = await stripe.charge({
      transactionId: 89,
      idempotencyKey: 'k-ref',
      providerRef: first.event.sessionId,
      method,
      amountCents: 2_900,
      description: 'x',
      customerEmail: 'a@example.com',
    })
    expect(again.event).toEqual(first.event)
    expect(fake.requests.map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual([`GET /v1/payment_intents/${first.event.sessionId}`])
  })
})

describe('refund', () => {
  it("POST /v1/refunds on the session's PaymentIntent: the amount, the reason, our transaction, the idempotency key; never more than is left", async () => {
    const id = (await stripe.createCheckout(request())).sessionId
    const paid = fake.paySession(id)
    const { refundId } = await stripe.refund!({ transactionId: 42, sessionId: id, amountCents: 5_000, idempotencyKey: 'refund:42:5000', reason: 'asked' })
    expect(refundId).toMatch(/^re_/)
    const sent = fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/refunds')!
    expect(Object.fromEntries(new URLSearchParams(sent.body))).toEqual({
      payment_intent: paid.paymentIntent,
      amount: '5000',
      reason: 'requested_by_customer',
      'metadata[transaction_id]': '42',
    })
    expect(sent.headers['idempotency-key']).toBe(`${prefix}:refund:42:5000`)
    // the same key again is the same refund
    expect((await stripe.refund!({ transactionId: 42, sessionId: id, amountCents: 5_000, idempotencyKey: 'refund:42:5000', reason: 'asked' })).refundId).toBe(
      refundId,
    )
    expect(fake.refunds).toHaveLength(1)
    // 100.00 left: 120.00 is refused
    await expect(
      stripe.refund!({ transactionId: 42, sessionId: id, amountCents: 12_000, idempotencyKey: 'refund:42:12000', reason: 'x' }),
    ).rejects.toBeInstanceOf(PaymentUnavailable)
    expect([...fake.charges.values()].find((c) => c.payment_intent === paid.paymentIntent)!.amount_refunded).toBe(5_000)
  })
})

describe('readWebhook: refunds and disputes', () => {
  const read = (event: unknown) => stripe.readWebhook!(signed(JSON.stringify(event)))

  it('charge.refunded: one notice per refund of the charge (listed, as the event carries only amount_refunded), keyed by the refund', async () => {
    const paid = fake.paySession((await stripe.createCheckout(request())).sessionId)
    const first = fake.refundAtStripe(paid.paymentIntent, 4_000)
    expect(await read(fake.chargeEvent('charge.refunded', first.charge))).toEqual([
      {
        kind: 'refunded',
        provider: 'stripe',
        eventId: `refund:${first.refund}`,
        sessionId: null,
        paymentRef: paid.paymentIntent,
        amountCents: 4_000,
        providerRef: first.refund,
      },
    ])
    const second = fake.refundAtStripe(paid.paymentIntent)
    const notices = await read(fake.chargeEvent('charge.refunded', first.charge))
    expect(notices).toEqual([
      expect.objectContaining({ eventId: `refund:${second.refund}`, amountCents: 11_000 }),
      expect.objectContaining({ eventId: `refund:${first.refund}`, amountCents: 4_000 }),
    ])
    const get = fake.requests.filter((r) => r.method === 'GET').at(-1)!
    expect(decodeURIComponent(get.path)).toBe(`/v1/refunds?charge=${first.charge}&limit=100`)
  })

  it('charge.refunded whose refunds Stripe does not list yet, or Stripe down: PaymentUnavailable (503, Stripe delivers again)', async () => {
    const paid = fake.paySession((await stripe.createCheckout(request())).sessionId)
    const { charge } = fake.refundAtStripe(paid.paymentIntent, 1_000)
    const event = fake.chargeEvent('charge.refunded', charge)
    event.data.object.amount_refunded = 2_000
    await expect(read(event)).rejects.toBeInstanceOf(PaymentUnavailable)
    fake.mode = 500
    await expect(read(fake.chargeEvent('charge.refunded', charge))).rejects.toBeInstanceOf(PaymentUnavailable)
  })

  it('charge.dispute.created takes back; closed lost is the same key; won restores; an inquiry or one closed otherwise is nothing', async () => {
    const paid = fake.paySession((await stripe.createCheckout(request())).sessionId)
    const dispute = fake.openDispute(paid.paymentIntent)
    const taken = {
      kind: 'disputed',
      provider: 'stripe',
      eventId: `dispute:${dispute}`,
      paymentRef: paid.paymentIntent,
      amountCents: 15_000,
      providerRef: dispute,
    }
    expect(await read(fake.disputeEvent('charge.dispute.created', dispute))).toEqual(taken)
    fake.closeDispute(dispute, 'lost')
    expect(await read(fake.disputeEvent('charge.dispute.closed', dispute))).toEqual(taken)
    fake.closeDispute(dispute, 'won')
    expect(await read(fake.disputeEvent('charge.dispute.closed', dispute))).toEqual({
      kind: 'dispute_won',
      provider: 'stripe',
      eventId: `dispute-won:${dispute}`,
      reversalKey: `dispute:${dispute}`,
      paymentRef: paid.paymentIntent,
      providerRef: dispute,
    })
    const inquiry = fake.openDispute(paid.paymentIntent, 'warning_needs_response')
    expect(await read(fake.disputeEvent('charge.dispute.created', inquiry))).toBeNull()
    fake.closeDispute(inquiry, 'warning_closed')
    expect(await read(fake.disputeEvent('charge.dispute.closed', inquiry))).toBeNull()
  })

  it('the Checkout Session events read as parseWebhook reads them; a bad signature is WebhookSignatureError', async () => {
    const event = stripeSessionEvent('checkout.session.completed', { id: 'cs_1', amount_total: 15_000, paymentIntent: 'pi_1' }, 'evt_r')
    expect(await read(event)).toMatchObject({ eventId: 'evt_r', outcome: 'paid', paymentRef: 'pi_1' })
    await expect(stripe.readWebhook!(signed(JSON.stringify(event), 'whsec_other'))).rejects.toBeInstanceOf(WebhookSignatureError)
  })
})
