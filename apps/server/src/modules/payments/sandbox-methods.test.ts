import { beforeEach, describe, expect, it } from 'vitest'
import { postgresDb } from '../../db/db.ts'
import type { ChargeRequest, SavedPaymentMethod } from '../../platform/payments/port.ts'
import { DB_KIND, count, signedInClient, useTestApp, workerDatabaseUrl } from '../../test/harness.ts'
import { HttpAgent, TOP_UP, moneyState } from '../../test/money.ts'
import { insertTransaction, setProviderSession } from '../transactions/queries.ts'
import { openCheckout } from './checkout.ts'
import { applyPaymentEvent } from '../billing/service.ts'
import { createSandboxProvider, isSandboxProvider, SANDBOX_DELIVER_JOB, type SandboxProvider } from './sandbox.ts'

/**
 * The sandbox provider's saved methods and off-session charges: the test-card field of
 * its hosted checkout, the method a paid subscription-mode checkout saves (through the webhook into
 * payment_methods), and `charge`, idempotent by its key.
 */
const t = useTestApp()
let base = ''

beforeEach(async () => {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`
})

const sandbox = (): SandboxProvider => {
  const p = t.app.ctx.payments.byName('sandbox')
  if (!p || !isSandboxProvider(p)) throw new Error('no sandbox')
  return p
}

/** a checkout of `mode` opened the way the portal opens one (a top-up, so its fulfilment is simple) */
async function checkout(opts: { source?: 'stripe' | 'paypal'; mode?: 'payment' | 'subscription'; cents?: number; interval?: 'month' | 'year' } = {}) {
  const { client, email } = await signedInClient(t)
  const cents = opts.cents ?? 5000
  const opened = await openCheckout(t.app.ctx, {
    clientId: client.id,
    kind: 'top_up',
    type: 0,
    description: 'Balance top-up',
    lines: [{ description: 'Balance top-up', quantity: 1, amount_cents: cents }],
    amountCents: cents,
    source: opts.source ?? 'stripe',
    mode: opts.mode ?? 'payment',
    ...(opts.interval ? { interval: opts.interval } : {}),
    successPath: TOP_UP.success_url,
    cancelPath: TOP_UP.cancel_url,
  })
  return { client, email, session: opened.payment.provider_data.session_id, transactionId: opened.transaction_id, browser: new HttpAgent(base) }
}

/** the job queue's round: the sandbox's delivery job POSTs the webhook to this server */
async function deliverQueued() {
  await t.app.ctx.jobs.tick()
  const [job] = await t.db.query<{ status: string; last_error: string | null }>(
    'SELECT status, last_error FROM jobs WHERE name = $1 ORDER BY id DESC LIMIT 1',
    [SANDBOX_DELIVER_JOB],
  )
  expect(job!.status, job!.last_error ?? '').toBe('done')
}

const pay = (browser: HttpAgent, session: string, body: Record<string, unknown> = {}) => browser.post(`/api/sandbox/checkout/${session}/pay/`, body)

interface MethodRow {
  client_id: number
  provider: string
  source: string
  token: string
  card_brand: string | null
  card_last4: string | null
  paypal_email: string | null
}
const methods = () =>
  t.db.query<MethodRow>('SELECT client_id::int, provider, source, token, card_brand, card_last4, paypal_email FROM payment_methods ORDER BY id')

/** a subscription-mode card checkout paid on the page with `card`: the saved method as payment_methods holds it */
async function savedCard(card: string): Promise<SavedPaymentMethod> {
  const c = await checkout({ mode: 'subscription' })
  expect((await pay(c.browser, c.session, { card_number: card })).status).toBe(200)
  await deliverQueued()
  const [m] = (await methods()).filter((r) => r.client_id === c.client.id)
  return { provider: 'sandbox', source: 'stripe', token: m!.token, cardBrand: m!.card_brand, cardLast4: m!.card_last4 }
}

const chargeReq = (method: SavedPaymentMethod, key: string, amountCents = 2900): ChargeRequest => ({
  transactionId: 1,
  idempotencyKey: key,
  method,
  amountCents,
  description: 'Renewal',
  customerEmail: 'x@example.com',
})

describe('the hosted checkout: test cards', () => {
  it('a card checkout has a labelled test-card field defaulting to 4242; a PayPal one names the payer', async () => {
    const card = await checkout({ mode: 'subscription', interval: 'year' })
    const html = await (await card.browser.get(`/sandbox/checkout/${card.session}/`, 'text/html')).text()
    expect(html).toContain('<label for="card-number">Card number</label>')
    expect(html).toMatch(/<input id="card-number" name="card_number"[^>]*value="4242 4242 4242 4242"/)
    expect(html).toContain('<button type="submit" data-action="pay"')
    expect(html).toContain('renewed every year')
    const paypal = await checkout({ source: 'paypal' })
    const page = await (await paypal.browser.get(`/sandbox/checkout/${paypal.session}/`, 'text/html')).text()
    expect(page).not.toContain('card-number')
    expect(page).toContain(`PayPal account: <strong>${paypal.email}</strong>`)
    expect(page).not.toContain('renewed every')
  })

  it.each([
    ['4242 4242 4242 4242', 'Visa •••• 4242'],
    ['5555555555554444', 'Mastercard •••• 4444'],
    ['3782-822463-10005', 'American Express •••• 0005'],
    ['4000000000000341', 'Visa •••• 0341'],
  ])('%s pays at checkout as %s', async (number, method) => {
    const c = await checkout({ cents: 1200 })
    const res = await pay(c.browser, c.session, { card_number: number })
    expect(await res.json()).toEqual({ redirect_url: `http://portal.test${TOP_UP.success_url}` })
    await deliverQueued()
    expect(await moneyState(t.db, c.client.id, c.transactionId)).toMatchObject({ balance: 1200, status: 0, method })
    // a one-off payment saves nothing
    expect(await count(t.db, 'payment_methods')).toBe(0)
    expect(await count(t.db, 'sandbox_payment_methods')).toBe(0)
  })

  it('4000 0000 0000 0002 is declined at checkout; the paid payment without a number uses 4242', async () => {
    const declined = await checkout({ mode: 'subscription' })
    const res = await pay(declined.browser, declined.session, { card_number: '4000 0000 0000 0002' })
    expect(await res.json()).toEqual({ redirect_url: `http://portal.test${TOP_UP.cancel_url}` })
    await deliverQueued()
    expect(await moneyState(t.db, declined.client.id, declined.transactionId)).toMatchObject({ balance: 0, status: 2 })
    expect(await count(t.db, `payment_events WHERE outcome = 'declined'`)).toBe(1)
    expect(await count(t.db, 'payment_methods')).toBe(0)
    const plain = await checkout({ cents: 700 })
    expect((await pay(plain.browser, plain.session)).status).toBe(200)
    await deliverQueued()
    expect(await moneyState(t.db, plain.client.id, plain.transactionId)).toMatchObject({ status: 0, method: 'Visa •••• 4242' })
  })

  it('a number that is no test card answers validation_failed on card_number and leaves the checkout open', async () => {
    const c = await checkout()
    for (const number of ['4111 1111 1111 1111', '', 'abcd', '4242']) {
      const res = await pay(c.browser, c.session, { card_number: number })
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ error_code: '6a38afc1', field: 'card_number' })
    }
    expect((await pay(c.browser, c.session, { card_number: 'x'.repeat(41) })).status).toBe(400)
    expect(((await (await c.browser.get(`/api/sandbox/checkout/${c.session}/`)).json()) as { status: string }).status).toBe('open')
    expect(await count(t.db, 'jobs')).toBe(0)
  })
})

