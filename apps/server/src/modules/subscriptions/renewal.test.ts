import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DAY_SECONDS, ERRORS, MONTH_SECONDS, OUTAGE_LIMIT_HOURS, TRANSACTION_STATUS, type LicenseView } from '@portal/domain'
import { withPinnedCharges } from '../../platform/payments/idempotency.ts'
import { PaymentRefused, PaymentUnavailable, type ChargeRequest, type PaymentProvider } from '../../platform/payments/port.ts'
import type { PaymentProviders } from '../../platform/payments/registry.ts'
import { Agent, count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'
import { credit } from '../../test/money.ts'
import { balanceAndLedgerSum } from '../billing/queries.ts'
import { seedCatalogue } from '../catalogue/queries.ts'
import { savePaymentMethod } from '../billing/queries.ts'
import { runRenewals, sendExpiryWarnings } from './renewal.ts'

/**
 * Subscriptions that renew, through the real app on the worker's database: a license of a
 * subscription bought from the balance or by a sandbox card renews at its period's end; failures
 * retry 1, 3 and 7 days after the end and then stop it; cancel and reactivate; the expiring-soon
 * mail. The business clock is moved (t.clock), never slept on; the job is run directly.
 */
const t = useTestApp()

beforeEach(async () => {
  // the sandbox delivers its webhooks to this process's listening address
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' })
})

// the price table outlives each test (the harness keeps it): a test that changes it puts it back
afterEach(async () => {
  await t.db.query(`DELETE FROM prices WHERE product = 'nuitrack_online_subscription_monthly'`)
  await seedCatalogue(t.db)
})

const PRICE = 328
const PRO = { config: { product: 'nuitrack_online_subscription_monthly', license_expire_delta: MONTH_SECONDS }, count: 1 }
const RETURN = { success_url: '/app/nuitrack/license-purchase-success/', cancel_url: '/app/nuitrack/basket/' }
const DAY_MS = DAY_SECONDS * 1000

/** the job queue's round: delivers the sandbox's queued webhooks (and runs whatever else is due) */
const tick = () => t.app.ctx.jobs.tick()
const renew = () => runRenewals(t.app.ctx)

/** the sandbox's hosted checkout, paid with a test card */
async function paySandbox(agent: Agent, session: string, card = '4242424242424242') {
  const res = await agent.post(`/api/sandbox/checkout/${session}/pay/`, { card_number: card })
  expect(res.statusCode, res.body).toBe(200)
  await tick()
}

/**
 * A client with a Nuitrack Pro monthly subscription license: bought from the balance (with `funds`
 * cents on it first) or by a sandbox card, then generated from its group.
 */
async function subscribed(opts: { source?: 'balance' | 'stripe'; card?: string; funds?: number; product?: typeof PRO } = {}) {
  const { agent, client, email } = await signedInClient(t)
  const source = opts.source ?? 'balance'
  if (source === 'balance') await credit(t.db, client.id, opts.funds ?? PRICE)
  const res = await agent.post('/api/resource/subscribe/', { payment_source: source, items: [opts.product ?? PRO], ...RETURN })
  expect(res.statusCode, res.body).toBe(200)
  if (source === 'stripe') await paySandbox(agent, res.json().payment.provider_data.session_id, opts.card)
  const groups = (await agent.get('/api/group/')).json().groups as { id: number; limit: number }[]
  const group = groups.find((g) => g.limit > 0)!
  const made = await agent.post(`/api/group/${group.id}/new-license/`, { title: 'Renewing' })
  expect(made.statusCode, made.body).toBe(200)
  const license = made.json() as LicenseView
  return { agent, client, email, license, view: async () => (await agent.get(`/api/license/${license.id}/`)).json() as LicenseView }
}

const mailsTo = async (email: string) =>
  (await t.db.query<{ subject: string; text_body: string }>('SELECT subject, text_body FROM mail_outbox WHERE to_address = $1 ORDER BY id', [email])).map(
    (m) => ({ subject: m.subject, text: m.text_body }),
  )

const transactionsOf = (clientId: number, kind: string) =>
  t.db.query<{ id: number; status: number; amount_cents: number; invoice_number: number | null; charge_key: string | null; provider: string | null }>(
    'SELECT id, status, amount_cents, invoice_number, charge_key, provider FROM transactions WHERE client_id = $1 AND kind = $2 ORDER BY id',
    [clientId, kind],
  )

const subscriptionRow = async (licenseId: number) =>
  (
    await t.db.query<{ id: number; state: string; failed_attempts: number; next_attempt_at: Date | null; cancel_at_period_end: boolean }>(
      'SELECT id, state, failed_attempts, next_attempt_at, cancel_at_period_end FROM subscriptions WHERE license_id = $1',
      [licenseId],
    )
  )[0]

const at = (iso: string | null, plusMs = 0) => new Date(new Date(iso!).getTime() + plusMs)

/** a card subscription (sandbox 4242) of a new client */
const signedInAndSubscribed = () => subscribed({ source: 'stripe' })

describe('a subscription starts with its license', () => {
  it('a balance-paid subscription license renews from the balance; the view tells how, when and for how much', async () => {
    const { license, agent } = await subscribed()
    expect(license.subscription).toMatchObject({ state: 'active', payment_source: 'balance', wallet: false, cancel_at_period_end: false, failed_attempts: 0 })
    // the list answers the same (its one query joins the subscription)
    const [listed] = (await agent.get('/api/license/')).json().licenses as LicenseView[]
    expect({ subscription: listed!.subscription, next_payment: listed!.next_payment }).toEqual({
      subscription: license.subscription,
      next_payment: license.next_payment,
    })
    expect(license.subscription!.renewal_price).toBe(3.28)
    expect(license.subscription!.next_attempt).toBe(license.expire_date)
    expect(license.next_payment).toBe(license.expire_date)
    expect(license.subscription_status).toBe('active')
    // its period counts from the business clock
    expect(Math.abs(new Date(license.expire_date!).getTime() - (t.clock.now().getTime() + MONTH_SECONDS * 1000))).toBeLessThan(60_000)
  })

  it('a card subscription keeps the saved card: brand and last four on the license', async () => {
    const { license } = await subscribed({ source: 'stripe' })
    expect(license.subscription).toMatchObject({ state: 'active', payment_source: 'stripe', wallet: false })
    expect({ brand: license.card_brand, last4: license.card_last4 }).toEqual({ brand: 'Visa', last4: '4242' })
  })

  it('a trial, a staff-made or an unpaid group makes no subscription; the list shows each', async () => {
    const { agent, client } = await signedInClient(t)
    const trial = await agent.post('/api/resource/create/', { count: 1, config: { product: 'fmc_subscribe', tag: 'FMC Trial' } })
    expect(trial.statusCode, trial.body).toBe(200)
    expect(trial.json().licenses[0].subscription).toBeNull()
    expect(trial.json().licenses[0].next_payment).toBeNull()
    // a group filled without a payment (staff, seeding) renews nothing
    await t.db.query(
      `INSERT INTO license_groups (client_id, type, product, is_default, available, config, token)
       VALUES ($1, 'nuitrack', 'nuitrack_online_subscription_monthly', true, 1, '{"license_expire_delta": 2592000}', 'tok-unpaid')`,
      [client.id],
    )
    const [g] = await t.db.query<{ id: number }>(`SELECT id FROM license_groups WHERE token = 'tok-unpaid'`)
    const made = await agent.post(`/api/group/${g!.id}/new-license/`, { title: 'Free' })
    expect(made.json().subscription).toBeNull()
    expect(made.json().next_payment).toBeNull()
    expect(await count(t.db, 'subscriptions')).toBe(0)
    const list = (await agent.get('/api/license/')).json().licenses as LicenseView[]
    expect(list.map((l) => l.subscription)).toEqual([null, null])
  })
})

describe('one-off card purchases', () => {
  it('a subscription product bought by card through /resource/buy/ (nothing saved) does not renew: it ends at its expiry', async () => {
    const { agent } = await signedInClient(t)
    const res = await agent.post('/api/resource/buy/', { payment_source: 'stripe', items: [PRO], ...RETURN })
    expect(res.statusCode, res.body).toBe(200)
    await paySandbox(agent, res.json().payment.provider_data.session_id)
    const group = ((await agent.get('/api/group/')).json().groups as { id: number; limit: number }[]).find((g) => g.limit > 0)!
    const license = (await agent.post(`/api/group/${group.id}/new-license/`, { title: 'Once' })).json() as LicenseView
    expect(license.subscription).toBeNull()
    expect(license.next_payment).toBeNull()
    expect(await count(t.db, 'subscriptions')).toBe(0)
  })
})

describe('renewal from the balance', () => {
  it('at the period end charges the current price once, extends from the old end, invoices and mails the receipt', async () => {
    const { client, email, license, view, agent } = await subscribed({ funds: 2000 })
    expect(await renew()).toEqual({})
    // the price changed since the purchase: the renewal charges the table's price of now
    await t.db.query(`UPDATE prices SET cost_cents = 350 WHERE product = 'nuitrack_online_subscription_monthly'`)
    t.clock.set(at(license.expire_date, 3 * 3600_000))
    expect(await renew()).toEqual({ renewed: 1 })
    // run again (a second process, a retried job): nothing more
    expect(await renew()).toEqual({})
    const renewed = await view()
    expect(renewed.expire_date).toBe(at(license.expire_date, MONTH_SECONDS * 1000).toISOString())
    expect(renewed.subscription).toMatchObject({ state: 'active', failed_attempts: 0, next_attempt: renewed.expire_date, renewal_price: 3.5 })
    expect(renewed.license_status).not.toBe('suspended')
    const [charge] = await transactionsOf(client.id, 'renewal')
    expect(charge).toMatchObject({ status: TRANSACTION_STATUS.ok, amount_cents: 350 })
    expect(charge!.invoice_number).not.toBeNull()
    expect(charge!.charge_key).toBe(`renewal:${license.subscription!.id}:${Math.floor(new Date(license.expire_date!).getTime() / 1000)}:0`)
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 2000 - PRICE - 350, ledger: 2000 - PRICE - 350 })
    // the payment documents list it
    const docs = (await agent.get('/api/transaction/')).json()
    expect(JSON.stringify(docs)).toContain('Renewal of Renewing')
    await tick()
    const receipts = (await mailsTo(email)).filter((m) => m.subject.startsWith('Receipt'))
    expect(receipts.map((m) => m.subject)).toContain('Receipt for your payment of $3.50')
    // the next period renews again a month later
    t.clock.set(at(renewed.expire_date, 60_000))
    expect(await renew()).toEqual({ renewed: 1 })
    expect((await view()).expire_date).toBe(at(license.expire_date, 2 * MONTH_SECONDS * 1000).toISOString())
  })

  it('a short balance: past due, retried 1, 3 and 7 days after the end with a mail each, then stopped (status 1)', async () => {
    const { client, email, license, view } = await subscribed()
    const end = new Date(license.expire_date!)
    const retries: string[] = []
    t.clock.set(at(license.expire_date, 1000))
    expect(await renew()).toEqual({ failed: 1 })
    for (const [i, days] of [1, 3, 7].entries()) {
      const sub = await subscriptionRow(license.id)
      expect(sub).toMatchObject({ state: 'past_due', failed_attempts: i + 1 })
      expect(sub!.next_attempt_at!.toISOString()).toBe(new Date(end.getTime() + days * DAY_MS).toISOString())
      retries.push(sub!.next_attempt_at!.toISOString())
      // grace: suspended after the end until a retry or a reactivation pays
      const v = await view()
      expect(v.license_status).toBe('suspended')
      expect(v.subscription).toMatchObject({ state: 'past_due', failed_attempts: i + 1 })
      // not due before the retry
      t.clock.set(new Date(sub!.next_attempt_at!.getTime() - 60_000))
      expect(await renew()).toEqual({})
      t.clock.set(new Date(sub!.next_attempt_at!.getTime() + 1000))
      expect(await renew()).toEqual(i < 2 ? { failed: 1 } : { stopped: 1 })
    }
    const stopped = await view()
    expect(stopped.status).toBe(1)
    expect(stopped.license_status).toBe('suspended')
    expect(stopped.subscription).toMatchObject({ state: 'stopped', failed_attempts: 4, next_attempt: null })
    expect(stopped.next_payment).toBeNull()
    // four attempts, each recorded as a declined transaction with its own key; nothing debited
    const charges = await transactionsOf(client.id, 'renewal')
    expect(charges.map((c) => c.status)).toEqual([2, 2, 2, 2])
    expect(new Set(charges.map((c) => c.charge_key)).size).toBe(4)
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 0, ledger: 0 })
    const mails = await mailsTo(email)
    expect(mails.filter((m) => m.subject === 'Payment for Renewing failed')).toHaveLength(3)
    expect(mails.filter((m) => m.subject === 'Renewing has been stopped')).toHaveLength(1)
    const link = `http://portal.test/app/nuitrack/dashboard/${license.id}/info/`
    expect(mails.every((m) => m.text.includes(link))).toBe(true)
    // nothing more: a stopped subscription is not charged again
    t.clock.set(new Date(end.getTime() + 40 * DAY_MS))
    expect(await renew()).toEqual({})
    expect(retries).toHaveLength(3)
  })

  it("emits payment.failed at each failed attempt and license.suspended when it stops, to the account's webhooks", async () => {
    const { agent, license } = await subscribed()
    const hook = await agent.post('/api/account/webhooks/', { url: 'https://example.com/hooks', events: ['payment.failed', 'license.suspended'] })
    expect(hook.statusCode, hook.body).toBe(201)
    t.clock.set(at(license.expire_date, 1000))
    expect(await renew()).toEqual({ failed: 1 })
    for (const days of [1, 3, 7]) {
      t.clock.set(at(license.expire_date, days * DAY_MS + 1000))
      await renew()
    }
    const rows = await t.db.query<{ event: string; body: string }>('SELECT event, body FROM webhook_deliveries ORDER BY id')
    expect(rows.map((r) => r.event)).toEqual(['payment.failed', 'payment.failed', 'payment.failed', 'payment.failed', 'license.suspended'])
    const bodies = rows.map((r) => JSON.parse(r.body) as { data: Record<string, unknown> })
    expect(bodies[0]!.data).toMatchObject({ license_id: license.id, amount: PRICE / 100, attempts: 1, next_attempt_at: expect.any(String) })
    expect(bodies[3]!.data).toMatchObject({ attempts: 4, next_attempt_at: null })
    expect(bodies[4]!.data).toMatchObject({ license_id: license.id, reason: 'renewal failed' })
    expect(await count(t.db, `jobs WHERE name = 'webhooks.deliver'`)).toBe(5)
  })

  it('a retry that pays extends from the old end, not from now', async () => {
    const { client, license, view } = await subscribed()
    t.clock.set(at(license.expire_date, 1000))
    expect(await renew()).toEqual({ failed: 1 })
    await credit(t.db, client.id, 1000)
    t.clock.set(at(license.expire_date, DAY_MS + 5000))
    expect(await renew()).toEqual({ renewed: 1 })
    const v = await view()
    expect(v.expire_date).toBe(at(license.expire_date, MONTH_SECONDS * 1000).toISOString())
    expect(v.subscription).toMatchObject({ state: 'active', failed_attempts: 0 })
    expect(v.status).toBe(0)
    expect((await transactionsOf(client.id, 'renewal')).map((c) => c.status)).toEqual([2, 0])
  })

  it('balance_autofill: a short balance is topped up from the saved card by the shortfall (at least 20 USD), then debited', async () => {
    // a card saved by a card subscription of the same client
    const card = await subscribed({ source: 'stripe' })
    await t.db.query(`UPDATE clients SET options = options || '{"balance_autofill": true}'::jsonb WHERE id = $1`, [card.client.id])
    await credit(t.db, card.client.id, PRICE + 100)
    const res = await card.agent.post('/api/resource/subscribe/', { payment_source: 'balance', items: [PRO], ...RETURN })
    expect(res.statusCode, res.body).toBe(200)
    const group = ((await card.agent.get('/api/group/')).json().groups as { id: number; limit: number }[]).find((g) => g.limit > 0)!
    const license = (await card.agent.post(`/api/group/${group.id}/new-license/`, { title: 'Autofilled' })).json() as LicenseView
    expect(license.subscription!.payment_source).toBe('balance')
    // only the balance subscription is due (the card one ends later by a few seconds at most: move past both)
    t.clock.set(at(license.expire_date, 60_000))
    expect(await renew()).toEqual({ renewed: 2 })
    const topUps = await transactionsOf(card.client.id, 'top_up')
    expect(topUps).toHaveLength(1)
    expect(topUps[0]).toMatchObject({ status: 0, amount_cents: 2000, provider: 'sandbox' })
    expect(topUps[0]!.charge_key).toMatch(/^autofill:\d+:\d+:0$/)
    // 100 left + 2000 topped up − 328
    expect(await balanceAndLedgerSum(t.db, card.client.id)).toEqual({ balance: 100 + 2000 - PRICE, ledger: 100 + 2000 - PRICE })
    expect(await renew()).toEqual({})
  })
})

