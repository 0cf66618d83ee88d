import Stripe from 'stripe'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { buildApp } from '../../app.ts'
import type { AppContext } from '../../context.ts'
import { COOKIES, type ExternalPaymentSource } from '@portal/domain'
import { FAKE_PAYER_EMAIL, FAKE_PAYPAL_CLIENT, startFakePaypal, startFakeStripe, stripeSessionEvent } from '../../test/fake-providers.ts'
import { postgresDb } from '../../db/db.ts'
import {
  Agent,
  DB_KIND,
  count,
  expectError,
  lastMailTo,
  signedInClient,
  testConfig,
  useTestApp,
  workerDatabaseUrl,
  type TestContext,
} from '../../test/harness.ts'
import { balanceAndLedgerSum } from '../billing/queries.ts'
import { lockTransaction } from '../transactions/queries.ts'
import { RECEIPT_JOB } from '../transactions/service.ts'
import { openTopUpCheckout } from '../../test/money.ts'

/**
 * The real providers end to end through the app, offline: Stripe's webhook (signed with the
 * package's own test helper) and PayPal's capture, against local fakes of both APIs.
 */

const stripeApi = await startFakeStripe()
const paypalApi = await startFakePaypal()
afterAll(async () => {
  await stripeApi.close()
  await paypalApi.close()
})

const WEBHOOK_SECRET = 'whsec_portal_test'
const PROVIDER_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_fake',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_BASE: stripeApi.url,
  PAYPAL_CLIENT_ID: FAKE_PAYPAL_CLIENT.id,
  PAYPAL_CLIENT_SECRET: FAKE_PAYPAL_CLIENT.secret,
  PAYPAL_API_BASE: paypalApi.url,
  PAYPAL_MERCHANT_ID: 'MERCHANTFAKE2',
}
const t = useTestApp(PROVIDER_ENV)
const ctx = () => t.app.ctx as AppContext

/** A pending top-up of the client's with its checkout opened at the provider serving the source. */
async function pendingTopUp(
  clientId: number,
  email: string,
  source: ExternalPaymentSource,
  amountCents = 15_000,
  mode: 'payment' | 'subscription' = 'payment',
) {
  const expiresAt = new Date(Date.now() + 24 * 3600_000)
  const { tx, session } = await openTopUpCheckout(ctx(), t.db, { clientId, email, source, amountCents, mode, expiresAt })
  return { tx, session }
}

const deliver = (ctxApp: TestContext['app'], event: unknown, secret = WEBHOOK_SECRET) => {
  const payload = JSON.stringify(event)
  return ctxApp.inject({
    method: 'POST',
    url: '/api/payments/webhook/stripe/',
    // as Stripe sends it: no session, no CSRF token
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
    payload,
  })
}

async function state(clientId: number, transactionId: number) {
  const tx = (await lockTransaction(t.db, transactionId))!
  return {
    status: tx.status,
    ...(await balanceAndLedgerSum(t.db, clientId)),
    entries: await count(t.db, 'ledger_entries WHERE transaction_id = $1', [transactionId]),
    events: await count(t.db, 'payment_events WHERE transaction_id = $1', [transactionId]),
    receipts: await count(t.db, "jobs WHERE name = $1 AND payload->>'transaction_id' = $2", [RECEIPT_JOB, String(transactionId)]),
  }
}

describe('providers in the app', () => {
  it('with the keys set, auto serves each source with its real provider', () => {
    expect(ctx().payments.describe()).toEqual({ stripe: 'stripe', paypal: 'paypal' })
  })

  it("GET /api/client/ answers Stripe's publishable key and the PayPal ids for the browser", async () => {
    const { agent } = await signedInClient(t)
    const body = (await agent.get('/api/client/')).json()
    expect(body.payment_provider_key).toBe('pk_test_fake')
    expect(body.paypal_client_id).toBe(FAKE_PAYPAL_CLIENT.id)
    expect(body.paypal_merchant_id).toBe('MERCHANTFAKE2')
  })
})

