import { beforeEach, describe, expect, it } from 'vitest'
import { DAY_SECONDS, ERRORS, MONTH_SECONDS, OUTAGE_LIMIT_HOURS, type LicenseView, type RenewalPaymentView } from '@portal/domain'
import { PaymentUnavailable, type PaymentProvider } from '../../platform/payments/port.ts'
import type { PaymentProviders } from '../../platform/payments/registry.ts'
import { Agent, count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'
import { credit } from '../../test/money.ts'
import { isSandboxProvider, redeliverSandboxEvent, type SandboxProvider } from '../payments/sandbox.ts'
import { runCommand } from '../../cli/commands.ts'
import { runRenewals, sendExpiryWarnings } from './renewal.ts'

/**
 * Renewals that need the customer, through the real app on the worker's database: a card that asks
 * for authentication (the sandbox's 4000 0027 6000 3184, as Stripe's authentication_required) sends
 * the customer to pay on-session and keeps the license active until the pay-by date; a provider
 * outage is asked again with back-off up to the age limit. The business clock is moved, never slept on.
 */
const t = useTestApp()

beforeEach(async () => {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' })
})

const PRICE = 328
const PRO = { config: { product: 'nuitrack_online_subscription_monthly', license_expire_delta: MONTH_SECONDS }, count: 1 }
const RETURN = { success_url: '/app/nuitrack/license-purchase-success/', cancel_url: '/app/nuitrack/basket/' }
const SCA_CARD = '4000002760003184'
const DAY_MS = DAY_SECONDS * 1000
const MINUTE_MS = 60_000

const tick = () => t.app.ctx.jobs.tick()
const renew = () => runRenewals(t.app.ctx)
const at = (iso: string | Date | null, plusMs = 0) => new Date(new Date(iso!).getTime() + plusMs)

const sandbox = (): SandboxProvider => {
  const p = t.app.ctx.payments.byName('sandbox')
  if (!p || !isSandboxProvider(p)) throw new Error('no sandbox')
  return p
}

async function paySandbox(agent: Agent, session: string, card = '4242424242424242') {
  const res = await agent.post(`/api/sandbox/checkout/${session}/pay/`, { card_number: card })
  expect(res.statusCode, res.body).toBe(200)
}

/** A client with a Nuitrack Pro monthly subscription bought by a sandbox card (or from the balance), and its license. */
async function subscribed(opts: { card?: string; source?: 'stripe' | 'balance' } = {}) {
  const { agent, client, email } = await signedInClient(t)
  const source = opts.source ?? 'stripe'
  if (source === 'balance') await credit(t.db, client.id, PRICE)
  const res = await agent.post('/api/resource/subscribe/', { payment_source: source, items: [PRO], ...RETURN })
  expect(res.statusCode, res.body).toBe(200)
  if (source === 'stripe') {
    await paySandbox(agent, res.json().payment.provider_data.session_id, opts.card ?? SCA_CARD)
    await tick()
  }
  const group = ((await agent.get('/api/group/')).json().groups as { id: number; limit: number }[]).find((g) => g.limit > 0)!
  const made = await agent.post(`/api/group/${group.id}/new-license/`, { title: 'Renewing' })
  expect(made.statusCode, made.body).toBe(200)
  const license = made.json() as LicenseView
  return { agent, client, email, license, view: async () => (await agent.get(`/api/license/${license.id}/`)).json() as LicenseView }
}

const mailsTo = async (email: string) =>
  (await t.db.query<{ subject: string; text_body: string }>('SELECT subject, text_body FROM mail_outbox WHERE to_address = $1 ORDER BY id', [email])).map(
    (m) => ({ subject: m.subject, text: m.text_body }),
  )

const subscriptionRow = async (licenseId: number) =>
  (
    await t.db.query<{ id: number; state: string; failed_attempts: number; next_attempt_at: Date | null; outage_retries: number }>(
      'SELECT id, state, failed_attempts, next_attempt_at, outage_retries FROM subscriptions WHERE license_id = $1',
      [licenseId],
    )
  )[0]!

const renewals = (clientId: number) =>
  t.db.query<{ id: number; status: number; charge_key: string; provider: string | null; reason: string | null }>(
    `SELECT id, status, charge_key, provider, reason FROM transactions WHERE client_id = $1 AND kind = 'renewal' ORDER BY id`,
    [clientId],
  )

const offSessionCharges = (clientId: number) =>
  count(t.db, `sandbox_charges c JOIN transactions t ON t.id = c.transaction_id WHERE t.client_id = $1`, [clientId])

/** a 3184 subscription whose renewal asked for authentication at the period's end */
async function awaiting() {
  const s = await subscribed()
  const periodEnd = new Date(s.license.expire_date!)
  t.clock.set(at(periodEnd, MINUTE_MS))
  expect(await renew()).toEqual({ awaiting: 1 })
  return { ...s, periodEnd, payBy: at(periodEnd, 7 * DAY_MS) }
}

describe('a renewal whose card asks for authentication', () => {
  it('awaits the customer: one mail with the link, no further off-session tries, the license active until the pay-by date', async () => {
    const { agent, client, email, license, view, periodEnd, payBy } = await awaiting()
    expect(await subscriptionRow(license.id)).toMatchObject({ state: 'awaiting_authentication', failed_attempts: 0, next_attempt_at: payBy })
    const [declined] = await renewals(client.id)
    expect(declined).toMatchObject({ status: 2, provider: 'sandbox', reason: 'authentication_required' })
    const shown = await view()
    // never activated: new, and not suspended though its period has ended
    expect(shown).toMatchObject({ state: 'new', status: 0, expire_date: payBy.toISOString() })
    expect(shown.subscription).toMatchObject({ state: 'awaiting_authentication', next_attempt: payBy.toISOString() })
    const mails = (await mailsTo(email)).filter((m) => m.subject.includes('Renewing'))
    expect(mails.map((m) => m.subject)).toEqual(['Confirm the payment for Renewing'])
    expect(mails[0]!.text).toContain(`/app/nuitrack/dashboard/${license.id}/renewal-payment/`)
    expect(mails[0]!.text).toContain('$3.28')
    // the retry days and every run until the pay-by date: no charge, no mail, no expiring-soon warning
    for (const days of [1, 3, 6]) {
      t.clock.set(at(periodEnd, days * DAY_MS))
      expect(await renew()).toEqual({})
      expect(await sendExpiryWarnings(t.app.ctx, t.clock.now())).toBe(0)
    }
    expect(await offSessionCharges(client.id)).toBe(1)
    expect((await mailsTo(email)).filter((m) => m.subject.includes('Renewing'))).toHaveLength(1)
    expect((await view()).state).toBe('new')
    // reactivating it is not the way (its page pays the period that is due); another client's is not found
    expectError(await agent.post(`/api/license/${license.id}/reactivate-subscription/`, RETURN), 400, ERRORS.action_unavailable.code)
    const other = await signedInClient(t)
    expectError(await other.agent.post(`/api/license/${license.id}/renewal-payment/`, RETURN), 404, ERRORS.not_found.code)
    expectError(await other.agent.get(`/api/license/${license.id}/renewal-payment/`), 404, ERRORS.not_found.code)
  })

  it('its page shows the amount, the period and the pay-by date; paying renews once under 5 parallel webhooks and a replay', async () => {
    const { agent, client, license, view, periodEnd, payBy } = await awaiting()
    const page = (await agent.get(`/api/license/${license.id}/renewal-payment/`)).json() as RenewalPaymentView
    expect(page).toMatchObject({
      license_id: license.id,
      due: true,
      amount: 3.28,
      period_from: periodEnd.toISOString(),
      period_to: at(periodEnd, MONTH_SECONDS * 1000).toISOString(),
      pay_by: payBy.toISOString(),
      subscription_state: 'awaiting_authentication',
    })
    const res = await agent.post(`/api/license/${license.id}/renewal-payment/`, RETURN)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ amount: 3.28, payment: { provider: 'sandbox' } })
    const session = res.json().payment.provider_data.session_id as string
    // authenticated at the checkout: the customer is there
    await paySandbox(agent, session, SCA_CARD)
    const first = await redeliverSandboxEvent(t.db, sandbox().webhooks, session, 5)
    expect(first.answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200])
    await tick()
    const replay = await redeliverSandboxEvent(t.db, sandbox().webhooks, session, 1)
    expect(replay.answers.map((a) => a.status)).toEqual([200])
    const all = await renewals(client.id)
    expect(all.map((r) => r.status)).toEqual([2, 0])
    expect(all[1]!.charge_key).toMatch(/:on_session:\d+$/)
    // the new period starts at the old one's end, not at the pay-by date, and is renewed once
    const after = await view()
    expect(after.expire_date).toBe(at(periodEnd, MONTH_SECONDS * 1000).toISOString())
    expect(after.subscription).toMatchObject({ state: 'active', failed_attempts: 0, next_attempt: after.expire_date })
    expect(((await agent.get(`/api/license/${license.id}/renewal-payment/`)).json() as RenewalPaymentView).due).toBe(false)
    expectError(await agent.post(`/api/license/${license.id}/renewal-payment/`, RETURN), 400, ERRORS.action_unavailable.code)
    // the card authenticated on-session is the one the next renewal charges (3184 again: it asks again)
    t.clock.set(at(after.expire_date, MINUTE_MS))
    expect(await renew()).toEqual({ awaiting: 1 })
  })

  it('5 parallel pay requests open one checkout; a checkout closed unpaid lets the next request open another', async () => {
    const { agent, client, license } = await awaiting()
    const answers = await Promise.all(Array.from({ length: 5 }, () => agent.post(`/api/license/${license.id}/renewal-payment/`, RETURN)))
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200])
    const sessions = new Set(answers.map((a) => a.json().payment.provider_data.session_id as string))
    expect(sessions.size).toBe(1)
    const opened = `sandbox_sessions s JOIN transactions t ON t.id = (s.metadata->>'transaction_id')::bigint
                     WHERE t.client_id = $1 AND t.charge_key LIKE '%:on_session:%'`
    expect(await count(t.db, opened, [client.id])).toBe(1)
    expect((await renewals(client.id)).filter((r) => r.charge_key.includes(':on_session:'))).toHaveLength(1)
    const [session] = [...sessions]
    // cancelled at the checkout: the renewal still waits, and the next request opens a new checkout
    const cancelled = await agent.post(`/api/sandbox/checkout/${session}/cancel/`, {})
    expect(cancelled.statusCode, cancelled.body).toBe(200)
    await tick()
    expect((await subscriptionRow(license.id)).state).toBe('awaiting_authentication')
    const again = await agent.post(`/api/license/${license.id}/renewal-payment/`, RETURN)
    expect(again.statusCode, again.body).toBe(200)
    expect(again.json().payment.provider_data.session_id).not.toBe(session)
  })

  it('never paid: at the pay-by date the renewal fails with the usual mail and the license stops; active until then', async () => {
    const { client, email, license, view, payBy } = await awaiting()
    t.clock.set(at(payBy, -MINUTE_MS))
    expect(await renew()).toEqual({})
    expect(await view()).toMatchObject({ status: 0, state: 'new' })
    t.clock.set(at(payBy, MINUTE_MS))
    expect(await renew()).toEqual({ stopped: 1 })
    expect(await renew()).toEqual({})
    expect(await subscriptionRow(license.id)).toMatchObject({ state: 'stopped', next_attempt_at: null })
    expect(await view()).toMatchObject({ status: 1, state: 'suspended' })
    const subjects = (await mailsTo(email)).map((m) => m.subject).filter((s) => s.includes('Renewing'))
    expect(subjects).toEqual(['Confirm the payment for Renewing', 'Renewing has been stopped'])
    expect(await offSessionCharges(client.id)).toBe(1)
  })

  it('a balance_autofill top-up refused for authentication says so in the failed-renewal mail', async () => {
    const card = await subscribed()
    await t.db.query(`UPDATE clients SET options = options || '{"balance_autofill": true}'::jsonb WHERE id = $1`, [card.client.id])
    await credit(t.db, card.client.id, PRICE + 100)
    const res = await card.agent.post('/api/resource/subscribe/', { payment_source: 'balance', items: [PRO], ...RETURN })
    expect(res.statusCode, res.body).toBe(200)
    const group = ((await card.agent.get('/api/group/')).json().groups as { id: number; limit: number }[]).find((g) => g.limit > 0)!
    const license = (await card.agent.post(`/api/group/${group.id}/new-license/`, { title: 'Autofilled' })).json() as LicenseView
    t.clock.set(at(license.expire_date, MINUTE_MS))
    // the card subscription awaits its customer; the balance one fails, saying why
    expect(await renew()).toEqual({ awaiting: 1, failed: 1 })
    const failed = (await mailsTo(card.email)).find((m) => m.subject === 'Payment for Autofilled failed')!
    expect(failed.text).toContain('needs your authentication')
    const [topUp] = await t.db.query<{ status: number; reason: string }>(`SELECT status, reason FROM transactions WHERE client_id = $1 AND kind = 'top_up'`, [
      card.client.id,
    ])
    expect(topUp).toEqual({ status: 2, reason: 'authentication_required' })
  })
})

