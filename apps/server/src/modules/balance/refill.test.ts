import { afterEach, describe, expect, it, vi } from 'vitest'
import { PaymentUnavailable } from '../../platform/payments/port.ts'
import { Agent, count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'
import { TOP_UP } from '../../test/money.ts'

const t = useTestApp()
const REFILL = '/api/balance/refill/'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('POST /api/balance/refill/', () => {
  it('opens a sandbox checkout for a pending credit and answers where to pay', async () => {
    const { agent, client, email } = await signedInClient(t)
    const res = await agent.post(REFILL, { ...TOP_UP, amount: 150 })
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json()
    expect(body.payment.provider).toBe('sandbox')
    expect(body.payment.provider_data.session_id).toMatch(/^sbx_[A-Za-z0-9_-]{24}$/)
    expect(body.payment.provider_data.url).toBe(`http://portal.test/sandbox/checkout/${body.payment.provider_data.session_id}/`)

    const [tx] = await t.db.query<Record<string, unknown>>(
      'SELECT client_id, type, status, amount_cents, kind, description, lines, payment_source, provider, provider_session_id, expires_at, invoice_number FROM transactions WHERE id = $1',
      [body.transaction_id],
    )
    expect(tx).toMatchObject({
      client_id: client.id,
      type: 0,
      status: 1,
      amount_cents: 15000,
      kind: 'top_up',
      description: 'Balance top-up',
      lines: [{ description: 'Balance top-up', quantity: 1, amount_cents: 15000 }],
      payment_source: 'stripe',
      provider: 'sandbox',
      provider_session_id: body.payment.provider_data.session_id,
      invoice_number: null,
    })
    // the checkout stays open for PAYMENT_SESSION_HOURS
    const hours = (new Date(tx!.expires_at as string).getTime() - Date.now()) / 3600_000
    expect(hours).toBeGreaterThan(23.9)
    expect(hours).toBeLessThanOrEqual(24)

    const [session] = await t.db.query<Record<string, unknown>>(
      'SELECT source, customer_email, amount_cents, success_url, cancel_url, status, metadata FROM sandbox_sessions WHERE id = $1',
      [body.payment.provider_data.session_id],
    )
    expect(session).toMatchObject({
      source: 'stripe',
      customer_email: email,
      amount_cents: 15000,
      success_url: `http://portal.test${TOP_UP.success_url}`,
      cancel_url: `http://portal.test${TOP_UP.cancel_url}`,
      status: 'open',
      metadata: { transaction_id: body.transaction_id },
    })
    // nothing is credited before the provider reports the payment
    expect((await agent.get('/api/client/')).json().client_info.balance).toBe(0)
  })

  it('serves PayPal through the sandbox too, and card by default', async () => {
    const { agent } = await signedInClient(t)
    const paypal = (await agent.post(REFILL, { ...TOP_UP, amount: 20, payment_source: 'paypal' })).json()
    const card = (await agent.post(REFILL, { ...TOP_UP, amount: 999999 })).json()
    const sources = await t.db.query<{ id: string; source: string }>('SELECT id, source FROM sandbox_sessions')
    expect(sources.find((s) => s.id === paypal.payment.provider_data.session_id)?.source).toBe('paypal')
    expect(sources.find((s) => s.id === card.payment.provider_data.session_id)?.source).toBe('stripe')
    const [big] = await t.db.query<{ amount_cents: number }>('SELECT amount_cents FROM transactions WHERE id = $1', [card.transaction_id])
    expect(big!.amount_cents).toBe(99_999_900)
  })

  it('refuses an amount outside 20..999999 or not whole with refill_amount, and opens nothing', async () => {
    const { agent } = await signedInClient(t)
    for (const amount of [19, 0, -5, 1_000_000, 20.5, 99.99, '100', null, 1e308]) {
      expectError(await agent.post(REFILL, { ...TOP_UP, amount }), 400, '4eabdd78', 'amount')
    }
    expectError(await agent.post(REFILL, { success_url: TOP_UP.success_url, cancel_url: TOP_UP.cancel_url }), 400, '4eabdd78', 'amount')
    expect(await count(t.db, 'transactions')).toBe(0)
    expect(await count(t.db, 'sandbox_sessions')).toBe(0)
  })

  it('refuses return addresses outside /app/ (no open redirect)', async () => {
    const { agent } = await signedInClient(t)
    const bad = [
      'https://evil.example/app/',
      '//evil.example/app/',
      '/\\evil.example/app/',
      'http://portal.test/app/',
      '/api/client/',
      '/app/../api/client/',
      '/app/%2e%2e/api/',
      '/app/%2F%2Fevil.example',
      'javascript:alert(1)',
      '/app/\u0000',
      '/app/nuitrack/\ud800',
      '',
      'app/nuitrack/',
    ]
    for (const url of bad) {
      expectError(await agent.post(REFILL, { ...TOP_UP, amount: 100, success_url: url }), 400, 'f238cc24', 'success_url')
      expectError(await agent.post(REFILL, { ...TOP_UP, amount: 100, cancel_url: url }), 400, 'f238cc24', 'cancel_url')
    }
    expect(await count(t.db, 'transactions')).toBe(0)
  })

  it('refuses an unknown payment source', async () => {
    const { agent } = await signedInClient(t)
    const res = await agent.post(REFILL, { ...TOP_UP, amount: 100, payment_source: 'balance' })
    expect(res.statusCode).toBe(400)
    expect(res.json().field).toBe('payment_source')
  })

  it('a provider that is down or fails answers 503 external_payments_unavailable and leaves no transaction behind', async () => {
    const { agent } = await signedInClient(t)
    const sandbox = t.app.ctx.payments.byName('sandbox')!
    const spy = vi.spyOn(sandbox, 'createCheckout').mockRejectedValueOnce(new PaymentUnavailable('connection refused'))
    expectError(await agent.post(REFILL, { ...TOP_UP, amount: 100 }), 503, 'external_payments_unavailable')
    spy.mockRejectedValueOnce(new TypeError('a bug in the adapter'))
    expectError(await agent.post(REFILL, { ...TOP_UP, amount: 100, payment_source: 'paypal' }), 503, 'external_payments_unavailable')
    expect(spy).toHaveBeenCalledTimes(2)
    expect(await count(t.db, 'transactions')).toBe(0)
    expect(await count(t.db, 'sandbox_sessions')).toBe(0)
    // and once it is back, the next top-up goes through
    expect((await agent.post(REFILL, { ...TOP_UP, amount: 100 })).statusCode).toBe(200)
    expect(await count(t.db, 'transactions WHERE status = 1')).toBe(1)
  })

  it('is limited per client', async () => {
    const { agent } = await signedInClient(t)
    const other = await signedInClient(t)
    const answers = []
    for (let i = 0; i < 31; i++) answers.push((await agent.post(REFILL, { ...TOP_UP, amount: 20 })).statusCode)
    expect(answers.slice(0, 30).every((s) => s === 200)).toBe(true)
    expectError(await agent.post(REFILL, { ...TOP_UP, amount: 20 }), 429, '8221e1b0')
    // another client is not held back by the first one's tries
    expect((await other.agent.post(REFILL, { ...TOP_UP, amount: 20 })).statusCode).toBe(200)
  })

  it('needs a signed-in client', async () => {
    expectError(await new Agent(t.app).post(REFILL, { ...TOP_UP, amount: 100 }), 401, '1920e203')
    expect(await count(t.db, 'transactions')).toBe(0)
  })
})
