import { createServer, type AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { describe, expect, it, vi } from 'vitest'
import { buildApp } from '../app.ts'
import { postgresDb, type Db } from '../db/db.ts'
import { DB_KIND, count, signedInClient, testConfig, useTestApp, workerDatabaseUrl } from '../test/harness.ts'
import { MAIL_KEEP_DAYS, RATE_LIMIT_KEEP_SECONDS, pruneAll } from './housekeeping.ts'
import { createJobQueue } from './jobs.ts'

const t = useTestApp()
const quiet = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() })
const jobRows = (name: string) =>
  t.db.query<{ id: number; status: string; attempts: number; last_error: string | null }>(
    `SELECT id, status, attempts, last_error FROM jobs WHERE name = $1 ORDER BY id`,
    [name],
  )

/** Two app instances on the worker's database, each with its own connections on PostgreSQL. */
async function twoApps(setup: (app: FastifyInstance) => void): Promise<{ apps: FastifyInstance[]; close: () => Promise<void> }> {
  const dbs: Db[] = DB_KIND === 'postgres' ? [postgresDb(workerDatabaseUrl()!, 4), postgresDb(workerDatabaseUrl()!, 4)] : [t.db, t.db]
  const apps: FastifyInstance[] = []
  for (const db of dbs) {
    const app = await buildApp({ config: testConfig(), db })
    setup(app)
    apps.push(app)
  }
  await Promise.all(apps.map((a) => a.ready()))
  return {
    apps,
    close: async () => {
      await Promise.all(apps.map((a) => a.close()))
      if (DB_KIND === 'postgres') await Promise.all(dbs.map((d) => d.close()))
    },
  }
}