describe('subscriptions:renew', () => {
  it('runs the renewal job once; --at runs it as at a later time on the sandbox', async () => {
    const { license } = await subscribed()
    const services = { ctx: async () => t.app.ctx }
    expect((await runCommand(t.db, ['subscriptions:renew'], services)).output).toContain('nothing due')
    const when = at(license.expire_date, MINUTE_MS).toISOString()
    const ran = await runCommand(t.db, ['subscriptions:renew', '--at', when], services)
    expect(ran).toEqual({ code: 0, output: `Renewal run as at ${when}: awaiting 1.` })
    expect((await runCommand(t.db, ['subscriptions:renew', '--at', 'soon'], services)).code).toBe(2)
  })

  it('--license renews that license only: another subscription due at the same time keeps its state and its attempt', async () => {
    const one = await subscribed()
    const other = await subscribed()
    const services = { ctx: async () => t.app.ctx }
    const before = await subscriptionRow(other.license.id)
    const when = at(one.license.expire_date, MINUTE_MS).toISOString()
    const ran = await runCommand(t.db, ['subscriptions:renew', '--at', when, '--license', String(one.license.id)], services)
    expect(ran).toEqual({ code: 0, output: `Renewal run for license ${one.license.id} as at ${when}: awaiting 1.` })
    expect((await subscriptionRow(one.license.id)).state).toBe('awaiting_authentication')
    expect(await subscriptionRow(other.license.id)).toEqual(before)
    expect(await mailsTo(other.email)).not.toContainEqual(expect.objectContaining({ subject: expect.stringMatching(/renewal|payment/i) }))
    // refused, changing nothing: not an id, a license without a subscription, an unknown option, a stray word
    for (const argv of [['--license', 'abc'], ['--license'], ['--licence', String(other.license.id)], [String(other.license.id)]]) {
      expect((await runCommand(t.db, ['subscriptions:renew', ...argv], services)).code, argv.join(' ')).toBe(2)
    }
    expect(await runCommand(t.db, ['subscriptions:renew', '--license', '999999'], services)).toEqual({ code: 1, output: 'License 999999 has no subscription.' })
    expect(await subscriptionRow(other.license.id)).toEqual(before)
  })
})

