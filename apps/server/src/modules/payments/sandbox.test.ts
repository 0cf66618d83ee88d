import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCommand } from '../../cli/commands.ts'
import { count, signedInClient, useTestApp } from '../../test/harness.ts'
import { HttpAgent, TOP_UP, moneyState } from '../../test/money.ts'
import { expirePendingPayments } from './expiry.ts'
import { reconcilePayments } from './reconcile.ts'
import { SANDBOX_DELIVER_JOB, isSandboxProvider, redeliverSandboxEvent, signSandboxBody, type SandboxProvider } from './sandbox.ts'

const t = useTestApp()
let base = ''

beforeEach(async () => {
  // the shared app listens on a loopback port: the sandbox delivers its webhooks to it over HTTP
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`
})

const sandbox = (): SandboxProvider => {
  const p = t.app.ctx.payments.byName('sandbox')
  if (!p || !isSandboxProvider(p)) throw new Error('no sandbox')
  return p
}

/** A signed-in customer's browser over HTTP, and a top-up of `amount` it started. */
async function topUp(amount = 150, source: 'stripe' | 'paypal' = 'stripe') {
  const { client, email, password } = await signedInClient(t)
  const browser = new HttpAgent(base)
  expect((await browser.post('/api/client/signin/', { username: email, password })).status).toBe(200)
  const res = await browser.post('/api/balance/refill/', { ...TOP_UP, amount, payment_source: source })
  expect(res.status).toBe(200)
  const body = (await res.json()) as { payment: { provider_data: { session_id: string; url: string } }; transaction_id: number }
  const session = body.payment.provider_data.session_id
  return { client, email, browser, session, transactionId: body.transaction_id, checkout: new URL(body.payment.provider_data.url).pathname }
}

/** The job queue's round: the sandbox's delivery job POSTs the webhook to this server. */
async function deliverQueued() {
  await t.app.ctx.jobs.tick()
  const [job] = await t.db.query<{ status: string; last_error: string | null }>(
    'SELECT status, last_error FROM jobs WHERE name = $1 ORDER BY id DESC LIMIT 1',
    [SANDBOX_DELIVER_JOB],
  )
  expect(job, 'a delivery job was queued').toBeDefined()
  expect(job!.status, job!.last_error ?? '').toBe('done')
}

const errorCode = async (res: Response) => ((await res.json()) as { error_code: string }).error_code

const pageText = async (browser: HttpAgent, path: string) => (await browser.get(path, 'text/html')).text()

const webhook = (body: string, signature?: string) =>
  fetch(`${base}/api/payments/webhook/sandbox/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'x-sandbox-signature': signature } : {}) },
    body,
  })