describe('the job queue', () => {
  it('runs each job once across two app instances on one database', async () => {
    const runs: { id: number; by: string }[] = []
    const { apps, close } = await twoApps((app) => {
      app.ctx.jobs.register('test.once', async (job) => {
        runs.push({ id: job.id, by: app.ctx.jobs.workerId })
        await new Promise((r) => setTimeout(r, 5))
      })
    })
    try {
      await t.db.transaction(async (tx) => {
        for (let i = 0; i < 30; i++) await apps[0]!.ctx.jobs.enqueue(tx, 'test.once', { i })
      })
      await vi.waitFor(async () => expect(await count(t.db, `jobs WHERE name = 'test.once' AND status = 'done'`)).toBe(30), { timeout: 15_000, interval: 100 })
      expect(runs).toHaveLength(30)
      expect(new Set(runs.map((r) => r.id)).size).toBe(30)
    } finally {
      await close()
    }
  })

  it('a schedule shared by two app instances runs once per interval', async () => {
    let runs = 0
    const { close } = await twoApps((app) => {
      app.ctx.jobs.register('test.hourly', async () => {
        runs++
      })
      app.ctx.jobs.schedule('test.hourly', 3600)
    })
    try {
      await vi.waitFor(() => expect(runs).toBe(1), { timeout: 10_000, interval: 50 })
      // both keep polling for a while: neither enqueues the slot again
      await new Promise((r) => setTimeout(r, 2500))
      expect(runs).toBe(1)
      expect(await count(t.db, `job_schedules WHERE name = 'test.hourly' AND next_run_at > now() + interval '59 minutes'`)).toBe(1)
    } finally {
      await close()
    }
  })

  it('a failing job is logged and retried with back-off, and ends as failed after its last attempt', async () => {
    const log = quiet()
    const q = createJobQueue({ db: t.db, log })
    let calls = 0
    q.register('test.flaky', async () => {
      calls++
      if (calls < 3) throw new Error(`boom ${calls}`)
    })
    q.register('test.broken', async () => Promise.reject(new Error('always')), { maxAttempts: 2 })
    await t.db.transaction(async (tx) => {
      await q.enqueue(tx, 'test.flaky')
      await q.enqueue(tx, 'test.broken')
    })
    await q.tick()
    expect(await jobRows('test.flaky')).toMatchObject([{ status: 'pending', attempts: 1, last_error: 'boom 1' }])
    expect(log.warn).toHaveBeenCalled()
    // backing off: not due again at once
    expect(await q.tick()).toBe(0)
    expect(await count(t.db, `jobs WHERE name = 'test.flaky' AND run_at > now() + interval '5 seconds'`)).toBe(1)
    for (let i = 0; i < 2; i++) {
      await t.db.query(`UPDATE jobs SET run_at = now() WHERE status = 'pending' AND name LIKE 'test.%'`)
      await q.tick()
    }
    expect(await jobRows('test.flaky')).toMatchObject([{ status: 'done', attempts: 3, last_error: null }])
    expect(await jobRows('test.broken')).toMatchObject([{ status: 'failed', attempts: 2, last_error: 'always' }])
    expect(log.error).toHaveBeenCalled()
    await q.stop()
  })

  it('takes over a job whose process died once its lease has run out, not before', async () => {
    const q = createJobQueue({ db: t.db, log: quiet() })
    const ran: string[] = []
    q.register('test.lease', async (job) => {
      ran.push(String(job.payload.which))
    })
    await t.db.query(
      `INSERT INTO jobs (name, payload, attempts, locked_by, locked_until) VALUES
         ('test.lease', '{"which":"expired"}', 1, 'dead-process', now() - interval '1 second'),
         ('test.lease', '{"which":"held"}', 1, 'live-process', now() + interval '1 minute')`,
    )
    await q.tick()
    expect(ran).toEqual(['expired'])
    expect((await jobRows('test.lease')).map((r) => r.status)).toEqual(['done', 'pending'])
    await q.stop()
  })

  it('renews the lease of a job that runs longer than it, so no other process takes it over halfway', async () => {
    const a = createJobQueue({ db: t.db, log: quiet() })
    const b = createJobQueue({ db: t.db, log: quiet() })
    let runs = 0
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const long = async () => {
      runs++
      await held
    }
    a.register('test.long', long, { leaseSeconds: 1 })
    b.register('test.long', long, { leaseSeconds: 1 })
    await a.enqueue(t.db, 'test.long')
    const running = a.tick()
    await vi.waitFor(() => expect(runs).toBe(1), { timeout: 10_000, interval: 50 })
    const [claim] = await t.db.query<{ first_lease: Date }>(`SELECT locked_until AS first_lease FROM jobs WHERE name = 'test.long'`)
    // until well past the lease it was claimed with
    await vi.waitFor(
      async () => {
        const [row] = await t.db.query<{ past: boolean }>(`SELECT now() > $1::timestamptz + interval '1 second' AS past`, [claim!.first_lease])
        expect(row!.past).toBe(true)
      },
      { timeout: 15_000, interval: 200 },
    )
    expect(await count(t.db, `jobs WHERE name = 'test.long' AND locked_until > now() AND locked_by = $1`, [a.workerId])).toBe(1)
    expect(await b.tick()).toBe(0)
    release()
    expect(await running).toBe(1)
    expect(runs).toBe(1)
    expect((await jobRows('test.long')).map((r) => [r.status, r.attempts])).toEqual([['done', 1]])
    await Promise.all([a.stop(), b.stop()])
  })

  it('runs a cron schedule at its times, once across processes, and refuses an expression it cannot read', async () => {
    const a = createJobQueue({ db: t.db, log: quiet() })
    const b = createJobQueue({ db: t.db, log: quiet() })
    let runs = 0
    for (const q of [a, b]) {
      q.register('test.cron', async () => {
        runs++
      })
      q.schedule('test.cron', '0 3 * * *')
    }
    // a new cron schedule waits for its first time (unlike an interval's, which runs at once)
    await Promise.all([a.tick(), b.tick()])
    expect(runs).toBe(0)
    const [row] = await t.db.query<{ next: Date; cron: string; every: number | null }>(
      `SELECT next_run_at AS next, cron, every_seconds AS every FROM job_schedules WHERE name = 'test.cron'`,
    )
    expect(row!.cron).toBe('0 3 * * *')
    expect(row!.every).toBeNull()
    expect(new Date(row!.next).toISOString()).toMatch(/T03:00:00\.000Z$/)
    // its time comes: one run whichever processes look, and the next time is the next 03:00
    await t.db.query(`UPDATE job_schedules SET next_run_at = now() - interval '1 second' WHERE name = 'test.cron'`)
    await Promise.all([a.tick(), b.tick()])
    await Promise.all([a.tick(), b.tick()])
    expect(runs).toBe(1)
    const [after] = await t.db.query<{ next: Date }>(`SELECT next_run_at AS next FROM job_schedules WHERE name = 'test.cron'`)
    expect(new Date(after!.next).getTime()).toBeGreaterThan(Date.now())
    expect(new Date(after!.next).toISOString()).toMatch(/T03:00:00\.000Z$/)
    expect(() => a.schedule('test.bad', '61 * * * *')).toThrow()
    expect(() => a.schedule('test.bad', 'every day')).toThrow()
    await Promise.all([a.stop(), b.stop()])
  })

  it('keeps one waiting job per singleton key', async () => {
    const q = createJobQueue({ db: t.db, log: quiet() })
    q.register('test.single', async () => undefined)
    for (let i = 0; i < 3; i++) await q.enqueue(t.db, 'test.single', {}, { singletonKey: 'only-one' })
    expect(await count(t.db, `jobs WHERE name = 'test.single'`)).toBe(1)
    await q.tick()
    // once it ran, a new one may wait again
    await q.enqueue(t.db, 'test.single', {}, { singletonKey: 'only-one' })
    expect((await jobRows('test.single')).map((r) => r.status)).toEqual(['done', 'pending'])
    await q.stop()
  })

  it('with the database out of reach a round logs and answers, and never rejects', async () => {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    await new Promise<void>((resolve) => server.close(() => resolve()))
    const db = postgresDb(`postgres://postgres@127.0.0.1:${port}/none`)
    const log = quiet()
    const q = createJobQueue({ db, log, pollMs: 10 })
    q.register('test.any', async () => undefined)
    q.schedule('test.any', 60)
    expect(await q.tick()).toBe(0)
    q.start()
    await vi.waitFor(() => expect(log.warn.mock.calls.length).toBeGreaterThanOrEqual(3))
    await q.stop()
    await db.close()
    expect(log.warn.mock.calls[0]![1]).toBe('job queue round failed')
  })
})

