import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MONTH_SECONDS } from '@portal/domain'
import { DB_KIND, count, signedInClient, useTestApp, workerDatabaseUrl } from '../../test/harness.ts'
import { childProcessEnv, useProcesses } from '../../test/processes.ts'
import { HttpAgent, credit } from '../../test/money.ts'
import { balanceAndLedgerSum } from '../billing/queries.ts'
import { renewSubscription, runRenewals } from './renewal.ts'

/**
 * Renewals across real server processes on one PostgreSQL database: a renewal run started on two processes at once charges each due subscription once;
 * a cancel racing a renewal leaves one consistent outcome, never a charge on a cancelled subscription.
 * The second process is apps/server/src/test/renewal-child.ts, told over stdin when to run.
 */
const t = useTestApp()
const { startHere, startChild } = useProcesses()

beforeEach(async () => {
  // the sandbox delivers the card checkouts' webhooks to this listening app
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' })
})

const CHILD = fileURLToPath(new URL('../../test/renewal-child.ts', import.meta.url))
const children: ChildProcess[] = []
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL')
})

/** a renewal process: resolves when it is ready; `run()` starts one renewal run there and answers its counts */
async function renewalProcess(dataDir: string) {
  const proc = spawn(process.execPath, [CHILD], {
    env: childProcessEnv({ CHILD_DATABASE_URL: workerDatabaseUrl()!, CHILD_DATA_DIR: dataDir }),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  children.push(proc)
  let err = ''
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  const lines = createInterface({ input: proc.stdout! })[Symbol.asyncIterator]()
  const next = async () => {
    const { value, done } = await lines.next()
    if (done) throw new Error(`the renewal process exited: ${err}`)
    return JSON.parse(value as string) as { ready?: boolean; counts?: Record<string, number>; error?: string }
  }
  expect((await next()).ready).toBe(true)
  return {
    async run() {
      proc.stdin!.write('renew\n')
      const answer = await next()
      if (answer.error) throw new Error(answer.error)
      return answer.counts!
    },
  }
}

const PRO = (count: number) => ({ config: { product: 'nuitrack_online_subscription_monthly', license_expire_delta: MONTH_SECONDS }, count })
const RETURN = { success_url: '/app/nuitrack/license-purchase-success/', cancel_url: '/app/nuitrack/basket/' }

/** a client with `n` Pro monthly subscription licenses, paid from the balance or by the sandbox's 4242 card */
async function subscriber(n: number, source: 'balance' | 'stripe', funds = 0) {
  const c = await signedInClient(t)
  if (source === 'balance') await credit(t.db, c.client.id, n * 328 + funds)
  const res = await c.agent.post('/api/resource/subscribe/', { payment_source: source, items: [PRO(n)], ...RETURN })
  expect(res.statusCode, res.body).toBe(200)
  if (source === 'stripe') {
    expect(
      (await c.agent.post(`/api/sandbox/checkout/${res.json().payment.provider_data.session_id}/pay/`, { card_number: '4242424242424242' })).statusCode,
    ).toBe(200)
    await t.app.ctx.jobs.tick()
  }
  const group = ((await c.agent.get('/api/group/')).json().groups as { id: number; limit: number }[]).find((g) => g.limit > 0)!
  const ids: number[] = []
  for (let i = 0; i < n; i++) ids.push((await c.agent.post(`/api/group/${group.id}/new-license/`, { title: `L${i}` })).json().id)
  return { ...c, ids }
}

/** every subscription's period ends a minute ago (wall time: the other process's clock) */
async function allDue() {
  await t.db.query(`UPDATE licenses SET expire_date = date_trunc('second', now()) - interval '1 minute' WHERE id IN (SELECT license_id FROM subscriptions)`)
  await t.db.query(`UPDATE subscriptions s SET next_attempt_at = l.expire_date FROM licenses l WHERE l.id = s.license_id`)
}

const sum = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries([...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [k, (a[k] ?? 0) + (b[k] ?? 0)]))

describe.runIf(DB_KIND === 'postgres')('renewals on two portal processes on one PostgreSQL database', () => {
  it('a renewal run started on both processes at once charges each of 30 due subscriptions exactly once', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-renew-'))
    // 16 balance-paid (one client's balance pays only 5 of its 8) and 14 paid by saved sandbox cards
    const rich = await subscriber(8, 'balance')
    const short = await subscriber(8, 'balance')
    const cards = [await subscriber(7, 'stripe'), await subscriber(7, 'stripe')]
    expect(await count(t.db, 'subscriptions')).toBe(30)
    // rich keeps 8 periods' worth, short 5
    await credit(t.db, rich.client.id, 8 * 328)
    await credit(t.db, short.client.id, 5 * 328)
    await allDue()
    const before = await t.db.query<{ id: number; expire_date: Date }>('SELECT id, expire_date FROM licenses ORDER BY id')

    const [here, child] = await Promise.all([startHere(dataDir), renewalProcess(dataDir)])
    const started = Date.now()
    const [a, b] = await Promise.all([child.run(), runRenewals(here.app.ctx)])
    const ms = Date.now() - started
    console.info(`[conc] renewal runs on 2 processes at once in ${ms} ms: child`, a, 'here', b)
    expect(sum(a, b)).toMatchObject({ renewed: 27, failed: 3 })
    // nothing left for either: a third run does nothing
    expect(await runRenewals(here.app.ctx)).toEqual({})

    // exactly one charge per subscription's period
    const perSub = await t.db.query<{ subscription_id: number; n: number; ok: number }>(
      `SELECT subscription_id, count(*)::int AS n, count(*) FILTER (WHERE status = 0)::int AS ok FROM transactions WHERE kind = 'renewal' GROUP BY subscription_id`,
    )
    expect(perSub).toHaveLength(30)
    expect(perSub.every((r) => r.n === 1)).toBe(true)
    expect(perSub.reduce((s, r) => s + r.ok, 0)).toBe(27)
    // the sandbox charged each card subscription once, however many processes asked
    expect(await count(t.db, 'sandbox_charges')).toBe(14)
    expect(await count(t.db, `payment_events WHERE provider = 'sandbox' AND transaction_id IN (SELECT id FROM transactions WHERE kind = 'renewal')`)).toBe(14)
    // the balances: each renewal debited once, never below zero
    expect(await balanceAndLedgerSum(t.db, rich.client.id)).toEqual({ balance: 0, ledger: 0 })
    expect(await balanceAndLedgerSum(t.db, short.client.id)).toEqual({ balance: 5 * 328 - 5 * 328, ledger: 0 })
    expect(await count(t.db, 'ledger_entries WHERE balance_after_cents < 0')).toBe(0)
    // each renewed license extended by exactly one term from its old end
    const after = new Map((await t.db.query<{ id: number; expire_date: Date }>('SELECT id, expire_date FROM licenses')).map((r) => [r.id, r.expire_date]))
    const extended = before.filter((r) => after.get(r.id)!.getTime() - r.expire_date.getTime() === MONTH_SECONDS * 1000).length
    const unchanged = before.filter((r) => after.get(r.id)!.getTime() === r.expire_date.getTime()).length
    expect({ extended, unchanged }).toEqual({ extended: 27, unchanged: 3 })
    expect(await count(t.db, `subscriptions WHERE state = 'past_due' AND failed_attempts = 1`)).toBe(3)
    expect(cards).toHaveLength(2)
  })

  it(
    'cancel racing a renewal, 20 times on balance and card subscriptions: renewed-then-cancelled or cancelled, never a charge on a cancelled one',
    { timeout: 120_000 },
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'portal-renew-'))
      const bal = await subscriber(1, 'balance', 100_000)
      const card = await subscriber(1, 'stripe')
      const [here, child] = await Promise.all([startHere(dataDir), startChild(dataDir)])
      // each customer's browser on the child process
      const browsers = await Promise.all(
        [bal, card].map(async (c) => {
          const b = new HttpAgent(child.base)
          expect((await b.post('/api/client/signin/', { username: c.email, password: c.password })).status).toBe(200)
          return b
        }),
      )
      const subs = await t.db.query<{ id: number; license_id: number }>('SELECT id, license_id FROM subscriptions ORDER BY id')
      const outcomes: Record<string, number> = {}
      for (let round = 0; round < 20; round++) {
        const which = round % 2
        const sub = subs[which]!
        // a fresh due period, renewing, not cancelled
        await t.db.query(`UPDATE licenses SET expire_date = date_trunc('second', now()) - interval '1 minute' - make_interval(secs => $2::int) WHERE id = $1`, [
          sub.license_id,
          round,
        ])
        await t.db.query(
          `UPDATE subscriptions s SET state = 'active', cancel_at_period_end = false, failed_attempts = 0, next_attempt_at = l.expire_date
           FROM licenses l WHERE l.id = s.license_id AND s.id = $1`,
          [sub.id],
        )
        const [{ expire_date: end }] = (await t.db.query<{ expire_date: Date }>('SELECT expire_date FROM licenses WHERE id = $1', [sub.license_id])) as [
          { expire_date: Date },
        ]
        const [cancel, renewed] = await Promise.all([
          browsers[which]!.post(`/api/license/${sub.license_id}/cancel-subscription/`),
          renewSubscription(here.app.ctx, sub.id),
        ])
        expect(cancel.status).toBe(200)
        const key = `renewal:${sub.id}:${Math.floor(end.getTime() / 1000)}:0`
        const charges = await t.db.query<{ status: number }>('SELECT status FROM transactions WHERE charge_key = $1', [key])
        const [state] = await t.db.query<{ state: string; cancel_at_period_end: boolean; expire_date: Date }>(
          'SELECT s.state, s.cancel_at_period_end, l.expire_date FROM subscriptions s JOIN licenses l ON l.id = s.license_id WHERE s.id = $1',
          [sub.id],
        )
        // the cancel always holds
        expect(state!.cancel_at_period_end).toBe(true)
        if (charges.length > 0) {
          // renewed before the cancel: paid once, extended one term, cancelled at the new period's end
          expect(charges.map((c) => c.status)).toEqual([0])
          // a card charge can be settled first by the provider's webhook on the other process; this
          // run then finds it settled and says 'skipped' (what counts is below: paid once, one term)
          expect(['renewed', 'skipped']).toContain(renewed)
          expect(state!.state).toBe('active')
          expect(state!.expire_date.getTime() - end.getTime()).toBe(MONTH_SECONDS * 1000)
          outcomes['renewed, then cancelled at the new end'] = (outcomes['renewed, then cancelled at the new end'] ?? 0) + 1
        } else {
          // cancelled first: no charge, the period not extended; it ended (or ends at the next run)
          expect(['ended', 'skipped']).toContain(renewed)
          expect(state!.expire_date.getTime()).toBe(end.getTime())
          if (renewed === 'skipped') expect(await renewSubscription(here.app.ctx, sub.id)).toBe('ended')
          outcomes['cancelled, not charged'] = (outcomes['cancelled, not charged'] ?? 0) + 1
        }
      }
      console.info('[conc] 20 cancels racing renewals across 2 processes:', outcomes)
      // the balance moved exactly by the renewals that happened
      const okBalance = await count(t.db, `transactions WHERE kind = 'renewal' AND status = 0 AND client_id = $1`, [bal.client.id])
      expect((await balanceAndLedgerSum(t.db, bal.client.id)).balance).toBe(100_000 - okBalance * 328)
    },
  )
})