describe('the sandbox checkout over real HTTP', () => {
  it('pay: the page, the session, the redirect, the signed webhook, the credit with an invoice number', async () => {
    const { client, email, browser, session, transactionId, checkout } = await topUp(150)
    expect(checkout).toBe(`/sandbox/checkout/${session}/`)

    const page = await browser.get(checkout, 'text/html')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    const html = await page.text()
    expect(html).toContain('3DiVi Inc.')
    expect(html).toContain('<strong>Card</strong>')
    expect(html).toContain('Balance top-up')
    expect(html).toContain('$150.00')
    // each button arrives disabled, until the page's script has given it its action
    for (const action of ['pay', 'decline', 'cancel']) expect(html).toMatch(new RegExp(`<button type="(button|submit)" data-action="${action}"[^>]* disabled>`))
    expect(html).toContain('<script src="/sandbox/checkout.js" defer></script>')
    // the portal's icon: without a link the browser asks for /favicon.ico, which is not there
    expect(html).toContain('<link rel="icon" type="image/svg+xml" href="/app/favicon.svg">')
    expect(html).not.toMatch(/<script>(?!<)/)
    const script = await browser.get('/sandbox/checkout.js')
    expect(script.headers.get('content-type')).toContain('javascript')
    expect(await script.text()).toContain('/api/sandbox/checkout/')
    expect((await browser.get('/sandbox/checkout.css')).headers.get('content-type')).toContain('text/css')

    const view = await (await browser.get(`/api/sandbox/checkout/${session}/`)).json()
    expect(view).toEqual({
      id: session,
      source: 'stripe',
      merchant: '3DiVi Inc.',
      customer_email: email,
      lines: [{ description: 'Balance top-up', quantity: 1, amount: 150 }],
      amount: 150,
      currency: 'USD',
      status: 'open',
    })

    // the POST needs the CSRF header like every other
    const forged = await fetch(`${base}/api/sandbox/checkout/${session}/pay/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(forged.status).toBe(403)

    const pay = await browser.post(`/api/sandbox/checkout/${session}/pay/`, {})
    expect(pay.status).toBe(200)
    expect(await pay.json()).toEqual({ redirect_url: `http://portal.test${TOP_UP.success_url}` })
    // the browser goes on at once; the money follows with the webhook
    expect(await moneyState(t.db, client.id, transactionId)).toMatchObject({ balance: 0, status: 1 })
    const [stored] = await t.db.query<{ status: string; last_event: { body: string; signature: string } }>(
      'SELECT status, last_event FROM sandbox_sessions WHERE id = $1',
      [session],
    )
    expect(stored!.status).toBe('paid')
    expect(stored!.last_event.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    expect(JSON.parse(stored!.last_event.body)).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: 'checkout.session.completed',
      data: { session_id: session, amount_cents: 15000, payment_method: 'Visa •••• 4242' },
    })

    await deliverQueued()
    expect(await moneyState(t.db, client.id, transactionId)).toEqual({ balance: 15000, ledger: 15000, status: 0, invoice: 1, method: 'Visa •••• 4242' })
    expect((await browser.get('/api/client/')).ok).toBe(true)
    expect(((await (await browser.get('/api/client/')).json()) as { client_info: { balance: number } }).client_info.balance).toBe(150)
    // the receipt is queued with the credit
    expect(await count(t.db, `jobs WHERE name = 'payments.receipt'`)).toBe(1)

    // a closed checkout: the calls answer payment_closed, the page says so
    for (const res of [await browser.post(`/api/sandbox/checkout/${session}/pay/`, {}), await browser.post(`/api/sandbox/checkout/${session}/cancel/`)]) {
      expect(res.status).toBe(409)
      expect(await errorCode(res)).toBe('68a50aa1')
    }
    expect(((await (await browser.get(`/api/sandbox/checkout/${session}/`)).json()) as { status: string }).status).toBe('paid')
    const closed = await (await browser.get(checkout, 'text/html')).text()
    expect(closed).toContain('This checkout has been paid.')
    expect(closed).not.toContain('data-action="pay"')
  })

  it('decline: the transaction is declined, the balance unchanged, the browser goes to cancel_url', async () => {
    const { client, browser, session, transactionId } = await topUp(75, 'paypal')
    const page = await (await browser.get(`/sandbox/checkout/${session}/`, 'text/html')).text()
    expect(page).toContain('<strong>PayPal</strong>')
    const res = await browser.post(`/api/sandbox/checkout/${session}/pay/`, { outcome: 'decline' })
    expect(await res.json()).toEqual({ redirect_url: `http://portal.test${TOP_UP.cancel_url}` })
    await deliverQueued()
    expect(await moneyState(t.db, client.id, transactionId)).toEqual({ balance: 0, ledger: 0, status: 2, invoice: null, method: null })
    expect(await count(t.db, `payment_events WHERE outcome = 'declined'`)).toBe(1)
    expect(((await (await browser.get(`/api/sandbox/checkout/${session}/`)).json()) as { status: string }).status).toBe('declined')
    expect(await pageText(browser, `/sandbox/checkout/${session}/`)).toContain('This payment was declined.')
  })

  it('cancel: the transaction expires, the balance is unchanged', async () => {
    const { client, browser, session, transactionId } = await topUp(40)
    const res = await browser.post(`/api/sandbox/checkout/${session}/cancel/`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ redirect_url: `http://portal.test${TOP_UP.cancel_url}` })
    await deliverQueued()
    expect(await moneyState(t.db, client.id, transactionId)).toEqual({ balance: 0, ledger: 0, status: 3, invoice: null, method: null })
    expect(await pageText(browser, `/sandbox/checkout/${session}/`)).toContain('This checkout was cancelled.')
  })

  it('an unknown checkout: 404 route_not_found from the API, a clear page', async () => {
    const browser = new HttpAgent(base)
    const api = await browser.get('/api/sandbox/checkout/sbx_nope/')
    expect(api.status).toBe(404)
    expect(await errorCode(api)).toBe('d7b928d5')
    for (const res of [await browser.post('/api/sandbox/checkout/sbx_nope/pay/', {}), await browser.post('/api/sandbox/checkout/sbx_nope/cancel/')]) {
      expect(res.status).toBe(404)
      expect(await errorCode(res)).toBe('d7b928d5')
    }
    const page = await browser.get('/sandbox/checkout/sbx_nope/', 'text/html')
    expect(page.status).toBe(404)
    expect(await page.text()).toContain('Checkout not found')
    // hostile addresses: a coded 400 or 404 from the API, the not-found page, never a 5xx
    for (const id of ['%00', 'x%00y', '%ED%A0%80', '%3Cscript%3E', 'x'.repeat(2000), '..%2F..%2Fetc']) {
      const api = await t.app.inject({ method: 'GET', url: `/api/sandbox/checkout/${id}/` })
      expect([400, 404], `${id}: ${api.body}`).toContain(api.statusCode)
      expect(api.json().error_code).toBeTruthy()
      const html = await t.app.inject({ method: 'GET', url: `/sandbox/checkout/${id}/`, headers: { accept: 'text/html' } })
      expect([400, 404], `${id}: ${html.body.slice(0, 200)}`).toContain(html.statusCode)
      expect(html.body).not.toContain('<script>')
    }
  })
})

