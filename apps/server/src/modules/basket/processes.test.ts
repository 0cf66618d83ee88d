import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ERRORS, TRANSACTION_STATUS } from '@portal/domain'
import type { Db } from '../../db/db.ts'
import { DB_KIND, count, signedInClient, testConfig, useTestApp } from '../../test/harness.ts'
import { useProcesses } from '../../test/processes.ts'
import { HttpAgent, credit } from '../../test/money.ts'
import { balanceAndLedgerSum } from '../billing/queries.ts'
import { redeliverSandboxEvent, sandboxWebhooks, SANDBOX_DELIVER_JOB } from '../payments/sandbox.ts'
import { createPromo } from '../promo/service.ts'

/**
 * The purchase's guarantees across real server processes on one PostgreSQL database: a child portal process (apps/server/src/test/child-server.ts) beside
 * this one, sharing DATA_DIR (the sandbox's webhook secret), as two instances behind a load balancer.
 * One signed-in browser session is used on both: sessions live in the database.
 */
const t = useTestApp()
const { startChild, startHere } = useProcesses()

/** Both processes, and one customer signed in on the first whose session cookie the second accepts too. */
async function twoProcesses() {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-basket-'))
  const [here, { base: child }] = await Promise.all([startHere(dataDir), startChild(dataDir)])
  const { client, email, password } = await signedInClient(t)
  const browser = new HttpAgent(here.base)
  expect((await browser.post('/api/client/signin/', { username: email, password })).status).toBe(200)
  // the same cookies, sent to the child (fetch resolves an absolute URL against nothing)
  expect((await browser.get(`${child}/api/client/`)).status).toBe(200)
  return { dataDir, here, child, client, browser, bases: [here.base, child] as const }
}

const order = (items: unknown[], payment_source: string, promocode?: string) => ({
  payment_source,
  success_url: '/app/nuitrack/license-purchase-success/',
  cancel_url: '/app/nuitrack/basket/',
  items,
  ...(promocode ? { promocode } : {}),
})
const PRO_MONTHLY = { config: { product: 'nuitrack_online_subscription_monthly', license_expire_delta: 2_592_000 }, count: 1 }
const AI = { config: { product: 'nuitrack_ai_perpetual', os_type: 1 }, count: 1 }

/** The client's licenses in its groups: how many groups, and the available licenses in all of them. */
async function groupsOf(db: Db, clientId: number) {
  const [row] = await db.query<{ groups: string; available: string | null }>(
    'SELECT count(*) AS groups, sum(available) AS available FROM license_groups WHERE client_id = $1',
    [clientId],
  )
  return { groups: Number(row!.groups), available: Number(row!.available ?? 0) }
}

const used = async (code: string) =>
  Number((await t.db.query<{ n: number }>('SELECT activations_used AS n FROM promo_codes WHERE lower(code) = lower($1)', [code]))[0]!.n)

/** Answers' statuses and error codes, counted: `{ '200': 37, '409 851abab0': 63 }`. */
async function tally(answers: Response[]) {
  const out: Record<string, number> = {}
  const bodies = await Promise.all(answers.map(async (r) => ({ status: r.status, body: (await r.json()) as { error_code?: string } })))
  for (const { status, body } of bodies) {
    const key = status === 200 ? '200' : `${status} ${body.error_code ?? '(no code)'}`
    out[key] = (out[key] ?? 0) + 1
  }
  return { out, bodies }
}