describe('POST /api/payments/webhook/stripe/', () => {
  it('a signed checkout.session.completed credits the top-up once, even delivered 5 times in parallel and again later', async () => {
    const { client, email } = await signedInClient(t)
    const { tx, session } = await pendingTopUp(client.id, email, 'stripe')
    expect(session.provider).toBe('stripe')
    expect(stripeApi.sessions.at(-1)!['metadata[transaction_id]']).toBe(String(tx.id))

    const event = stripeSessionEvent('checkout.session.completed', { id: session.sessionId, amount_total: 15_000, transaction_id: tx.id })
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(t.app, event)))
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toEqual({ received: true })
    }
    expect(await state(client.id, tx.id)).toEqual({ status: 0, balance: 15_000, ledger: 15_000, entries: 1, events: 1, receipts: 1 })
    const paid = (await lockTransaction(t.db, tx.id))!
    expect(paid.payment_method).toBe('Card')
    expect(paid.invoice_number).toBeGreaterThan(0)

    expect((await deliver(t.app, event)).statusCode).toBe(200)
    expect(await state(client.id, tx.id)).toEqual({ status: 0, balance: 15_000, ledger: 15_000, entries: 1, events: 1, receipts: 1 })
  })

  it('a subscription-mode session paid: the card Stripe saved (pm_, cus_, brand, last 4) lands in payment_methods, once', async () => {
    const { client, email } = await signedInClient(t)
    const { tx, session } = await pendingTopUp(client.id, email, 'stripe', 3_000, 'subscription')
    expect(stripeApi.sessions.at(-1)).toMatchObject({ mode: 'payment', customer_creation: 'always', 'payment_intent_data[setup_future_usage]': 'off_session' })
    const paid = stripeApi.paySession(session.sessionId, { brand: 'visa', last4: '4242' })
    const event = stripeSessionEvent('checkout.session.completed', { id: session.sessionId, amount_total: 3_000, transaction_id: tx.id, subscription: paid })
    const answers = await Promise.all(Array.from({ length: 3 }, () => deliver(t.app, event)))
    for (const res of answers) expect(res.statusCode, res.body).toBe(200)
    expect(await state(client.id, tx.id)).toMatchObject({ status: 0, balance: 3_000, entries: 1, events: 1 })
    expect((await lockTransaction(t.db, tx.id))!.payment_method).toBe('Visa •••• 4242')
    const methods = await t.db.query('SELECT client_id::int, provider, source, token, customer_ref, card_brand, card_last4 FROM payment_methods')
    expect(methods).toEqual([
      {
        client_id: client.id,
        provider: 'stripe',
        source: 'stripe',
        token: paid.paymentMethod,
        customer_ref: paid.customer,
        card_brand: 'Visa',
        card_last4: '4242',
      },
    ])
  })

  it('Stripe down while the webhook reads the saved card: 503 (Stripe delivers again), nothing applied; the next delivery applies', async () => {
    const { client, email } = await signedInClient(t)
    const { tx, session } = await pendingTopUp(client.id, email, 'stripe', 3_000, 'subscription')
    const paid = stripeApi.paySession(session.sessionId)
    const event = stripeSessionEvent('checkout.session.completed', { id: session.sessionId, amount_total: 3_000, transaction_id: tx.id, subscription: paid })
    stripeApi.mode = 503
    try {
      expectError(await deliver(t.app, event), 503, 'external_payments_unavailable')
    } finally {
      stripeApi.mode = 'ok'
    }
    expect(await state(client.id, tx.id)).toMatchObject({ status: 1, balance: 0, events: 0 })
    expect((await deliver(t.app, event)).statusCode).toBe(200)
    expect(await state(client.id, tx.id)).toMatchObject({ status: 0, balance: 3_000 })
    expect(await count(t.db, 'payment_methods WHERE client_id = $1', [client.id])).toBe(1)
  })

  it('a bad signature answers 400 webhook_signature and changes nothing', async () => {
    const { client, email } = await signedInClient(t)
    const { tx, session } = await pendingTopUp(client.id, email, 'stripe')
    const event = stripeSessionEvent('checkout.session.completed', { id: session.sessionId, amount_total: 15_000 })
    expectError(await deliver(t.app, event, 'whsec_forged'), 400, 'cddb3120')
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook/stripe/',
      headers: { 'content-type': 'application/json' },
      payload: event,
    })
    expectError(unsigned, 400, 'cddb3120')
    expect(await state(client.id, tx.id)).toEqual({ status: 1, balance: 0, ledger: 0, entries: 0, events: 0, receipts: 0 })
  })

  it('checkout.session.expired: the transaction expires, the balance stays', async () => {
    const { client, email } = await signedInClient(t)
    const { tx, session } = await pendingTopUp(client.id, email, 'stripe')
    expect((await deliver(t.app, stripeSessionEvent('checkout.session.expired', { id: session.sessionId }))).statusCode).toBe(200)
    expect(await state(client.id, tx.id)).toMatchObject({ status: 3, balance: 0, entries: 0, receipts: 0 })
    // a payment confirmed after the checkout expired on our side (a webhook late past the expiry sweep) still
    // counts, once: the customer paid
    for (let i = 0; i < 2; i++) await deliver(t.app, stripeSessionEvent('checkout.session.completed', { id: session.sessionId, amount_total: 15_000 }))
    expect(await state(client.id, tx.id)).toMatchObject({ status: 0, balance: 15_000, entries: 1 })
  })

  it('async payment failed: declined', async () => {
    const { client, email } = await signedInClient(t)
    const { tx, session } = await pendingTopUp(client.id, email, 'stripe')
    expect((await deliver(t.app, stripeSessionEvent('checkout.session.async_payment_failed', { id: session.sessionId }))).statusCode).toBe(200)
    expect(await state(client.id, tx.id)).toMatchObject({ status: 2, balance: 0, entries: 0 })
  })

  it('a paid amount that differs from the transaction is not credited', async () => {
    const { client, email } = await signedInClient(t)
    const { tx, session } = await pendingTopUp(client.id, email, 'stripe')
    await deliver(t.app, stripeSessionEvent('checkout.session.completed', { id: session.sessionId, amount_total: 100 }))
    expect(await state(client.id, tx.id)).toMatchObject({ status: 1, balance: 0, entries: 0 })
  })

  it('event types the portal does not act on, and sessions it does not know, are acknowledged and change nothing', async () => {
    const { client, email } = await signedInClient(t)
    const { tx, session } = await pendingTopUp(client.id, email, 'stripe')
    const other = { ...stripeSessionEvent('customer.created', { id: session.sessionId }), data: { object: { id: 'cus_1', object: 'customer' } } }
    expect((await deliver(t.app, other)).json()).toEqual({ received: true })
    expect((await deliver(t.app, stripeSessionEvent('checkout.session.completed', { id: 'cs_unknown', amount_total: 15_000 }))).statusCode).toBe(200)
    expect(await state(client.id, tx.id)).toMatchObject({ status: 1, balance: 0, events: 0 })
  })

  it('hostile bodies, signed or not, answer a coded 4xx and change nothing', async () => {
    const { client, email } = await signedInClient(t)
    const { tx } = await pendingTopUp(client.id, email, 'stripe')
    const sign = (payload: string) => Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })
    const bodies: [string, string | Buffer][] = [
      ['empty', ''],
      ['not JSON', 'this is not json'],
      ['truncated', '{"id":"evt_1","type":"checkout.session.com'],
      ['null', 'null'],
      ['an array', '[]'],
      ['no data', '{"id":"evt_1","type":"checkout.session.completed"}'],
      ['a session without id', '{"id":"evt_1","type":"checkout.session.completed","data":{"object":{"payment_status":"paid"}}}'],
      ['deep nesting', '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)],
      ['invalid UTF-8', Buffer.concat([Buffer.from('{"id":"'), Buffer.from([0xff, 0xfe, 0xc0]), Buffer.from('"}')])],
    ]
    for (const [label, payload] of bodies) {
      for (const signed of [false, true]) {
        const headers: Record<string, string> = { 'content-type': 'application/json' }
        if (signed) headers['stripe-signature'] = sign(payload.toString())
        const res = await t.app.inject({ method: 'POST', url: '/api/payments/webhook/stripe/', headers, payload })
        const what = `${label} ${signed ? 'signed' : 'unsigned'}: ${res.statusCode} ${res.body}`
        expect(res.statusCode, what).toBeLessThan(500)
        if (res.statusCode !== 200) expect(typeof res.json().error_code, what).toBe('string')
      }
    }
    const text = await t.app.inject({ method: 'POST', url: '/api/payments/webhook/stripe/', headers: { 'content-type': 'text/plain' }, payload: 'x' })
    // not what Stripe sends: no raw JSON to verify
    expectError(text, 400, 'cddb3120')
    expect(await state(client.id, tx.id)).toEqual({ status: 1, balance: 0, ledger: 0, entries: 0, events: 0, receipts: 0 })
  })

  it('where Stripe is not configured the webhook is not found; configured without its webhook secret it answers 503 (Stripe delivers again)', async () => {
    const bare = await buildApp({ config: testConfig(), db: t.db, runJobs: false })
    const noSecret = await buildApp({ config: testConfig({ ...PROVIDER_ENV, STRIPE_WEBHOOK_SECRET: '' }), db: t.db, runJobs: false })
    try {
      const event = stripeSessionEvent('checkout.session.completed', { id: 'cs_1', amount_total: 15_000 })
      expectError(await deliver(bare, event), 404, 'd7b928d5')
      expectError(await deliver(noSecret, event), 503, 'external_payments_unavailable')
    } finally {
      await bare.close()
      await noSecret.close()
    }
  })
})