describe('a subscription-mode checkout saves the method', () => {
  it('card: the paid webhook carries sbpm_… with brand and last 4, and payment_methods gets the row', async () => {
    const c = await checkout({ mode: 'subscription' })
    expect((await pay(c.browser, c.session, { card_number: '5555 5555 5555 4444' })).status).toBe(200)
    const [stored] = await t.db.query<{ last_event: { body: string } }>('SELECT last_event FROM sandbox_sessions WHERE id = $1', [c.session])
    const body = JSON.parse(stored!.last_event.body) as { data: { saved_method: { token: string } } }
    expect(body.data.saved_method).toEqual({
      token: expect.stringMatching(/^sbpm_[A-Za-z0-9_-]{20,}$/),
      source: 'stripe',
      card_brand: 'Mastercard',
      card_last4: '4444',
      paypal_email: null,
    })
    await deliverQueued()
    expect(await methods()).toEqual([
      {
        client_id: c.client.id,
        provider: 'sandbox',
        source: 'stripe',
        token: body.data.saved_method.token,
        card_brand: 'Mastercard',
        card_last4: '4444',
        paypal_email: null,
      },
    ])
    expect(await moneyState(t.db, c.client.id, c.transactionId)).toMatchObject({ status: 0, method: 'Mastercard •••• 4444' })
  })

  it("PayPal: the saved method is the checkout's customer e-mail", async () => {
    const c = await checkout({ mode: 'subscription', source: 'paypal' })
    expect((await pay(c.browser, c.session)).status).toBe(200)
    await deliverQueued()
    expect(await methods()).toEqual([
      expect.objectContaining({ client_id: c.client.id, provider: 'sandbox', source: 'paypal', card_brand: null, card_last4: null, paypal_email: c.email }),
    ])
    expect((await moneyState(t.db, c.client.id, c.transactionId)).method).toBe(`PayPal (${c.email})`)
  })

  it('a declined or cancelled subscription checkout saves nothing', async () => {
    const d = await checkout({ mode: 'subscription', source: 'paypal' })
    await pay(d.browser, d.session, { outcome: 'decline' })
    const c = await checkout({ mode: 'subscription' })
    await c.browser.post(`/api/sandbox/checkout/${c.session}/cancel/`)
    await t.app.ctx.jobs.tick()
    expect(await count(t.db, 'sandbox_payment_methods')).toBe(0)
    expect(await count(t.db, 'payment_methods')).toBe(0)
  })
})

