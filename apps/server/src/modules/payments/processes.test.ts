import type { ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import type { FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import { runCommand } from '../../cli/commands.ts'
import { DB_KIND, count, signedInClient, testConfig, useTestApp, workerDatabaseUrl } from '../../test/harness.ts'
import { useProcesses } from '../../test/processes.ts'
import { HttpAgent, TOP_UP, moneyState } from '../../test/money.ts'
import { SANDBOX_DELIVER_JOB, isSandboxProvider, redeliverSandboxEvent, sandboxWebhooks } from './sandbox.ts'
import { reconcilePayments } from './reconcile.ts'

/**
 * The money's guarantees across real server processes on one PostgreSQL database: a child portal
 * process (apps/server/src/test/child-server.ts) beside this one, sharing DATA_DIR (and so the
 * sandbox's webhook secret), the way two instances behind a load balancer would.
 */
const t = useTestApp()
const { startChild, startHere } = useProcesses()

const sandboxOf = (app: FastifyInstance) => {
  const p = app.ctx.payments.byName('sandbox')!
  if (!isSandboxProvider(p)) throw new Error('no sandbox')
  return p
}

/** A customer signed in on `base` who started a top-up there. */
async function topUp(base: string, amount: number) {
  const { client, email, password } = await signedInClient(t)
  const browser = new HttpAgent(base)
  expect((await browser.post('/api/client/signin/', { username: email, password })).status).toBe(200)
  const body = (await (await browser.post('/api/balance/refill/', { ...TOP_UP, amount })).json()) as {
    payment: { provider_data: { session_id: string } }
    transaction_id: number
  }
  return { client, browser, session: body.payment.provider_data.session_id, transactionId: body.transaction_id }
}

function killed(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve()
    proc.once('exit', () => resolve())
    proc.kill('SIGKILL')
  })
}