describe.runIf(DB_KIND === 'postgres')('purchases on two portal processes on one PostgreSQL database', () => {
  it('100 parallel balance purchases over both processes never overspend', { timeout: 60_000 }, async () => {
    const { client, browser, bases } = await twoProcesses()
    // enough for 37 Pro monthly licenses at 3.28, and a dollar over
    const PRICE = 328
    await credit(t.db, client.id, 37 * PRICE + 100)
    const started = Date.now()
    // alternately to each process, and on each alternately as a purchase and as a subscription
    const path = (i: number) => `${bases[i % 2]}/api/resource/${i % 4 < 2 ? 'buy' : 'subscribe'}/`
    // a 503 (no pool connection in time, on a loaded machine) changed nothing: the client sends it again, as a browser's retry would
    const buy = async (i: number): Promise<Response> => {
      for (;;) {
        const res = await browser.post(path(i), order([PRO_MONTHLY], 'balance'))
        if (res.status !== 503) return res
        await res.body?.cancel()
      }
    }
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => buy(i)))
    const ms = Date.now() - started
    const { out, bodies } = await tally(answers)
    // each process sold some: the requests really were served by both
    const okOn = [0, 1].map((p) => bodies.filter((b, i) => i % 2 === p && b.status === 200).length)
    console.info(`[conc] 100 balance purchases on 2 processes in ${ms} ms:`, out, `successes here/child ${okOn.join('/')}`)
    expect(
      okOn.every((n) => n > 0),
      `successes per process ${okOn.join('/')}`,
    ).toBe(true)
    expect(out).toEqual({ '200': 37, [`409 ${ERRORS.insufficient_funds.code}`]: 63 })
    expect(ERRORS.insufficient_funds.code).toBe('851abab0')

    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 100, ledger: 100 })
    // never negative on the way: every entry's running balance stayed at or above zero
    expect(await count(t.db, 'ledger_entries WHERE client_id = $1 AND balance_after_cents < 0', [client.id])).toBe(0)
    expect(await count(t.db, 'ledger_entries WHERE client_id = $1 AND amount_cents = $2', [client.id, -PRICE])).toBe(37)
    expect(await count(t.db, "transactions WHERE kind = 'purchase' AND status = 0 AND invoice_number IS NOT NULL")).toBe(37)
    expect(await count(t.db, "transactions WHERE kind = 'purchase'")).toBe(37)
    // the successes' transactions are exactly the ledger's debits
    const okIds = bodies.filter((b) => b.status === 200).map((b) => (b.body as unknown as { transaction_id: number }).transaction_id)
    expect(new Set(okIds).size).toBe(37)
    expect(await count(t.db, 'ledger_entries WHERE transaction_id = ANY($1::bigint[])', [okIds])).toBe(37)
    // invoice numbers without a gap: the credit's, then the 37 purchases'
    const [inv] = await t.db.query<{ n: number; d: number; min: number; max: number }>(
      'SELECT count(*) AS n, count(DISTINCT invoice_number) AS d, min(invoice_number) AS min, max(invoice_number) AS max FROM transactions',
    )
    expect(Object.values(inv!).map(Number)).toEqual([38, 38, 1, 38])
    // one fulfilment per success, into the one default group
    expect(await groupsOf(t.db, client.id)).toEqual({ groups: 1, available: 37 })
    const groups = (await (await browser.get('/api/group/')).json()) as { groups: { limit: number }[] }
    expect(groups.groups.map((g) => g.limit)).toEqual([37])
    expect(await count(t.db, `jobs WHERE name = 'payments.receipt'`)).toBe(37)
  })

  it("a card purchase's webhook delivered 5 times in parallel to both processes fulfils once", { timeout: 60_000 }, async () => {
    const { dataDir, here, child, client, browser } = await twoProcesses()
    expect((await createPromo(t.db, { code: 'TWICE', discount: '10%', platforms: [], expires: null, maxActivations: 2 })).ok).toBe(true)
    const res = await browser.post('/api/resource/buy/', order([{ ...AI, count: 3 }], 'stripe', 'twice'))
    expect(res.status).toBe(200)
    const bought = (await res.json()) as { status: string; transaction_id: number; amount: number; payment: { provider_data: { session_id: string } } }
    expect(bought).toMatchObject({ status: 'pending', amount: 809.73 })
    const session = bought.payment.provider_data.session_id
    expect(session).toMatch(/^sbx_/)
    // the customer pays on the sandbox's checkout (on the child); neither process runs its job loop,
    // so the webhook waits for the deliveries below
    expect((await browser.post(`${child}/api/sandbox/checkout/${session}/pay/`, {})).status).toBe(200)
    expect(await groupsOf(t.db, client.id)).toEqual({ groups: 0, available: 0 })

    const config = testConfig({ DATA_DIR: dataDir })
    const to = (base: string) =>
      sandboxWebhooks({ ...config, PAYMENTS_SANDBOX_WEBHOOK_URL: `${base}/api/payments/webhook/sandbox/` }, here.app.ctx.secrets.sandboxWebhookSecret)
    const started = Date.now()
    // the stored event, signed afresh at each delivery, 3 times to the child and 2 times here, all at once
    const answers = await Promise.all([redeliverSandboxEvent(t.db, to(child), session, 3), redeliverSandboxEvent(t.db, to(here.base), session, 2)])
    const ms = Date.now() - started
    const statuses = answers.flatMap((a) => a.answers.map((x) => x.status))
    console.info(`[conc] 5 parallel webhook deliveries on 2 processes in ${ms} ms: statuses ${statuses.join(',')}`)
    expect(statuses).toEqual([200, 200, 200, 200, 200])

    const check = async () => {
      expect(await groupsOf(t.db, client.id)).toEqual({ groups: 1, available: 3 })
      expect(await count(t.db, 'payment_events')).toBe(1)
      const rows = await t.db.query<{ id: number; status: number; invoice_number: number | null }>(
        "SELECT id, status, invoice_number FROM transactions WHERE kind = 'purchase'",
      )
      expect(rows).toHaveLength(1)
      expect({ id: Number(rows[0]!.id), status: rows[0]!.status }).toEqual({ id: bought.transaction_id, status: TRANSACTION_STATUS.ok })
      expect(Number(rows[0]!.invoice_number)).toBe(1)
      expect(await count(t.db, 'transactions WHERE invoice_number IS NOT NULL')).toBe(1)
      // a card purchase does not touch the balance
      expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 0, ledger: 0 })
      expect(await count(t.db, 'ledger_entries')).toBe(0)
      expect(await used('TWICE')).toBe(1)
      expect(await count(t.db, 'promo_reservations WHERE confirmed_at IS NOT NULL AND released_at IS NULL')).toBe(1)
      expect(await count(t.db, 'promo_reservations')).toBe(1)
      expect(await count(t.db, `jobs WHERE name = 'payments.receipt'`)).toBe(1)
    }
    await check()

    // the queued delivery, and 5 more at once, later: nothing changes
    await here.app.ctx.jobs.tick()
    expect(await count(t.db, `jobs WHERE name = $1 AND status = 'done'`, [SANDBOX_DELIVER_JOB])).toBe(1)
    const again = await Promise.all([redeliverSandboxEvent(t.db, to(here.base), session, 3), redeliverSandboxEvent(t.db, to(child), session, 2)])
    expect(again.flatMap((a) => a.answers.map((x) => x.status))).toEqual([200, 200, 200, 200, 200])
    await check()
  })

  it(
    "one client's 30 parallel promo checkouts over both processes hold one activation; paid late, the code never passes its maximum",
    { timeout: 60_000 },
    async () => {
      const { dataDir, here, child, client, browser, bases } = await twoProcesses()
      expect((await createPromo(t.db, { code: 'FOUR', discount: '50%', platforms: [], expires: null, maxActivations: 5 })).ok).toBe(true)
      // one activation already spent elsewhere: 4 left
      await t.db.query("UPDATE promo_codes SET activations_used = 1 WHERE code = 'FOUR'")
      const started = Date.now()
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => browser.post(`${bases[i % 2]}/api/resource/buy/`, order([AI], 'stripe', 'FOUR'))))
      const ms = Date.now() - started
      const { out, bodies } = await tally(answers)
      console.info(`[conc] 30 parallel promo card purchases of one client on 2 processes in ${ms} ms:`, out)
      // each checkout replaced the one before it: all open, one activation held
      expect(out).toEqual({ '200': 30 })
      expect(await used('FOUR')).toBe(2)
      expect(await count(t.db, 'promo_reservations WHERE released_at IS NULL AND confirmed_at IS NULL')).toBe(1)
      expect(await count(t.db, 'transactions WHERE status = $1 AND amount_cents = $2', [TRANSACTION_STATUS.pending, 29_990 / 2])).toBe(30)

      // 6 of them paid after all, each webhook delivered to both processes at once: 6 fulfilments, and
      // the code counts them up to its maximum and no further
      const sessions = bodies
        .filter((b) => b.status === 200)
        .slice(0, 6)
        .map((b) => (b.body as unknown as { payment: { provider_data: { session_id: string } } }).payment.provider_data.session_id)
      for (const [i, s] of sessions.entries()) expect((await browser.post(`${bases[i % 2]}/api/sandbox/checkout/${s}/pay/`, {})).status).toBe(200)
      const config = testConfig({ DATA_DIR: dataDir })
      const to = (base: string) =>
        sandboxWebhooks({ ...config, PAYMENTS_SANDBOX_WEBHOOK_URL: `${base}/api/payments/webhook/sandbox/` }, here.app.ctx.secrets.sandboxWebhookSecret)
      const delivered = await Promise.all(
        sessions.flatMap((s) => [redeliverSandboxEvent(t.db, to(here.base), s, 2), redeliverSandboxEvent(t.db, to(child), s, 2)]),
      )
      expect(delivered.flatMap((d) => d.answers.map((a) => a.status))).toEqual(Array(24).fill(200))
      expect(await groupsOf(t.db, client.id)).toEqual({ groups: 1, available: 6 })
      expect(await count(t.db, 'transactions WHERE status = $1 AND invoice_number IS NOT NULL', [TRANSACTION_STATUS.ok])).toBe(6)
      expect(await count(t.db, 'payment_events')).toBe(6)
      expect(await used('FOUR')).toBe(5)
      expect(await count(t.db, 'promo_reservations WHERE confirmed_at IS NOT NULL')).toBe(6)
    },
  )
})