describe('the sandbox webhook', () => {
  it('the same webhook 5 times in parallel, and again later, credits once (also via payments:redeliver --times 5)', async () => {
    const { client, session, browser, transactionId } = await topUp(200)
    await browser.post(`/api/sandbox/checkout/${session}/pay/`, {})
    // before the queue gets to it, five deliveries at once
    const first = await redeliverSandboxEvent(t.db, sandbox().webhooks, session, 5)
    expect(first.answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200])
    expect(first.answers.every((a) => JSON.parse(a.text).received === true)).toBe(true)
    expect(await moneyState(t.db, client.id, transactionId)).toMatchObject({ balance: 20000, ledger: 20000, status: 0, invoice: 1 })
    // then the queued delivery, and later five more, through the CLI
    await deliverQueued()
    const cli = await runCommand(t.db, ['payments:redeliver', session, '--times', '5'], { sandboxWebhooks: () => sandbox().webhooks })
    expect(cli.code, cli.output).toBe(0)
    expect(cli.output).toContain('5 times')
    expect(cli.output).toContain('5 accepted')
    expect(await moneyState(t.db, client.id, transactionId)).toEqual({ balance: 20000, ledger: 20000, status: 0, invoice: 1, method: 'Visa •••• 4242' })
    expect(await count(t.db, 'payment_events')).toBe(1)
    expect(await count(t.db, 'ledger_entries')).toBe(1)
    expect(await count(t.db, `jobs WHERE name = 'payments.receipt'`)).toBe(1)
    // a second top-up gets the next invoice number: no gaps
    const next = await topUp(20)
    await next.browser.post(`/api/sandbox/checkout/${next.session}/pay/`, {})
    await deliverQueued()
    expect((await moneyState(t.db, next.client.id, next.transactionId)).invoice).toBe(2)
  })

  it('payments:redeliver: usage, an unknown or still-open session', async () => {
    const { session } = await topUp(20)
    const run = (...argv: string[]) => runCommand(t.db, ['payments:redeliver', ...argv], { sandboxWebhooks: () => sandbox().webhooks })
    expect((await run()).code).toBe(2)
    expect((await run(session, '--times', '0')).code).toBe(2)
    expect((await run(session, '--times', '101')).code).toBe(2)
    expect((await run(session, '--times', 'x')).code).toBe(2)
    expect((await run('sbx_unknown')).code).toBe(1)
    // nothing to send while the checkout is open
    expect((await run(session)).output).toContain('No sandbox checkout')
    expect((await runCommand(t.db, ['payments:redeliver', session], {})).code).toBe(1)
  })

  it('a bad, missing, stale or tampered signature answers 400 webhook_signature and changes nothing', async () => {
    const { client, session, browser, transactionId } = await topUp(100)
    await browser.post(`/api/sandbox/checkout/${session}/pay/`, {})
    const [row] = await t.db.query<{ last_event: { body: string } }>('SELECT last_event FROM sandbox_sessions WHERE id = $1', [session])
    const body = row!.last_event.body
    const secret = sandbox().webhooks.secret
    const tampered = body.replace('"amount_cents":10000', '"amount_cents":1')
    expect(tampered).not.toBe(body)
    const cases: [string, string | undefined][] = [
      [body, undefined],
      [body, 'garbage'],
      [body, signSandboxBody('another-secret', body)],
      [body, signSandboxBody(secret, body, Date.now() - 6 * 60 * 1000)],
      [body, signSandboxBody(secret, body, Date.now() + 6 * 60 * 1000)],
      [tampered, signSandboxBody(secret, body)],
      // one hex digit changed (to another digit: a 0 replaced by 0 would still be the signature)
      [body, signSandboxBody(secret, body).replace(/v1=(.)/, (_, c: string) => `v1=${c === '0' ? '1' : '0'}`)],
      [body, `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`],
      ['', signSandboxBody(secret, body)],
    ]
    for (const [payload, signature] of cases) {
      const res = await webhook(payload, signature)
      expect(res.status, `${signature}`).toBe(400)
      expect(await errorCode(res)).toBe('cddb3120')
    }
    expect(await moneyState(t.db, client.id, transactionId)).toMatchObject({ balance: 0, ledger: 0, status: 1 })
    expect(await count(t.db, 'payment_events')).toBe(0)
    // the good one still goes through afterwards
    const ok = await webhook(body, signSandboxBody(secret, body))
    expect(ok.status).toBe(200)
    expect(await moneyState(t.db, client.id, transactionId)).toMatchObject({ balance: 10000, ledger: 10000, status: 0 })
  })

  it('a signed event for an unknown checkout or of an unknown type is received and ignored', async () => {
    const secret = sandbox().webhooks.secret
    const unknown = JSON.stringify({
      id: 'evt_x',
      type: 'checkout.session.completed',
      data: { session_id: 'sbx_none', amount_cents: 100, payment_method: null },
    })
    expect((await webhook(unknown, signSandboxBody(secret, unknown))).status).toBe(200)
    const other = JSON.stringify({ id: 'evt_y', type: 'invoice.paid', data: {} })
    expect((await webhook(other, signSandboxBody(secret, other))).status).toBe(200)
    expect(await count(t.db, 'payment_events')).toBe(0)
  })

  it('needs no CSRF token, and sets no cookie', async () => {
    const res = await webhook('{}', 'garbage')
    expect(res.status).toBe(400)
    expect(res.headers.getSetCookie()).toEqual([])
  })
})