describe('the scheduled job', () => {
  it('subscriptions.renew runs on the job queue (a round of the queue renews what is due)', async () => {
    const { client, license, view } = await subscribed({ funds: 1000 })
    t.clock.set(at(license.expire_date, 60_000))
    await tick()
    expect((await view()).expire_date).toBe(at(license.expire_date, MONTH_SECONDS * 1000).toISOString())
    expect((await transactionsOf(client.id, 'renewal')).map((c) => c.status)).toEqual([0])
    expect(await count(t.db, `jobs WHERE name = 'subscriptions.renew' AND status = 'done'`)).toBe(1)
  })
})

describe('renewal by a saved card (sandbox)', () => {
  it('4242 renews through the provider once; 0341 (saved, then declined off-session) goes past due with the reason', async () => {
    const good = await subscribed({ source: 'stripe' })
    const bad = await subscribed({ source: 'stripe', card: '4000000000000341' })
    t.clock.set(at(bad.license.expire_date, 60_000))
    expect(await renew()).toEqual({ renewed: 1, failed: 1 })
    expect(await renew()).toEqual({})
    const [paid] = await transactionsOf(good.client.id, 'renewal')
    expect(paid).toMatchObject({ status: 0, provider: 'sandbox', amount_cents: PRICE })
    expect((await good.view()).expire_date).toBe(at(good.license.expire_date, MONTH_SECONDS * 1000).toISOString())
    const [declined] = await transactionsOf(bad.client.id, 'renewal')
    expect(declined).toMatchObject({ status: 2, provider: 'sandbox' })
    expect((await bad.view()).subscription).toMatchObject({ state: 'past_due', failed_attempts: 1 })
    const failed = (await mailsTo(bad.email)).find((m) => m.subject === 'Payment for Renewing failed')!
    expect(failed.text).toContain('card_declined')
    await tick()
    expect((await mailsTo(good.email)).map((m) => m.subject)).toContain('Receipt for your payment of $3.28')
  })

  it('a provider that is down is not a failed attempt: the same pending charge is retried after the back-off', async () => {
    const { client, license, view } = await subscribed({ source: 'stripe' })
    const real = t.app.ctx.payments
    const down: PaymentProvider = {
      name: 'sandbox',
      createCheckout: () => Promise.reject(new PaymentUnavailable('down')),
      charge: () => Promise.reject(new PaymentUnavailable('down')),
    }
    t.app.ctx.payments = { ...real, byName: (n) => (n === 'sandbox' ? down : real.byName(n)) } satisfies PaymentProviders
    try {
      t.clock.set(at(license.expire_date, 60_000))
      expect(await renew()).toEqual({ unavailable: 1 })
      expect(await subscriptionRow(license.id)).toMatchObject({ state: 'active', failed_attempts: 0 })
      expect((await transactionsOf(client.id, 'renewal')).map((c) => c.status)).toEqual([1])
    } finally {
      t.app.ctx.payments = real
    }
    // not asked again before its back-off
    expect(await renew()).toEqual({})
    // a second past it: the clock runs on from each set(), so the first run read a moment later
    // than its set, and a run set to the exact retry time could come a millisecond early
    t.clock.set(at(license.expire_date, 60_000 + 5 * 60_000 + 1_000))
    expect(await renew()).toEqual({ renewed: 1 })
    expect((await transactionsOf(client.id, 'renewal')).map((c) => c.status)).toEqual([0])
    expect((await view()).subscription).toMatchObject({ state: 'active', failed_attempts: 0 })
  })

  it('a permanent refusal (the provider refuses the call for good) mails the customer once and stops: never retried silently', async () => {
    const { email, license } = await signedInAndSubscribed()
    const real = t.app.ctx.payments
    let calls = 0
    const refusing: PaymentProvider = {
      name: 'sandbox',
      createCheckout: () => Promise.reject(new PaymentUnavailable('down')),
      charge: () => {
        calls++
        return Promise.reject(new PaymentRefused('resource_missing', 'No such customer'))
      },
    }
    t.app.ctx.payments = { ...real, byName: (n) => (n === 'sandbox' ? refusing : real.byName(n)) } satisfies PaymentProviders
    try {
      t.clock.set(at(license.expire_date, 60_000))
      await renew()
      const row = await subscriptionRow(license.id)
      expect(row).toMatchObject({ failed_attempts: 1, next_attempt_at: null })
      const before = (await mailsTo(email)).length
      // every later run and retry day: nothing more is charged or mailed
      for (const days of [1, 3, 7, 30]) {
        t.clock.set(at(license.expire_date, days * DAY_MS))
        await renew()
      }
      expect(calls).toBe(1)
      expect((await mailsTo(email)).length).toBe(before)
      expect((await mailsTo(email)).filter((m) => m.subject.includes('Renewing')).length).toBe(1)
    } finally {
      t.app.ctx.payments = real
    }
  })

  it('an outage past the age limit becomes a failed attempt with a mail, then the usual retries', async () => {
    const { client, email, license } = await signedInAndSubscribed()
    const real = t.app.ctx.payments
    const down: PaymentProvider = {
      name: 'sandbox',
      createCheckout: () => Promise.reject(new PaymentUnavailable('down')),
      charge: () => Promise.reject(new PaymentUnavailable('down')),
    }
    t.app.ctx.payments = { ...real, byName: (n) => (n === 'sandbox' ? down : real.byName(n)) } satisfies PaymentProviders
    try {
      t.clock.set(at(license.expire_date, 60_000))
      expect(await renew()).toEqual({ unavailable: 1 })
      t.clock.set(at(license.expire_date, (OUTAGE_LIMIT_HOURS + 1) * 3600_000))
      await renew()
      expect(await subscriptionRow(license.id)).toMatchObject({ state: 'past_due', failed_attempts: 1 })
      expect((await transactionsOf(client.id, 'renewal')).map((c) => c.status)).toEqual([2])
      expect((await mailsTo(email)).find((m) => m.subject === 'Payment for Renewing failed')!.text).toContain('provider_unavailable')
    } finally {
      t.app.ctx.payments = real
    }
  })

  it('a charge whose answer was lost, retried after the customer changed their card, sends the first card under its key, never the new one', async () => {
    const { client, license } = await subscribed({ source: 'stripe' })
    const real = t.app.ctx.payments
    const sent: ChargeRequest[] = []
    let lost = true
    // a provider that charges and, the first time, loses its answer: the portal cannot know whether it was charged
    const flaky: PaymentProvider = {
      name: 'sandbox',
      createCheckout: () => Promise.reject(new PaymentUnavailable('not here')),
      async charge(req) {
        sent.push(req)
        if (lost) {
          lost = false
          throw new PaymentUnavailable('connection lost after the charge')
        }
        const id = `sbch_${req.idempotencyKey}`
        return { event: { provider: 'sandbox', eventId: `${id}.paid`, sessionId: id, outcome: 'paid', amountCents: req.amountCents } }
      },
    }
    const pinned = withPinnedCharges(flaky, t.db)
    t.app.ctx.payments = { ...real, byName: (n) => (n === 'sandbox' ? pinned : real.byName(n)) } satisfies PaymentProviders
    try {
      t.clock.set(at(license.expire_date, 60_000))
      expect(await renew()).toEqual({ unavailable: 1 })
      // meanwhile the customer saved another card, and the subscription renews with it from now on
      const newCard = await savePaymentMethod(t.db, client.id, { provider: 'sandbox', source: 'stripe', token: 'sbpm_new_card', cardLast4: '4444' })
      await t.db.query('UPDATE subscriptions SET payment_method_id = $1 WHERE license_id = $2', [newCard, license.id])
      // a second past its back-off (the clock runs on from each set())
      t.clock.set(at(license.expire_date, 60_000 + 5 * 60_000 + 1_000))
      expect(await renew()).toEqual({ renewed: 1 })
    } finally {
      t.app.ctx.payments = real
    }
    expect(sent).toHaveLength(2)
    expect(sent.map((r) => r.idempotencyKey)).toEqual([sent[0]!.idempotencyKey, sent[0]!.idempotencyKey])
    expect(sent.map((r) => r.method.token)).toEqual([sent[0]!.method.token, sent[0]!.method.token])
    expect(sent.some((r) => r.method.token === 'sbpm_new_card')).toBe(false)
    expect((await transactionsOf(client.id, 'renewal')).map((c) => c.status)).toEqual([0])
  })
})

