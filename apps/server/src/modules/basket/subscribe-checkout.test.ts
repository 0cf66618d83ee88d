import { beforeEach, describe, expect, it } from 'vitest'
import { count, signedInClient, useTestApp } from '../../test/harness.ts'
import { HttpAgent } from '../../test/money.ts'
import { SANDBOX_DELIVER_JOB } from '../payments/sandbox.ts'

/**
 * /resource/subscribe/ by card or PayPal opens the provider's checkout in subscription mode (the
 * method is saved for the renewals) with the product's term as its interval; paid through the
 * sandbox's hosted checkout, the client ends with a payment_methods row.
 */
const t = useTestApp()
let base = ''

beforeEach(async () => {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`
})

const MONTHLY = { config: { product: 'nuitrack_ai_subscription_monthly', license_expire_delta: 2_592_000 }, count: 1 }
const YEARLY = { config: { product: 'nuitrack_ai_subscription_yearly', license_expire_delta: 31_104_000 }, count: 2 }
const body = (items: unknown[], payment_source: string) => ({
  payment_source,
  success_url: '/app/nuitrack/license-purchase-success/',
  cancel_url: '/app/nuitrack/basket/',
  items,
})

async function order(path: 'subscribe' | 'buy', items: unknown[], source: 'stripe' | 'paypal') {
  const { client, email, password } = await signedInClient(t)
  const browser = new HttpAgent(base)
  expect((await browser.post('/api/client/signin/', { username: email, password })).status).toBe(200)
  const res = await browser.post(`/api/resource/${path}/`, body(items, source))
  expect(res.status, await res.clone().text()).toBe(200)
  const answer = (await res.json()) as { status: string; transaction_id: number; payment: { provider: string; provider_data: { session_id: string } } }
  expect(answer.status).toBe('pending')
  const [session] = await t.db.query<{ mode: string; metadata: { interval?: string } }>('SELECT mode, metadata FROM sandbox_sessions WHERE id = $1', [
    answer.payment.provider_data.session_id,
  ])
  return { client, email, browser, answer, session: session!, sessionId: answer.payment.provider_data.session_id }
}

async function deliverQueued() {
  await t.app.ctx.jobs.tick()
  const [job] = await t.db.query<{ status: string; last_error: string | null }>(
    'SELECT status, last_error FROM jobs WHERE name = $1 ORDER BY id DESC LIMIT 1',
    [SANDBOX_DELIVER_JOB],
  )
  expect(job!.status, job!.last_error ?? '').toBe('done')
}

describe('/resource/subscribe/ by card or PayPal', () => {
  it('opens a subscription-mode checkout with the term as interval (month, year); /resource/buy/ a payment', async () => {
    expect((await order('subscribe', [MONTHLY], 'stripe')).session).toMatchObject({ mode: 'subscription', metadata: { interval: 'month' } })
    expect((await order('subscribe', [YEARLY], 'paypal')).session).toMatchObject({ mode: 'subscription', metadata: { interval: 'year' } })
    const bought = await order('buy', [MONTHLY], 'stripe')
    expect(bought.session.mode).toBe('payment')
    expect(bought.session.metadata.interval).toBeUndefined()
  })

  it('a card subscription paid on the sandbox page: the licenses, the transaction paid and a payment_methods row with brand and last 4', async () => {
    const o = await order('subscribe', [YEARLY], 'stripe')
    const html = await (await o.browser.get(`/sandbox/checkout/${o.sessionId}/`, 'text/html')).text()
    expect(html).toContain('renewed every year')
    expect((await o.browser.post(`/api/sandbox/checkout/${o.sessionId}/pay/`, { card_number: '3782 822463 10005' })).status).toBe(200)
    await deliverQueued()
    const methods = await t.db.query<{ client_id: number; provider: string; source: string; token: string; card_brand: string; card_last4: string }>(
      'SELECT client_id::int, provider, source, token, card_brand, card_last4 FROM payment_methods',
    )
    expect(methods).toEqual([
      {
        client_id: o.client.id,
        provider: 'sandbox',
        source: 'stripe',
        token: expect.stringMatching(/^sbpm_/),
        card_brand: 'American Express',
        card_last4: '0005',
      },
    ])
    const [tx] = await t.db.query<{ status: number; payment_method: string }>('SELECT status, payment_method FROM transactions WHERE id = $1', [
      o.answer.transaction_id,
    ])
    expect(tx).toEqual({ status: 0, payment_method: 'American Express •••• 0005' })
    expect(await count(t.db, 'license_groups WHERE client_id = $1', [o.client.id])).toBeGreaterThan(0)
  })

  it('a PayPal subscription paid on the sandbox page saves the wallet (the customer e-mail)', async () => {
    const o = await order('subscribe', [MONTHLY], 'paypal')
    expect((await o.browser.post(`/api/sandbox/checkout/${o.sessionId}/pay/`, {})).status).toBe(200)
    await deliverQueued()
    const [m] = await t.db.query<{ client_id: number; source: string; paypal_email: string }>(
      'SELECT client_id::int, source, paypal_email FROM payment_methods',
    )
    expect(m).toEqual({ client_id: o.client.id, source: 'paypal', paypal_email: o.email })
  })

  it('a one-off card purchase saves no method', async () => {
    const o = await order('buy', [MONTHLY], 'stripe')
    await o.browser.post(`/api/sandbox/checkout/${o.sessionId}/pay/`, {})
    await deliverQueued()
    expect(await count(t.db, 'payment_methods')).toBe(0)
    expect(await count(t.db, 'transactions WHERE status = 0')).toBe(1)
  })
})