describe.runIf(DB_KIND === 'postgres')('two portal processes on one PostgreSQL database', () => {
  it('both receiving the same webhook in parallel credit it once', { timeout: 90_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-money-'))
    const here = await startHere(dataDir)
    const child = await startChild(dataDir, false)
    const { client, browser, session, transactionId } = await topUp(here.base, 120)
    expect((await browser.post(`/api/sandbox/checkout/${session}/pay/`, {})).status).toBe(200)

    // the same signed event, 5 times to each process, all at once
    const config = testConfig({ DATA_DIR: dataDir })
    const toChild = sandboxWebhooks(
      { ...config, PAYMENTS_SANDBOX_WEBHOOK_URL: `${child.base}/api/payments/webhook/sandbox/` },
      here.app.ctx.secrets.sandboxWebhookSecret,
    )
    const toHere = sandboxWebhooks(
      { ...config, PAYMENTS_SANDBOX_WEBHOOK_URL: `${here.base}/api/payments/webhook/sandbox/` },
      here.app.ctx.secrets.sandboxWebhookSecret,
    )
    const answers = await Promise.all([redeliverSandboxEvent(t.db, toChild, session, 5), redeliverSandboxEvent(t.db, toHere, session, 5)])
    expect(answers.flatMap((a) => a.answers.map((x) => x.status))).toEqual(Array(10).fill(200))
    expect(await moneyState(t.db, client.id, transactionId)).toMatchObject({ balance: 12000, ledger: 12000, status: 0, invoice: 1 })
    expect(await count(t.db, 'ledger_entries')).toBe(1)
    expect(await count(t.db, 'payment_events')).toBe(1)

    // and again later, with the queued delivery as well
    await here.app.ctx.jobs.tick()
    const again = await Promise.all([redeliverSandboxEvent(t.db, toChild, session, 5), redeliverSandboxEvent(t.db, toHere, session, 5)])
    expect(again.flatMap((a) => a.answers.map((x) => x.status))).toEqual(Array(10).fill(200))
    expect(await moneyState(t.db, client.id, transactionId)).toMatchObject({ balance: 12000, ledger: 12000, status: 0, invoice: 1 })
    expect(await count(t.db, `jobs WHERE name = $1 AND status = 'done'`, [SANDBOX_DELIVER_JOB])).toBe(1)
  })

  it('kill -9 after the provider confirmed and before the webhook ran: the next process delivers and credits once', { timeout: 90_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-money-'))
    // the child takes the payment (its job loop off: it dies before its queue gets to the delivery)
    const child = await startChild(dataDir, false)
    const { client, browser, session, transactionId } = await topUp(child.base, 80)
    expect((await browser.post(`/api/sandbox/checkout/${session}/pay/`, {})).status).toBe(200)
    await killed(child.proc)
    expect(await moneyState(t.db, client.id, transactionId)).toMatchObject({ balance: 0, status: 1 })
    expect(await count(t.db, `jobs WHERE name = $1 AND status = 'pending'`, [SANDBOX_DELIVER_JOB])).toBe(1)

    // a fresh process: its queue delivers the webhook to itself and the credit happens, once
    const here = await startHere(dataDir)
    await here.app.ctx.jobs.tick()
    expect(await count(t.db, `jobs WHERE name = $1 AND status = 'done'`, [SANDBOX_DELIVER_JOB])).toBe(1)
    expect(await moneyState(t.db, client.id, transactionId)).toMatchObject({ balance: 8000, ledger: 8000, status: 0, invoice: 1 })
    const cli = await runCommand(here.db, ['payments:redeliver', session, '--times', '5'], { sandboxWebhooks: () => sandboxOf(here.app).webhooks })
    expect(cli.code, cli.output).toBe(0)
    expect(await moneyState(t.db, client.id, transactionId)).toMatchObject({ balance: 8000, ledger: 8000, status: 0, invoice: 1 })
  })

  it('kill -9 in the middle of the credit: nothing of it stays, and the next delivery credits exactly once', { timeout: 90_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-money-'))
    const child = await startChild(dataDir, true)
    const { client, browser, session, transactionId } = await topUp(child.base, 60)

    // hold the invoice counter: the child's credit stops inside its database transaction, after it
    // has locked the transaction and recorded the event, before it numbers the invoice and credits
    const holder = new pg.Client({ connectionString: workerDatabaseUrl()! })
    let waiting: number[] = []
    await holder.connect()
    try {
      // (the tests empty every table between them: the counter's row first)
      await holder.query('INSERT INTO invoice_counter (id, last) VALUES (true, 0) ON CONFLICT (id) DO NOTHING')
      await holder.query('BEGIN')
      await holder.query('SELECT last FROM invoice_counter FOR UPDATE')
      expect((await browser.post(`/api/sandbox/checkout/${session}/pay/`, {})).status).toBe(200)
      // the child's job delivers to the child, whose credit now waits on the counter
      const blocked = async () =>
        (await holder.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))')).rows.map((r) => r.pid)
      const started = Date.now()
      while ((waiting = await blocked()).length === 0) {
        expect(Date.now() - started, 'the child never reached the credit').toBeLessThan(30_000)
        await new Promise((r) => setTimeout(r, 50))
      }
      await killed(child.proc)
    } finally {
      await holder.query('COMMIT')
      await holder.end()
    }
    // the dead process's transaction rolls back once its backend notices: nothing of the credit stays
    const started = Date.now()
    while ((await count(t.db, 'pg_stat_activity WHERE pid = ANY($1)', [waiting])) > 0) {
      expect(Date.now() - started).toBeLessThan(10_000)
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(await moneyState(t.db, client.id, transactionId)).toMatchObject({ balance: 0, ledger: 0, status: 1, invoice: null })
    expect(await count(t.db, 'payment_events')).toBe(0)

    // the operator's redelivery (5 at once) from a fresh process credits exactly once
    const here = await startHere(dataDir)
    const cli = await runCommand(here.db, ['payments:redeliver', session, '--times', '5'], { sandboxWebhooks: () => sandboxOf(here.app).webhooks })
    expect(cli.code, cli.output).toBe(0)
    expect(await moneyState(t.db, client.id, transactionId)).toMatchObject({ balance: 6000, ledger: 6000, status: 0, invoice: 1 })
    // the dead process's delivery job, taken over once its lease runs out, changes nothing more
    await t.db.query(`UPDATE jobs SET locked_until = now() - interval '1 second' WHERE name = $1 AND status = 'pending'`, [SANDBOX_DELIVER_JOB])
    await here.app.ctx.jobs.tick()
    expect(await count(t.db, `jobs WHERE name = $1 AND status = 'done'`, [SANDBOX_DELIVER_JOB])).toBe(1)
    expect(await moneyState(t.db, client.id, transactionId)).toMatchObject({ balance: 6000, ledger: 6000, status: 0, invoice: 1 })
    expect(await count(t.db, 'ledger_entries')).toBe(1)
  })

  it('a reconcile here and the webhook there, racing for one settled capture, credit it once', { timeout: 90_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-money-'))
    const here = await startHere(dataDir)
    const child = await startChild(dataDir, false)
    const { client, browser, session, transactionId } = await topUp(here.base, 90)
    expect((await browser.post(`/api/sandbox/checkout/${session}/pay/`, { outcome: 'pending' })).status).toBe(200)
    const settled = await runCommand(here.db, ['sandbox:settle', session, '--outcome', 'paid'], {
      sandboxWebhooks: () => sandboxOf(here.app).webhooks,
      ctx: () => Promise.resolve(here.app.ctx),
    })
    expect(settled.code, settled.output).toBe(0)

    // this process reconciles (3 at once) while the provider's webhook reaches the other (5 at once)
    const config = testConfig({ DATA_DIR: dataDir })
    const toChild = sandboxWebhooks(
      { ...config, PAYMENTS_SANDBOX_WEBHOOK_URL: `${child.base}/api/payments/webhook/sandbox/` },
      here.app.ctx.secrets.sandboxWebhookSecret,
    )
    const [reports, delivered] = await Promise.all([
      Promise.all([reconcilePayments(here.app.ctx), reconcilePayments(here.app.ctx), reconcilePayments(here.app.ctx)]),
      redeliverSandboxEvent(t.db, toChild, session, 5),
    ])
    expect(delivered.answers.map((a) => a.status)).toEqual(Array(5).fill(200))
    expect(reports.reduce((n, r) => n + r.paid, 0)).toBeLessThanOrEqual(1)
    expect(await moneyState(t.db, client.id, transactionId)).toMatchObject({ balance: 9000, ledger: 9000, status: 0, invoice: 1 })
    expect(await count(t.db, 'ledger_entries')).toBe(1)
    expect(await count(t.db, 'payment_events')).toBe(1)
  })
})