describe('charge: off-session charges on a saved method', () => {
  it('paid: the charge id, the amount, the method text; no webhook, no portal write', async () => {
    const method = await savedCard('4242424242424242')
    const jobsBefore = await count(t.db, 'jobs')
    const eventsBefore = await count(t.db, 'payment_events')
    const result = await sandbox().charge(chargeReq(method, 'renewal:1:a'))
    expect(result).toEqual({
      event: {
        provider: 'sandbox',
        eventId: expect.stringMatching(/^evt_/),
        sessionId: expect.stringMatching(/^sbch_/),
        outcome: 'paid',
        amountCents: 2900,
        paymentMethod: 'Visa •••• 4242',
      },
    })
    expect(await count(t.db, 'jobs')).toBe(jobsBefore)
    expect(await count(t.db, 'payment_events')).toBe(eventsBefore)
    expect(await count(t.db, 'sandbox_charges')).toBe(1)
  })

  it('PayPal: paid as "PayPal (email)"', async () => {
    const c = await checkout({ mode: 'subscription', source: 'paypal' })
    await pay(c.browser, c.session)
    await deliverQueued()
    const [m] = await methods()
    const result = await sandbox().charge(chargeReq({ provider: 'sandbox', source: 'paypal', token: m!.token, paypalEmail: c.email }, 'k-pp'))
    expect(result.event).toMatchObject({ outcome: 'paid', paymentMethod: `PayPal (${c.email})` })
  })

  it('the 0341 card paid at checkout is declined off-session (card_declined), every time', async () => {
    const method = await savedCard('4000 0000 0000 0341')
    expect(method).toMatchObject({ cardBrand: 'Visa', cardLast4: '0341' })
    for (const key of ['k1', 'k2']) {
      const result = await sandbox().charge(chargeReq(method, key))
      expect(result.declineReason).toBe('card_declined')
      expect(result.event).toMatchObject({ provider: 'sandbox', outcome: 'declined', amountCents: 2900, paymentMethod: 'Visa •••• 0341' })
      expect(result.event.sessionId).toMatch(/^sbch_/)
    }
  })

  it('the 3184 card paid at checkout asks for authentication off-session (authentication_required), every time', async () => {
    const method = await savedCard('4000 0027 6000 3184')
    expect(method).toMatchObject({ cardBrand: 'Visa', cardLast4: '3184' })
    for (const key of ['k1', 'k2']) {
      const result = await sandbox().charge(chargeReq(method, key))
      expect(result).toMatchObject({ declineReason: 'authentication_required', authenticationRequired: true })
      expect(result.event).toMatchObject({ provider: 'sandbox', outcome: 'declined', amountCents: 2900, paymentMethod: 'Visa •••• 3184' })
    }
  })

  it("an unknown token (or another provider's) is declined: payment_method_not_found", async () => {
    for (const method of [
      { provider: 'sandbox', source: 'stripe', token: 'sbpm_nope' },
      { provider: 'stripe', source: 'stripe', token: 'pm_123' },
    ] as SavedPaymentMethod[]) {
      const result = await sandbox().charge(chargeReq(method, `k-${method.token}`))
      expect(result.declineReason).toBe('payment_method_not_found')
      expect(result.event.outcome).toBe('declined')
    }
  })

  it('the same idempotency key answers the same charge and event id: twice, then 10 in parallel', async () => {
    const method = await savedCard('5555555555554444')
    const first = await sandbox().charge(chargeReq(method, 'renewal:7:2026-12-01:0'))
    // the same key, even with another amount, is the charge made before
    const again = await sandbox().charge(chargeReq(method, 'renewal:7:2026-12-01:0', 9999))
    expect(again).toEqual(first)
    const parallel = await Promise.all(Array.from({ length: 10 }, () => sandbox().charge(chargeReq(method, 'renewal:7:2026-12-01:1'))))
    expect(new Set(parallel.map((r) => r.event.eventId)).size).toBe(1)
    expect(new Set(parallel.map((r) => r.event.sessionId)).size).toBe(1)
    expect(parallel[0]!.event.eventId).not.toBe(first.event.eventId)
    expect(await count(t.db, 'sandbox_charges')).toBe(2)
  })

  it('the caller applies the event it answers like a webhook: once, however often it is applied', async () => {
    const method = await savedCard('4242424242424242')
    const [m] = await methods()
    const tx = await insertTransaction(t.db, {
      clientId: m!.client_id,
      type: 0,
      status: 1,
      amountCents: 2900,
      kind: 'top_up',
      description: 'Balance top-up',
      lines: [{ description: 'Balance top-up', quantity: 1, amount_cents: 2900 }],
      paymentSource: 'stripe',
      invoiceNumber: null,
    })
    const result = await sandbox().charge({ ...chargeReq(method, `top-up:${tx.id}`), transactionId: tx.id })
    await setProviderSession(t.db, tx.id, 'sandbox', result.event.sessionId)
    expect(await applyPaymentEvent(t.app.ctx, result.event)).toMatchObject({ transactionId: tx.id, status: 'ok', applied: true })
    const again = await sandbox().charge({ ...chargeReq(method, `top-up:${tx.id}`), transactionId: tx.id })
    expect(await applyPaymentEvent(t.app.ctx, again.event)).toMatchObject({ applied: false })
    expect(await moneyState(t.db, m!.client_id, tx.id)).toMatchObject({ status: 0, method: 'Visa •••• 4242' })
  })

  it.runIf(DB_KIND === 'postgres')('10 charges with one key on each of two connection pools (two processes) charge once', async () => {
    const method = await savedCard('4242424242424242')
    const pools = [postgresDb(workerDatabaseUrl()!), postgresDb(workerDatabaseUrl()!)]
    try {
      const providers = pools.map((db) => createSandboxProvider({ db, config: t.app.ctx.config, webhooks: sandbox().webhooks }))
      const results = await Promise.all(providers.flatMap((p) => Array.from({ length: 10 }, () => p.charge(chargeReq(method, 'two-processes')))))
      expect(new Set(results.map((r) => r.event.eventId)).size).toBe(1)
      expect(results.every((r) => r.event.outcome === 'paid')).toBe(true)
      expect(await count(t.db, `sandbox_charges WHERE idempotency_key = 'two-processes'`)).toBe(1)
    } finally {
      await Promise.all(pools.map((db) => db.close()))
    }
  })
})