describe('cancel', () => {
  it('stays active to the end of the paid period, is not charged, then is cancelled', async () => {
    const { agent, client, license, view } = await subscribed({ funds: 5000 })
    const res = await agent.post(`/api/license/${license.id}/cancel-subscription/`)
    expect(res.statusCode, res.body).toBe(200)
    const cancelled = res.json() as LicenseView
    expect(cancelled.subscription).toMatchObject({ state: 'active', cancel_at_period_end: true, next_attempt: null })
    expect(cancelled.subscription_status).toBe('active')
    expect(cancelled.next_payment).toBeNull()
    // twice is the same
    expect((await agent.post(`/api/license/${license.id}/cancel-subscription/`)).statusCode).toBe(200)
    t.clock.set(at(license.expire_date, -60_000))
    expect((await view()).license_status).not.toBe('suspended')
    t.clock.set(at(license.expire_date, 60_000))
    expect(await renew()).toEqual({ ended: 1 })
    expect(await renew()).toEqual({})
    const ended = await view()
    expect(ended.subscription_status).toBe('cancelled')
    expect(ended.subscription).toMatchObject({ state: 'ended' })
    expect(await transactionsOf(client.id, 'renewal')).toEqual([])
    expect((await balanceAndLedgerSum(t.db, client.id)).balance).toBe(5000 - PRICE)
    // an ended subscription cannot be cancelled again
    expectError(await agent.post(`/api/license/${license.id}/cancel-subscription/`), 400, ERRORS.action_unavailable.code)
  })

  it('refused without a subscription (action_unavailable), on hold (license_on_hold), for another client (not_found)', async () => {
    const { agent, license } = await subscribed()
    const trial = (await agent.post('/api/resource/create/', { count: 1, config: { product: 'nuitrack_trial' } })).json().licenses[0]
    expectError(await agent.post(`/api/license/${trial.id}/cancel-subscription/`), 400, ERRORS.action_unavailable.code)
    const other = await signedInClient(t)
    expectError(await other.agent.post(`/api/license/${license.id}/cancel-subscription/`), 404, ERRORS.not_found.code)
    await t.db.query(`UPDATE licenses SET held_until = $2 WHERE id = $1`, [license.id, new Date(t.clock.now().getTime() + 10 * 60_000)])
    expectError(await agent.post(`/api/license/${license.id}/cancel-subscription/`), ERRORS.license_on_hold.status, ERRORS.license_on_hold.code)
    expectError(await agent.post(`/api/license/${license.id}/reactivate-subscription/`, RETURN), ERRORS.license_on_hold.status, ERRORS.license_on_hold.code)
    expect((await subscriptionRow(license.id))!.cancel_at_period_end).toBe(false)
  })
})