describe('a renewal charge the provider cannot take (an outage)', () => {
  it('is asked again after 5 minutes, doubling, at most 6 hours apart, until the 48-hour limit fails it with a mail', async () => {
    const { client, email, license } = await subscribed({ card: '4242424242424242' })
    const real = t.app.ctx.payments
    let calls = 0
    const down: PaymentProvider = {
      name: 'sandbox',
      createCheckout: () => Promise.reject(new PaymentUnavailable('down')),
      charge: () => {
        calls++
        return Promise.reject(new PaymentUnavailable('503 from the provider'))
      },
    }
    t.app.ctx.payments = { ...real, byName: (n) => (n === 'sandbox' ? down : real.byName(n)) } satisfies PaymentProviders
    try {
      const due = new Date(license.expire_date!)
      t.clock.set(due)
      const gaps: number[] = []
      for (let round = 0; round < 40; round++) {
        const outcome = await renew()
        const row = await subscriptionRow(license.id)
        if (row.state !== 'active') break
        expect(outcome).toEqual({ unavailable: 1 })
        // minutes from the run (the test's clock ticks on from where it is set)
        gaps.push(Math.round((row.next_attempt_at!.getTime() - t.clock.now().getTime()) / MINUTE_MS))
        // a run before the next attempt asks nothing
        t.clock.set(at(row.next_attempt_at!, -MINUTE_MS))
        expect(await renew()).toEqual({})
        t.clock.set(row.next_attempt_at!)
      }
      expect(gaps.slice(0, 9)).toEqual([5, 10, 20, 40, 80, 160, 320, 360, 360])
      // every try but the last waited its back-off; the last one is at the limit, where the attempt fails
      const elapsed = gaps.reduce((a, b) => a + b, 0)
      expect(elapsed).toBe(OUTAGE_LIMIT_HOURS * 60)
      expect(calls).toBe(gaps.length + 1)
      expect(await subscriptionRow(license.id)).toMatchObject({ state: 'past_due', failed_attempts: 1, outage_retries: 0 })
      expect((await renewals(client.id)).map((r) => r.status)).toEqual([2])
      expect((await mailsTo(email)).find((m) => m.subject === 'Payment for Renewing failed')!.text).toContain('provider_unavailable')
    } finally {
      t.app.ctx.payments = real
    }
  })
})