describe('expiry', () => {
  it('pending payments past their time expire with their sandbox checkout; running it again changes nothing', async () => {
    const stale = await topUp(30)
    const fresh = await topUp(30)
    const paidInTime = await topUp(50)
    await paidInTime.browser.post(`/api/sandbox/checkout/${paidInTime.session}/pay/`, {})
    // the first one's time ran out (and the paid one's, whose webhook has not come yet)
    await t.db.query(`UPDATE transactions SET expires_at = now() - interval '1 minute' WHERE id = ANY($1)`, [[stale.transactionId, paidInTime.transactionId]])
    expect(await expirePendingPayments(t.app.ctx)).toBe(1)
    expect((await moneyState(t.db, stale.client.id, stale.transactionId)).status).toBe(3)
    expect((await t.db.query<{ status: string }>('SELECT status FROM sandbox_sessions WHERE id = $1', [stale.session]))[0]!.status).toBe('expired')
    // an expired checkout takes no payment
    const late = await stale.browser.post(`/api/sandbox/checkout/${stale.session}/pay/`, {})
    expect(late.status).toBe(409)
    expect(await pageText(stale.browser, `/sandbox/checkout/${stale.session}/`)).toContain('This checkout has expired.')
    // the one paid in time is left for its webhook, which credits it
    expect((await moneyState(t.db, paidInTime.client.id, paidInTime.transactionId)).status).toBe(1)
    expect(await expirePendingPayments(t.app.ctx)).toBe(0)
    // the queue's round: the scheduled expiry run (nothing left for it) and the delivery
    await deliverQueued()
    expect(await count(t.db, `jobs WHERE name = 'payments.expire' AND status = 'done'`)).toBe(1)
    expect(await moneyState(t.db, paidInTime.client.id, paidInTime.transactionId)).toMatchObject({ status: 0, balance: 5000, ledger: 5000 })

    // idempotent; and everything pending expires after 24 hours
    const later = new Date(Date.now() + 25 * 3600 * 1000)
    expect(await expirePendingPayments(t.app.ctx, later)).toBe(1)
    expect(await expirePendingPayments(t.app.ctx, later)).toBe(0)
    expect((await moneyState(t.db, fresh.client.id, fresh.transactionId)).status).toBe(3)
    expect(await count(t.db, `sandbox_sessions WHERE status = 'expired'`)).toBe(2)
    expect(await count(t.db, 'ledger_entries')).toBe(1)
  })

  it('an open checkout past its time refuses payment before the job runs', async () => {
    const { session, browser } = await topUp(30)
    await t.db.query(
      `UPDATE sandbox_sessions SET metadata = jsonb_set(metadata, '{expires_at}', to_jsonb((now() - interval '1 second')::text)) WHERE id = $1`,
      [session],
    )
    expect(((await (await browser.get(`/api/sandbox/checkout/${session}/`)).json()) as { status: string }).status).toBe('expired')
    expect((await browser.post(`/api/sandbox/checkout/${session}/pay/`, {})).status).toBe(409)
  })
})