describe('POST /api/paypal/capture-payment/', () => {
  it('captures the approved order and credits once, even when the sync is repeated 5 times in parallel', async () => {
    const { agent, client, email } = await signedInClient(t)
    const { tx, session } = await pendingTopUp(client.id, email, 'paypal', 15_050)
    expect(session.provider).toBe('paypal')
    paypalApi.approve(session.sessionId)

    const answers = await Promise.all(Array.from({ length: 5 }, () => agent.post('/api/paypal/capture-payment/', { order_id: session.sessionId })))
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toEqual({ status: 'ok', transaction_id: tx.id, transaction_status: 'ok' })
    }
    expect(await state(client.id, tx.id)).toEqual({ status: 0, balance: 15_050, ledger: 15_050, entries: 1, events: 1, receipts: 1 })
    expect((await lockTransaction(t.db, tx.id))!.payment_method).toBe(`PayPal (${FAKE_PAYER_EMAIL})`)

    // a sync afterwards answers the same, without charging anything again
    const before = paypalApi.requests.length
    expect((await agent.post('/api/paypal/capture-payment/', { order_id: session.sessionId })).json().transaction_status).toBe('ok')
    expect(paypalApi.requests.length).toBe(before)
    expect(await state(client.id, tx.id)).toMatchObject({ balance: 15_050, entries: 1 })
  })

  it('a subscription-mode order captured: the vaulted wallet (vault id, customer, e-mail) lands in payment_methods', async () => {
    const { agent, client, email } = await signedInClient(t)
    const { tx, session } = await pendingTopUp(client.id, email, 'paypal', 2_500, 'subscription')
    paypalApi.approve(session.sessionId)
    const res = await agent.post('/api/paypal/capture-payment/', { order_id: session.sessionId })
    expect(res.json()).toEqual({ status: 'ok', transaction_id: tx.id, transaction_status: 'ok' })
    const vault = paypalApi.orders.get(session.sessionId)!.vault!
    const methods = await t.db.query('SELECT client_id::int, provider, source, token, customer_ref, paypal_email FROM payment_methods')
    expect(methods).toEqual([
      { client_id: client.id, provider: 'paypal', source: 'paypal', token: vault.id, customer_ref: vault.customerId, paypal_email: FAKE_PAYER_EMAIL },
    ])
  })

  it('a subscription-mode order captured without a vault id: paid, logged for an operator, and the customer told renewals need a payment method', async () => {
    const { agent, client, email } = await signedInClient(t)
    const { tx, session } = await pendingTopUp(client.id, email, 'paypal', 2_500, 'subscription')
    paypalApi.vaultFailsAtCapture = true
    const logged = vi.spyOn(ctx().log, 'error')
    try {
      paypalApi.approve(session.sessionId)
      const res = await agent.post('/api/paypal/capture-payment/', { order_id: session.sessionId })
      expect(res.json()).toEqual({ status: 'ok', transaction_id: tx.id, transaction_status: 'ok' })
      // a repeated sync applies nothing and tells nobody again
      await agent.post('/api/paypal/capture-payment/', { order_id: session.sessionId })
    } finally {
      paypalApi.vaultFailsAtCapture = false
    }
    expect(await count(t.db, 'payment_methods')).toBe(0)
    expect(logged.mock.calls.filter(([, msg]) => String(msg).includes('kept no payment method'))).toHaveLength(1)
    logged.mockRestore()
    const mail = await lastMailTo(t.db, email)
    expect(mail?.subject).toBe('Your subscription needs a payment method for its renewals')
    expect(await count(t.db, 'mail_outbox WHERE subject = $1', [mail!.subject])).toBe(1)
  })

  it("another client's order, or one the portal never opened, is not found", async () => {
    const owner = await signedInClient(t)
    const stranger = await signedInClient(t)
    const { tx, session } = await pendingTopUp(owner.client.id, owner.email, 'paypal')
    paypalApi.approve(session.sessionId)
    expectError(await stranger.agent.post('/api/paypal/capture-payment/', { order_id: session.sessionId }), 404, '63f560db')
    expectError(await stranger.agent.post('/api/paypal/capture-payment/', { order_id: '0NOSUCHORDER' }), 404, '63f560db')
    expect(paypalApi.orders.get(session.sessionId)!.capture).toBeNull()
    expect(await state(owner.client.id, tx.id)).toMatchObject({ status: 1, balance: 0 })
  })

  it('PayPal down: 503 external_payments_unavailable and nothing changes; the sync after it recovers credits', async () => {
    const { agent, client, email } = await signedInClient(t)
    const { tx, session } = await pendingTopUp(client.id, email, 'paypal')
    paypalApi.approve(session.sessionId)
    try {
      for (const mode of [503, 500, 'drop'] as const) {
        paypalApi.mode = mode
        expectError(await agent.post('/api/paypal/capture-payment/', { order_id: session.sessionId }), 503, 'external_payments_unavailable')
      }
    } finally {
      paypalApi.mode = 'ok'
    }
    expect(await state(client.id, tx.id)).toEqual({ status: 1, balance: 0, ledger: 0, entries: 0, events: 0, receipts: 0 })
    expect((await agent.post('/api/paypal/capture-payment/', { order_id: session.sessionId })).json().transaction_status).toBe('ok')
    expect(await state(client.id, tx.id)).toMatchObject({ status: 0, balance: 15_000, entries: 1 })
  })

  it('the payer funding refused (INSTRUMENT_DECLINED): the answer sends the buyer back to PayPal, the transaction stays pending; another source pays', async () => {
    const { agent, client, email } = await signedInClient(t)
    const { tx, session } = await pendingTopUp(client.id, email, 'paypal')
    paypalApi.approve(session.sessionId, { declines: true })
    const res = await agent.post('/api/paypal/capture-payment/', { order_id: session.sessionId })
    expect(res.json()).toEqual({ status: 'ok', transaction_id: tx.id, transaction_status: 'pending', approve_url: session.url })
    expect(await state(client.id, tx.id)).toMatchObject({ status: 1, balance: 0, entries: 0 })
    // the buyer chose another funding source at PayPal and came back
    paypalApi.approve(session.sessionId)
    const again = await agent.post('/api/paypal/capture-payment/', { order_id: session.sessionId })
    expect(again.json()).toMatchObject({ transaction_id: tx.id, transaction_status: 'ok' })
  })

  it('PayPal wants the payer back (PAYER_ACTION_REQUIRED): sent to the approval link, the payment stays pending; paid when they return', async () => {
    const { agent, client, email } = await signedInClient(t)
    const { tx, session } = await pendingTopUp(client.id, email, 'paypal')
    paypalApi.approve(session.sessionId, { payerAction: true })
    const res = await agent.post('/api/paypal/capture-payment/', { order_id: session.sessionId })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ status: 'ok', transaction_id: tx.id, transaction_status: 'pending', approve_url: session.url })
    expect(await state(client.id, tx.id)).toMatchObject({ status: 1, balance: 0, entries: 0 })
    paypalApi.approve(session.sessionId)
    const again = await agent.post('/api/paypal/capture-payment/', { order_id: session.sessionId })
    expect(again.json()).toMatchObject({ transaction_id: tx.id, transaction_status: 'ok' })
    expect(await state(client.id, tx.id)).toMatchObject({ status: 0, balance: 15_000, entries: 1 })
  })

  it('anonymous: 401', async () => {
    expectError(await new Agent(t.app).post('/api/paypal/capture-payment/', { order_id: 'X' }), 401, '1920e203')
  })
})

