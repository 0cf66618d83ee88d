import { describe, expect, it } from 'vitest'
import { ERRORS, MONTH_SECONDS, TRANSACTION_STATUS, UPGRADE_HOLD_MINUTES } from '@portal/domain'
import { runCommand } from '../../cli/commands.ts'
import { count, signedInClient, useTestApp, type Agent } from '../../test/harness.ts'
import { credit, moneyState } from '../../test/money.ts'
import { settle } from '../../test/transactions.ts'
import { expirePendingPayments } from '../payments/expiry.ts'

const t = useTestApp()

const FM_RETURN = { success_url: '/app/face-machine/license-purchase-success/', cancel_url: '/app/face-machine/dashboard/' }
const body = (payment_source: 'balance' | 'stripe' | 'paypal') => ({ payment_source, ...FM_RETURN })

async function trialOf(agent: Agent, product: 'fmc_subscribe' | 'na_subscribe') {
  const tag = product === 'fmc_subscribe' ? 'FMC Trial' : 'NA Trial'
  const res = await agent.post('/api/resource/create/', { count: 1, config: { product, tag } })
  expect(res.statusCode).toBe(200)
  return res.json().licenses[0] as { id: number; token: string; expire_date: string }
}

/** A Nuitrack Pro perpetual license (product `old`) generated from a granted default group. */
async function proLicense(c: { email: string; agent: Agent }, product = 'old') {
  expect((await runCommand(t.db, ['licenses:grant', c.email, product, '3', '--os-type', '1'])).code).toBe(0)
  const group = (await c.agent.get('/api/group/')).json().groups.find((g: { product: string }) => g.product === product)
  const lic = (await c.agent.post(`/api/group/${group.id}/new-license/`, {})).json()
  return { group, lic }
}

const addDevice = (licenseId: number, fingerprint: string) =>
  t.db.query("INSERT INTO devices (license_id, kind, fingerprint, serial, name) VALUES ($1, 'online', $2, 'S1', 'Desk')", [licenseId, fingerprint])

const code = (res: { json(): unknown }) => (res.json() as { error_code: string }).error_code