describe('reactivate', () => {
  it('inside the paid period undoes the cancellation without a payment (status ok)', async () => {
    const { agent, client, license } = await subscribed()
    await agent.post(`/api/license/${license.id}/cancel-subscription/`)
    const res = await agent.post(`/api/license/${license.id}/reactivate-subscription/`, RETURN)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ status: 'ok', transaction_id: null, amount: null, payment: null })
    expect(res.json().license.subscription).toMatchObject({ state: 'active', cancel_at_period_end: false })
    expect(res.json().license.next_payment).toBe(license.expire_date)
    expect(await count(t.db, 'transactions WHERE client_id = $1', [client.id])).toBe(2)
    // an active subscription that renews by itself has nothing to reactivate
    expectError(await agent.post(`/api/license/${license.id}/reactivate-subscription/`, RETURN), 400, ERRORS.action_unavailable.code)
  })

  it('an ended one pays a period from the balance: from now, status 0, active; short balance answers insufficient_funds', async () => {
    const { agent, client, license, view } = await subscribed()
    await agent.post(`/api/license/${license.id}/cancel-subscription/`)
    t.clock.set(at(license.expire_date, 10 * DAY_MS))
    expect(await renew()).toEqual({ ended: 1 })
    expectError(await agent.post(`/api/license/${license.id}/reactivate-subscription/`, RETURN), 409, ERRORS.insufficient_funds.code)
    await credit(t.db, client.id, 500)
    const res = await agent.post(`/api/license/${license.id}/reactivate-subscription/`, RETURN)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ status: 'paid', amount: 3.28, payment: null })
    const v = await view()
    expect(Math.abs(new Date(v.expire_date!).getTime() - (t.clock.now().getTime() + MONTH_SECONDS * 1000))).toBeLessThan(5000)
    expect(v.status).toBe(0)
    expect(v.subscription).toMatchObject({ state: 'active', cancel_at_period_end: false, failed_attempts: 0 })
    expect(v.subscription_status).toBe('active')
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 500 - PRICE, ledger: 500 - PRICE })
    const [t1] = await t.db.query<{ status: number; invoice_number: number | null }>(
      `SELECT status, invoice_number FROM transactions WHERE kind = 'reactivation' AND client_id = $1`,
      [client.id],
    )
    expect(t1!.status).toBe(0)
    expect(t1!.invoice_number).not.toBeNull()
  })

  it('a stopped card subscription pays through a checkout; paid, it extends and renews with the new card', async () => {
    const { agent, client, license, view } = await subscribed({ source: 'stripe', card: '4000000000000341' })
    for (const days of [0, 1, 3, 7]) {
      t.clock.set(at(license.expire_date, days * DAY_MS + 60_000))
      await renew()
    }
    expect((await view()).subscription).toMatchObject({ state: 'stopped' })
    expect((await view()).status).toBe(1)
    const res = await agent.post(`/api/license/${license.id}/reactivate-subscription/`, RETURN)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ status: 'pending', amount: 3.28 })
    await paySandbox(agent, res.json().payment.provider_data.session_id, '5555555555554444')
    const v = await view()
    expect(Math.abs(new Date(v.expire_date!).getTime() - (t.clock.now().getTime() + MONTH_SECONDS * 1000))).toBeLessThan(5000)
    expect(v.status).toBe(0)
    expect(v.subscription).toMatchObject({ state: 'active', payment_source: 'stripe', failed_attempts: 0 })
    expect({ brand: v.card_brand, last4: v.card_last4 }).toEqual({ brand: 'Mastercard', last4: '4444' })
    // the next renewal charges the new card, which pays
    t.clock.set(at(v.expire_date, 60_000))
    expect(await renew()).toEqual({ renewed: 1 })
    expect((await transactionsOf(client.id, 'renewal')).map((c) => c.status)).toEqual([2, 2, 2, 2, 0])
  })

  it('a PayPal subscription is a wallet: it shows the PayPal e-mail, renews through the wallet, and a stopped one answers wallet_renewal_unavailable', async () => {
    const { agent, email } = await signedInClient(t)
    const res = await agent.post('/api/resource/subscribe/', { payment_source: 'paypal', items: [PRO], ...RETURN })
    expect(res.statusCode, res.body).toBe(200)
    await paySandbox(agent, res.json().payment.provider_data.session_id)
    const group = ((await agent.get('/api/group/')).json().groups as { id: number; limit: number }[]).find((g) => g.limit > 0)!
    const license = (await agent.post(`/api/group/${group.id}/new-license/`, { title: 'Wallet' })).json() as LicenseView
    expect(license.subscription).toMatchObject({ payment_source: 'paypal', wallet: true, state: 'active' })
    expect(license.paypal_email).toBe(email)
    t.clock.set(at(license.expire_date, 60_000))
    expect(await renew()).toEqual({ renewed: 1 })
    await t.db.query(`UPDATE subscriptions SET state = 'stopped' WHERE license_id = $1`, [license.id])
    expectError(await agent.post(`/api/license/${license.id}/reactivate-subscription/`, RETURN), 400, ERRORS.wallet_renewal_unavailable.code)
    // not even by another source: the spec sends wallet subscriptions to support
    expectError(
      await agent.post(`/api/license/${license.id}/reactivate-subscription/`, { ...RETURN, payment_source: 'balance' }),
      400,
      ERRORS.wallet_renewal_unavailable.code,
    )
  })

  it('a wallet (PayPal) subscription answers wallet_renewal_unavailable; one whose product has no price subscription_cancelled', async () => {
    const { agent, license } = await subscribed()
    t.clock.set(at(license.expire_date, 60_000))
    await renew()
    await t.db.query(`UPDATE subscriptions SET payment_source = 'paypal' WHERE license_id = $1`, [license.id])
    const wallet = await agent.post(`/api/license/${license.id}/reactivate-subscription/`, RETURN)
    expectError(wallet, 400, ERRORS.wallet_renewal_unavailable.code)
    expect(ERRORS.wallet_renewal_unavailable.code).toBe('5015fa05')
    expect((await agent.get(`/api/license/${license.id}/`)).json().subscription.wallet).toBe(true)
    await t.db.query(`UPDATE subscriptions SET payment_source = 'balance' WHERE license_id = $1`, [license.id])
    await t.db.query(`DELETE FROM prices WHERE product = 'nuitrack_online_subscription_monthly'`)
    expectError(await agent.post(`/api/license/${license.id}/reactivate-subscription/`, RETURN), 400, ERRORS.subscription_cancelled.code)
    expect((await agent.get(`/api/license/${license.id}/`)).json().subscription.renewal_price).toBeNull()
  })

  it('a license whose product has no price any more is not renewed: it ends', async () => {
    const { license, view } = await subscribed({ funds: 5000 })
    await t.db.query(`DELETE FROM prices WHERE product = 'nuitrack_online_subscription_monthly'`)
    t.clock.set(at(license.expire_date, 60_000))
    expect(await renew()).toEqual({ ended: 1 })
    expect((await view()).subscription).toMatchObject({ state: 'ended' })
  })
})