describe('two server processes on one database (PostgreSQL)', () => {
  it.runIf(DB_KIND === 'postgres')('the same Stripe webhook 5 times to each server at once, and PayPal syncs on both: each credits once', async () => {
    const otherDb = postgresDb(workerDatabaseUrl()!, 6)
    const other = await buildApp({ config: testConfig(PROVIDER_ENV), db: otherDb, runJobs: false })
    await other.ready()
    try {
      const card = await signedInClient(t)
      const { tx, session } = await pendingTopUp(card.client.id, card.email, 'stripe')
      const event = stripeSessionEvent('checkout.session.completed', { id: session.sessionId, amount_total: 15_000, transaction_id: tx.id })
      const answers = await Promise.all([t.app, other].flatMap((server) => Array.from({ length: 5 }, () => deliver(server, event))))
      expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200))
      expect(await state(card.client.id, tx.id)).toEqual({ status: 0, balance: 15_000, ledger: 15_000, entries: 1, events: 1, receipts: 1 })

      const pp = await signedInClient(t)
      const order = await pendingTopUp(pp.client.id, pp.email, 'paypal')
      paypalApi.approve(order.session.sessionId)
      const cookie = [...pp.agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
      const headers = { cookie, 'content-type': 'application/json', 'x-csrftoken': pp.agent.cookies.get(COOKIES.csrf) ?? '' }
      const syncs = await Promise.all(
        [t.app, other].flatMap((server) =>
          Array.from({ length: 3 }, () =>
            server.inject({ method: 'POST', url: '/api/paypal/capture-payment/', headers, payload: { order_id: order.session.sessionId } }),
          ),
        ),
      )
      expect(syncs.map((r) => r.json().transaction_status)).toEqual(Array(6).fill('ok'))
      expect(await state(pp.client.id, order.tx.id)).toEqual({ status: 0, balance: 15_000, ledger: 15_000, entries: 1, events: 1, receipts: 1 })
    } finally {
      await other.close()
      await otherDb.close()
    }
  })
})