describe('POST /api/license/{id}/upgrade/ from the balance', () => {
  it('a Face Machine trial becomes the paid subscription in place: same id, key and devices, a month from now, a subscription, an invoice', async () => {
    const c = await signedInClient(t)
    const trial = await trialOf(c.agent, 'fmc_subscribe')
    await addDevice(trial.id, 'fp-1')
    await credit(t.db, c.client.id, 10_000)
    const res = await c.agent.post(`/api/license/${trial.id}/upgrade/`, body('balance'))
    expect(res.statusCode).toBe(200)
    const paid = res.json()
    expect(paid).toMatchObject({ status: 'paid', amount: 49, payment: null })
    expect(paid.order_id).toBe(paid.transaction_id)

    const view = (await c.agent.get(`/api/license/${trial.id}/`)).json()
    expect(view).toMatchObject({ id: trial.id, token: trial.token, is_trial: false, held_until: null, status: 0 })
    expect(view.config).toMatchObject({ product: 'fmc_subscribe', tag: 'FMC Trial', upgraded: true, plan_id: 3, license_expire_delta: MONTH_SECONDS })
    expect(view.activations.map((a: { fingerprint: string }) => a.fingerprint)).toEqual(['fp-1'])
    expect(view.subscription_status).toBe('active')
    const expires = new Date(view.expire_date).getTime() - t.clock.now().getTime()
    expect(Math.abs(expires - MONTH_SECONDS * 1000)).toBeLessThan(60_000)

    expect(await moneyState(t.db, c.client.id, paid.transaction_id)).toMatchObject({
      balance: 10_000 - 4900,
      ledger: 10_000 - 4900,
      status: 0,
      method: 'Balance',
    })
    expect((await moneyState(t.db, c.client.id, paid.transaction_id)).invoice).not.toBeNull()
    expect(await count(t.db, "transactions WHERE kind = 'upgrade' AND license_id = $1", [trial.id])).toBe(1)
    expect(await count(t.db, "subscriptions WHERE license_id = $1 AND payment_source = 'balance' AND state = 'active'", [trial.id])).toBe(1)
    expect(await count(t.db, "jobs WHERE name = 'payments.receipt'")).toBe(1)

    // upgraded once: the second call has nothing to upgrade, and takes nothing
    const again = await c.agent.post(`/api/license/${trial.id}/upgrade/`, body('balance'))
    expect(again.statusCode).toBe(400)
    expect(code(again)).toBe(ERRORS.action_unavailable.code)
    expect((await moneyState(t.db, c.client.id)).balance).toBe(10_000 - 4900)
  })

  it('a Nuitrack Analytics trial costs the tier-4 price (20 USD, the upgrade cost)', async () => {
    const c = await signedInClient(t)
    const trial = await trialOf(c.agent, 'na_subscribe')
    const cost = (await c.agent.get(`/api/nuitrack-analytics/${trial.id}/upgrade-cost/`)).json()
    expect(cost).toEqual({ amount: 20 })
    await credit(t.db, c.client.id, 2000)
    const res = await c.agent.post(`/api/license/${trial.id}/upgrade/`, body('balance'))
    expect(res.json()).toMatchObject({ status: 'paid', amount: cost.amount })
    expect((await moneyState(t.db, c.client.id)).balance).toBe(0)
    expect((await c.agent.get(`/api/license/${trial.id}/`)).json().config).toMatchObject({ product: 'na_subscribe', upgraded: true, plan_id: 4 })
  })

  it('Nuitrack Pro becomes AI perpetual in place, keeping its key, devices and activation; no expiry; no subscription', async () => {
    const c = await signedInClient(t)
    const { lic } = await proLicense(c)
    await addDevice(lic.id, 'fp-pro')
    await t.db.query('UPDATE licenses SET activation_date = now() WHERE id = $1', [lic.id])
    expect((await c.agent.get(`/api/license/${lic.id}/`)).json().upgradeable).toEqual({ toAI: 'self' })
    await credit(t.db, c.client.id, 9990)
    const res = await c.agent.post(`/api/license/${lic.id}/upgrade/`, body('balance'))
    expect(res.json()).toMatchObject({ status: 'paid', amount: 99.9 })
    const view = (await c.agent.get(`/api/license/${lic.id}/`)).json()
    expect(view).toMatchObject({ id: lic.id, token: lic.token, type: 'nuitrack', expire_date: null, upgradeable: { toAI: null }, license_status: 'active' })
    expect(view.config).toMatchObject({ product: 'nuitrack_ai_perpetual', os_type: 1, max_reactivation_count: 10 })
    expect(view.activations).toHaveLength(1)
    expect(await count(t.db, 'subscriptions')).toBe(0)
  })

  it('insufficient funds: nothing is taken or changed', async () => {
    const c = await signedInClient(t)
    const trial = await trialOf(c.agent, 'fmc_subscribe')
    await credit(t.db, c.client.id, 4899)
    const res = await c.agent.post(`/api/license/${trial.id}/upgrade/`, body('balance'))
    expect(res.statusCode).toBe(409)
    expect(code(res)).toBe(ERRORS.insufficient_funds.code)
    expect(await moneyState(t.db, c.client.id)).toMatchObject({ balance: 4899, ledger: 4899 })
    expect(await count(t.db, "transactions WHERE kind = 'upgrade'")).toBe(0)
    expect((await c.agent.get(`/api/license/${trial.id}/`)).json()).toMatchObject({ is_trial: true, expire_date: trial.expire_date })
  })
})

describe('refusals', () => {
  it("another client's license, a bad id: not found; a license without an upgrade: action_unavailable; a staff group's Pro: upgrade_by_support", async () => {
    const a = await signedInClient(t)
    const b = await signedInClient(t)
    const trial = await trialOf(a.agent, 'fmc_subscribe')
    for (const url of [`/api/license/${trial.id}/upgrade/`, '/api/license/abc/upgrade/', '/api/license/999999/upgrade/']) {
      const res = await b.agent.post(url, body('stripe'))
      expect(res.statusCode).toBe(404)
      expect(code(res)).toBe('63f560db')
    }
    const { lic: sub } = await proLicense(a, 'nuitrack_subscribe')
    const none = await a.agent.post(`/api/license/${sub.id}/upgrade/`, body('stripe'))
    expect(none.statusCode).toBe(400)
    expect(code(none)).toBe(ERRORS.action_unavailable.code)

    // a Pro license from a staff order's own group (not default, no source): its price is custom
    const { group, lic } = await proLicense(a)
    await t.db.query('UPDATE license_groups SET is_default = false WHERE id = $1', [group.id])
    expect((await a.agent.get(`/api/license/${lic.id}/`)).json().upgradeable).toEqual({ toAI: 'bySupport' })
    const support = await a.agent.post(`/api/license/${lic.id}/upgrade/`, body('stripe'))
    expect(support.statusCode).toBe(400)
    expect(code(support)).toBe(ERRORS.upgrade_by_support.code)
    expect(await count(t.db, 'transactions')).toBe(0)
  })

  it('a bad return path is a field error', async () => {
    const c = await signedInClient(t)
    const trial = await trialOf(c.agent, 'fmc_subscribe')
    const res = await c.agent.post(`/api/license/${trial.id}/upgrade/`, { payment_source: 'stripe', success_url: 'https://evil.example/', cancel_url: '/app/' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ field: 'success_url' })
  })
})