describe('the expiring-soon mail', () => {
  const warn = () => sendExpiryWarnings(t.app.ctx, t.clock.now())

  it('goes 7 days before a license that will not renew ends, once per period; none for one that renews', async () => {
    const cancelled = await subscribed()
    const renewing = await subscribed()
    await cancelled.agent.post(`/api/license/${cancelled.license.id}/cancel-subscription/`)
    t.clock.set(at(cancelled.license.expire_date, -8 * DAY_MS))
    expect(await warn()).toBe(0)
    t.clock.set(at(cancelled.license.expire_date, -7 * DAY_MS + 60_000))
    expect(await warn()).toBe(1)
    expect(await warn()).toBe(0)
    t.clock.set(at(cancelled.license.expire_date, -DAY_MS))
    expect(await warn()).toBe(0)
    const mails = (await mailsTo(cancelled.email)).filter((m) => m.subject.startsWith('Renewing expires on'))
    expect(mails).toHaveLength(1)
    expect(mails[0]!.text).toContain(`http://portal.test/app/nuitrack/dashboard/${cancelled.license.id}/info/`)
    expect((await mailsTo(renewing.email)).filter((m) => m.subject.includes('expires'))).toEqual([])
  })

  it('a trial with an expiry is warned once too (no subscription)', async () => {
    const { agent, email } = await signedInClient(t)
    const trial = (await agent.post('/api/resource/create/', { count: 1, config: { product: 'fmc_subscribe', tag: 'FMC Trial' } })).json().licenses[0]
    t.clock.set(at(trial.expire_date, -3 * DAY_MS))
    expect(await warn()).toBe(1)
    expect(await warn()).toBe(0)
    expect((await mailsTo(email)).filter((m) => m.subject.includes('expires on'))).toHaveLength(1)
  })
})