describe('a sandbox payment held for review', () => {
  it('Pay (held for review) leaves it pending, no webhook; sandbox:settle pays it later and it credits once, whoever reads it back', async () => {
    const { client, browser, session, transactionId } = await topUp(70)
    const held = await browser.post(`/api/sandbox/checkout/${session}/pay/`, { outcome: 'pending' })
    expect(held.status).toBe(200)
    expect(((await (await browser.get(`/api/sandbox/checkout/${session}/`)).json()) as { status: string }).status).toBe('pending')
    expect(await pageText(browser, `/sandbox/checkout/${session}/`)).toContain('held for review')
    expect(await count(t.db, 'jobs WHERE name = $1', [SANDBOX_DELIVER_JOB])).toBe(0)
    // held: neither paid again nor expired while the provider reviews it
    expect((await browser.post(`/api/sandbox/checkout/${session}/pay/`, {})).status).toBe(409)
    expect(await expirePendingPayments(t.app.ctx, new Date(Date.now() + 25 * 3600 * 1000))).toBe(0)
    expect(await reconcilePayments(t.app.ctx)).toMatchObject({ open: 1, paid: 0 })
    expect(await moneyState(t.db, client.id, transactionId)).toMatchObject({ status: 1, balance: 0 })

    const services = { sandboxWebhooks: () => sandbox().webhooks, ctx: () => Promise.resolve(t.app.ctx) }
    expect((await runCommand(t.db, ['sandbox:settle', session], services)).code).toBe(2)
    const settled = await runCommand(t.db, ['sandbox:settle', session, '--outcome', 'paid'], services)
    expect(settled.code, settled.output).toBe(0)
    // the reconcile job reads the settled checkout before its webhook arrives: the same event, applied once
    expect(await reconcilePayments(t.app.ctx)).toMatchObject({ paid: 1 })
    await deliverQueued()
    expect(await moneyState(t.db, client.id, transactionId)).toMatchObject({ status: 0, balance: 7000, ledger: 7000 })
    expect(await count(t.db, 'payment_events WHERE transaction_id = $1', [transactionId])).toBe(1)
    expect((await runCommand(t.db, ['sandbox:settle', session, '--outcome', 'declined'], services)).code).toBe(1)
  })

  it('settled declined: the transaction is declined, nothing credited', async () => {
    const { client, browser, session, transactionId } = await topUp(40, 'paypal')
    expect((await browser.post(`/api/sandbox/checkout/${session}/pay/`, { outcome: 'pending' })).status).toBe(200)
    const services = { sandboxWebhooks: () => sandbox().webhooks, ctx: () => Promise.resolve(t.app.ctx) }
    expect((await runCommand(t.db, ['sandbox:settle', session, '--outcome', 'declined'], services)).code).toBe(0)
    await deliverQueued()
    expect(await moneyState(t.db, client.id, transactionId)).toMatchObject({ status: 2, balance: 0 })
  })
})

/** after every test: each client's balance is its ledger's sum */
afterEach(async () => {
  const rows = await t.db.query<{ id: number; balance: number; ledger: number }>(
    `SELECT c.id, c.balance_cents AS balance, COALESCE((SELECT sum(amount_cents) FROM ledger_entries l WHERE l.client_id = c.id), 0)::bigint AS ledger FROM clients c`,
  )
  for (const r of rows) expect(Number(r.balance), `client ${r.id}`).toBe(Number(r.ledger))
})