describe('card and PayPal upgrades: the checkout and its hold', () => {
  it('opens a subscription-mode checkout for the price and holds the license for the hold window; a second upgrade is refused', async () => {
    const c = await signedInClient(t)
    const trial = await trialOf(c.agent, 'fmc_subscribe')
    const res = await c.agent.post(`/api/license/${trial.id}/upgrade/`, body('stripe'))
    expect(res.statusCode).toBe(200)
    const opened = res.json()
    expect(opened).toMatchObject({
      status: 'pending',
      amount: 49,
      payment: { provider: 'sandbox', provider_data: { session_id: expect.stringMatching(/^sbx_/) } },
    })
    const [session] = await t.db.query<{ mode: string; amount_cents: number }>('SELECT mode, amount_cents FROM sandbox_sessions')
    expect(session).toMatchObject({ mode: 'subscription', amount_cents: 4900 })

    const view = (await c.agent.get(`/api/license/${trial.id}/`)).json()
    expect(view).toMatchObject({ status: 2, license_status: 'holded', state: 'holded' })
    const holdMs = new Date(view.held_until).getTime() - t.clock.now().getTime()
    expect(holdMs).toBeGreaterThan((UPGRADE_HOLD_MINUTES - 1) * 60_000)
    expect(holdMs).toBeLessThanOrEqual(UPGRADE_HOLD_MINUTES * 60_000)
    // the checkout expires when the hold ends
    const [tr] = await t.db.query<{ expires_at: Date; license_id: string }>('SELECT expires_at, license_id FROM transactions WHERE id = $1', [
      opened.transaction_id,
    ])
    expect(new Date(tr!.expires_at).toISOString()).toBe(view.held_until)
    expect(Number(tr!.license_id)).toBe(trial.id)

    for (const source of ['stripe', 'paypal', 'balance'] as const) {
      const again = await c.agent.post(`/api/license/${trial.id}/upgrade/`, body(source))
      expect(again.statusCode).toBe(409)
      expect(code(again)).toBe(ERRORS.license_on_hold.code)
    }
    expect(await count(t.db, 'transactions')).toBe(1)
  })

  it('paid: upgraded in place, the hold ends, the subscription starts with the card', async () => {
    const c = await signedInClient(t)
    const trial = await trialOf(c.agent, 'fmc_subscribe')
    await addDevice(trial.id, 'fp-card')
    const opened = (await c.agent.post(`/api/license/${trial.id}/upgrade/`, body('stripe'))).json()
    t.clock.advance(10 * 60)
    expect((await settle(t.app.ctx, opened.payment.provider_data.session_id, 'paid', { paymentMethod: 'Visa •••• 4242' })).applied).toBe(true)
    const view = (await c.agent.get(`/api/license/${trial.id}/`)).json()
    expect(view).toMatchObject({ id: trial.id, token: trial.token, status: 0, held_until: null, is_trial: false, subscription_status: 'active' })
    expect(view.activations).toHaveLength(1)
    // the paid term runs from the payment (the moved clock)
    const expires = new Date(view.expire_date).getTime() - t.clock.now().getTime()
    expect(Math.abs(expires - MONTH_SECONDS * 1000)).toBeLessThan(60_000)
    expect(await count(t.db, "subscriptions WHERE license_id = $1 AND payment_source = 'stripe'", [trial.id])).toBe(1)
    expect(await moneyState(t.db, c.client.id, opened.transaction_id)).toMatchObject({ balance: 0, status: 0, method: 'Visa •••• 4242' })
  })

  it('Pro → AI by card is a one-off payment of the upgrade price', async () => {
    const c = await signedInClient(t)
    const { lic } = await proLicense(c)
    const opened = (await c.agent.post(`/api/license/${lic.id}/upgrade/`, body('paypal'))).json()
    expect(opened).toMatchObject({ status: 'pending', amount: 99.9 })
    expect((await t.db.query<{ mode: string; source: string }>('SELECT mode, source FROM sandbox_sessions'))[0]).toEqual({ mode: 'payment', source: 'paypal' })
    await settle(t.app.ctx, opened.payment.provider_data.session_id, 'paid')
    expect((await c.agent.get(`/api/license/${lic.id}/`)).json().config.product).toBe('nuitrack_ai_perpetual')
  })

  it('declined: the hold ends at once and nothing is upgraded', async () => {
    const c = await signedInClient(t)
    const trial = await trialOf(c.agent, 'fmc_subscribe')
    const opened = (await c.agent.post(`/api/license/${trial.id}/upgrade/`, body('stripe'))).json()
    await settle(t.app.ctx, opened.payment.provider_data.session_id, 'declined')
    expect((await c.agent.get(`/api/license/${trial.id}/`)).json()).toMatchObject({ status: 0, held_until: null, is_trial: true })
    expect((await c.agent.post(`/api/license/${trial.id}/`, { title: 'free again' })).statusCode).toBe(200)
  })

  it('the hold ends by itself: derived from held_until when the window passes, and the expiry job closes the payment and clears it', async () => {
    const c = await signedInClient(t)
    const trial = await trialOf(c.agent, 'fmc_subscribe')
    const opened = (await c.agent.post(`/api/license/${trial.id}/upgrade/`, body('stripe'))).json()
    t.clock.advance((UPGRADE_HOLD_MINUTES - 1) * 60)
    expect((await c.agent.get(`/api/license/${trial.id}/`)).json().status).toBe(2)
    expect(await expirePendingPayments(t.app.ctx)).toBe(0)
    t.clock.advance(2 * 60)
    // before any job ran: no longer on hold, every action works again
    expect((await c.agent.get(`/api/license/${trial.id}/`)).json()).toMatchObject({ status: 0, license_status: 'new' })
    expect((await c.agent.post(`/api/license/${trial.id}/`, { title: 'after the hold' })).statusCode).toBe(200)
    // the job expires the checkout and clears the stored hold
    expect(await expirePendingPayments(t.app.ctx)).toBe(1)
    expect(await moneyState(t.db, c.client.id, opened.transaction_id)).toMatchObject({ status: TRANSACTION_STATUS.expired })
    expect((await c.agent.get(`/api/license/${trial.id}/`)).json().held_until).toBeNull()
    expect(await count(t.db, "sandbox_sessions WHERE status = 'expired'")).toBe(1)
    // a new upgrade can be opened
    expect((await c.agent.post(`/api/license/${trial.id}/upgrade/`, body('stripe'))).json().status).toBe('pending')
  })

  it("an old checkout closing never ends a newer checkout's hold", async () => {
    const c = await signedInClient(t)
    const trial = await trialOf(c.agent, 'fmc_subscribe')
    const first = (await c.agent.post(`/api/license/${trial.id}/upgrade/`, body('stripe'))).json()
    t.clock.advance((UPGRADE_HOLD_MINUTES + 1) * 60)
    const second = (await c.agent.post(`/api/license/${trial.id}/upgrade/`, body('stripe'))).json()
    expect(second.status).toBe('pending')
    // the first checkout's cancel arrives late
    await settle(t.app.ctx, first.payment.provider_data.session_id, 'declined')
    expect((await c.agent.get(`/api/license/${trial.id}/`)).json().status).toBe(2)
    // and a late payment of the first still upgrades (the customer paid); the second then has nothing to buy and is credited
    await settle(t.app.ctx, second.payment.provider_data.session_id, 'paid')
    expect((await c.agent.get(`/api/license/${trial.id}/`)).json()).toMatchObject({ is_trial: false, held_until: null })
  })

  it('a payment that arrives after its checkout expired still upgrades; one the license can no longer take is credited to the balance', async () => {
    const c = await signedInClient(t)
    const trial = await trialOf(c.agent, 'fmc_subscribe')
    const opened = (await c.agent.post(`/api/license/${trial.id}/upgrade/`, body('stripe'))).json()
    t.clock.advance((UPGRADE_HOLD_MINUTES + 1) * 60)
    await expirePendingPayments(t.app.ctx)
    await credit(t.db, c.client.id, 4900)
    // meanwhile the customer upgraded from the balance
    expect((await c.agent.post(`/api/license/${trial.id}/upgrade/`, body('balance'))).json().status).toBe('paid')
    // then the card payment completes anyway: the money comes back on the balance
    expect((await settle(t.app.ctx, opened.payment.provider_data.session_id, 'paid')).status).toBe('ok')
    expect(await moneyState(t.db, c.client.id)).toMatchObject({ balance: 4900, ledger: 4900 })
    expect(await count(t.db, 'subscriptions WHERE license_id = $1', [trial.id])).toBe(1)
  })

  it('20 parallel upgrade requests open one payment and one hold', async () => {
    const c = await signedInClient(t)
    const trial = await trialOf(c.agent, 'fmc_subscribe')
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => c.agent.post(`/api/license/${trial.id}/upgrade/`, body(i % 2 ? 'stripe' : 'paypal'))),
    )
    const tally: Record<string, number> = {}
    for (const a of answers) {
      const key = a.statusCode === 200 ? '200' : `${a.statusCode} ${code(a)}`
      tally[key] = (tally[key] ?? 0) + 1
    }
    expect(tally).toEqual({ '200': 1, [`409 ${ERRORS.license_on_hold.code}`]: 19 })
    expect(await count(t.db, 'transactions')).toBe(1)
    expect(await count(t.db, 'sandbox_sessions')).toBe(1)
    expect(await count(t.db, 'licenses WHERE held_until IS NOT NULL')).toBe(1)
  })
})