describe('housekeeping', () => {
  it('prunes old rate counters, expired sessions, spent captchas, old delivered mail and finished jobs; keeps the rest', async () => {
    const { client } = await signedInClient(t)
    await t.db.query(`UPDATE sessions SET expires_at = now() + interval '1 day'`)
    await t.db.query(
      `INSERT INTO rate_limits (key, window_start, hits) VALUES ('old', now() - make_interval(secs => $1 + 60), 1), ('fresh', now() - interval '50 minutes', 1)`,
      [RATE_LIMIT_KEEP_SECONDS],
    )
    await t.db.query(`INSERT INTO sessions (id_hash, client_id, expires_at) VALUES ('expired', $1, now() - interval '1 minute')`, [client.id])
    await t.db.query(`INSERT INTO captcha_used (challenge, used_at) VALUES ('old', now() - interval '1 hour'), ('fresh', now() - interval '1 minute')`)
    const mail = (status: string, days: number, to: string) =>
      t.db.query(
        `INSERT INTO mail_outbox (to_address, subject, text_body, html_body, status, created_at) VALUES ($1, 's', 't', 'h', $2, now() - make_interval(days => $3))`,
        [to, status, days],
      )
    await t.db.query('DELETE FROM mail_outbox')
    await mail('sent', MAIL_KEEP_DAYS + 1, 'old-sent@example.com')
    await mail('dev', MAIL_KEEP_DAYS + 1, 'old-dev@example.com')
    await mail('dev', 2, 'fresh-dev@example.com')
    await mail('pending', MAIL_KEEP_DAYS + 5, 'waiting@example.com')
    await t.db.query(
      `INSERT INTO jobs (name, status, finished_at, created_at) VALUES ('x.old', 'done', now() - interval '8 days', now() - interval '8 days'),
         ('x.recent', 'done', now() - interval '1 hour', now()), ('x.waiting', 'pending', NULL, now() - interval '30 days')`,
    )

    const counts = await pruneAll(t.db)
    expect(counts).toMatchObject({ sessions: 1, captcha_used: 1, mail_outbox: 2, jobs: 1 })
    expect((await t.db.query<{ key: string }>(`SELECT key FROM rate_limits WHERE key IN ('old', 'fresh')`)).map((r) => r.key)).toEqual(['fresh'])
    expect(await count(t.db, 'sessions')).toBe(1)
    expect((await t.db.query<{ challenge: string }>('SELECT challenge FROM captcha_used')).map((r) => r.challenge)).toEqual(['fresh'])
    expect((await t.db.query<{ to_address: string }>('SELECT to_address FROM mail_outbox ORDER BY id')).map((r) => r.to_address)).toEqual([
      'fresh-dev@example.com',
      'waiting@example.com',
    ])
    expect((await t.db.query<{ name: string }>(`SELECT name FROM jobs WHERE name LIKE 'x.%' ORDER BY id`)).map((r) => r.name)).toEqual([
      'x.recent',
      'x.waiting',
    ])
  })

  it('runs on the queue: every app schedules it', async () => {
    const app = await buildApp({ config: testConfig(), db: t.db })
    await app.ready()
    try {
      await vi.waitFor(async () => expect(await count(t.db, `job_schedules WHERE name = 'housekeeping.prune'`)).toBe(1), { timeout: 5000 })
      const { client } = await signedInClient(t)
      await t.db.query(`INSERT INTO sessions (id_hash, client_id, expires_at) VALUES ('expired', $1, now() - interval '1 minute')`, [client.id])
      // due now: the running app's worker picks it up
      await t.db.query(`UPDATE job_schedules SET next_run_at = now() WHERE name = 'housekeeping.prune'`)
      await vi.waitFor(async () => expect(await count(t.db, `sessions WHERE id_hash = 'expired'`)).toBe(0), { timeout: 5000, interval: 100 })
    } finally {
      await app.close()
    }
  })
})
