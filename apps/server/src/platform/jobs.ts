import { randomUUID } from 'node:crypto'
import { Cron } from 'croner'
import type { Db, Queryable } from '../db/db.ts'
import type { DbFigure } from './metrics.ts'
import {
  claimJobs,
  enqueueDueCronSchedules,
  enqueueDueSchedules,
  failedJobFigures,
  insertJob,
  jobQueueFigures,
  markJobDone,
  markJobFailed,
  outboxFigures,
  renewJobLease,
} from './queries.ts'

/**
 * The job queue: background and scheduled work kept in the database (`jobs`, `job_schedules`), so
 * every server process on one database shares it and a job runs once, whichever process takes it.
 * Jobs are claimed under a lease (`locked_until`), skipping rows another process holds, and a running
 * job's lease is renewed while it works: a job whose process died is taken over once its lease runs
 * out, and a long one is never taken over halfway. A failure is logged and retried with back-off until
 * `max_attempts`. Handlers must be idempotent: a run that outlives its lease may run twice.
 * The poll loop never throws; nothing here can end the process.
 */
export interface JobHandlerOptions {
  /** how long a run may take before another process may take the job over */
  leaseSeconds?: number
  maxAttempts?: number
}

export interface Job {
  id: number
  name: string
  payload: Record<string, unknown>
  attempts: number
}

export type JobHandler = (job: Job) => Promise<void>

export interface JobQueue {
  register(name: string, handler: JobHandler, opts?: JobHandlerOptions): void
  /**
   * runs `name` once across all processes: every `when` seconds (the first run is due at once), or at
   * the times of a cron expression `when`, read in UTC (`'0 3 * * *'`: daily at 03:00)
   */
  schedule(name: string, when: number | string): void
  /** adds a job in the caller's transaction; with a singleton key, only while none with it waits */
  enqueue(tx: Queryable, name: string, payload?: Record<string, unknown>, opts?: { singletonKey?: string; runAt?: Date }): Promise<void>
  /** one round: enqueue due schedules, then run what is due; answers how many jobs ran. Never rejects. */
  tick(): Promise<number>
  start(): void
  stop(): Promise<void>
  readonly workerId: string
}

interface Logger {
  info(obj: object, msg: string): void
  warn(obj: object, msg: string): void
  error(obj: object, msg: string): void
}

const DEFAULT_LEASE_SECONDS = 120
const DEFAULT_MAX_ATTEMPTS = 10

/** 10 s, 20 s, 40 s … up to an hour between tries */
export const retryDelaySeconds = (attempts: number) => Math.min(3600, 10 * 2 ** Math.max(0, attempts - 1))

export function createJobQueue(opts: { db: Db; log: Logger; pollMs?: number; batch?: number }): JobQueue {
  const { db, log } = opts
  const handlers = new Map<string, { run: JobHandler; leaseSeconds: number; maxAttempts: number }>()
  const schedules = new Map<string, number>()
  const cronSchedules = new Map<string, Cron>()
  const workerId = `${process.pid}-${randomUUID().slice(0, 8)}`
  let timer: NodeJS.Timeout | null = null
  let running: Promise<number> | null = null
  let stopped = false

  async function enqueueSchedules() {
    if (schedules.size > 0) await enqueueDueSchedules(db, [...schedules.keys()], [...schedules.values()])
    if (cronSchedules.size > 0) {
      const names = [...cronSchedules.keys()]
      const crons = names.map((n) => cronSchedules.get(n)!)
      await enqueueDueCronSchedules(
        db,
        names,
        crons.map((c) => c.getPattern()!),
        crons.map((c) => c.nextRun()!),
      )
    }
  }

  async function claim(): Promise<(Job & { max_attempts: number })[]> {
    if (handlers.size === 0) return []
    const names = [...handlers.keys()]
    const leases = names.map((n) => handlers.get(n)!.leaseSeconds)
    return claimJobs(db, names, leases, workerId, opts.batch ?? 10)
  }

  async function runOne(job: Job & { max_attempts: number }) {
    const handler = handlers.get(job.name)!
    // a third of the lease apart, so a renewal that fails once still leaves time for the next
    const renewal = setInterval(
      () => {
        renewJobLease(db, job.id, workerId, handler.leaseSeconds).catch((err: unknown) => log.warn({ err, jobId: job.id }, 'job lease not renewed'))
      },
      (handler.leaseSeconds * 1000) / 3,
    )
    renewal.unref()
    try {
      await handler.run({ id: job.id, name: job.name, payload: job.payload, attempts: job.attempts })
      await markJobDone(db, job.id, workerId)
    } catch (err) {
      const final = job.attempts >= job.max_attempts
      log[final ? 'error' : 'warn']({ err, job: job.name, jobId: job.id, attempts: job.attempts }, final ? 'job failed for good' : 'job failed, will retry')
      await markJobFailed(db, job.id, workerId, String((err as Error)?.message ?? err).slice(0, 1000), final, retryDelaySeconds(job.attempts))
    } finally {
      clearInterval(renewal)
    }
  }

  async function round(): Promise<number> {
    let ran = 0
    try {
      await enqueueSchedules()
      for (const job of await claim()) {
        if (stopped) break
        await runOne(job)
        ran++
      }
    } catch (err) {
      // the database is away or a statement failed: the next round tries again
      log.warn({ err }, 'job queue round failed')
    }
    return ran
  }

  async function tick(): Promise<number> {
    // one round at a time in this process; other processes are kept apart by SKIP LOCKED
    while (running) await running
    running = round()
    try {
      return await running
    } finally {
      running = null
    }
  }

  return {
    workerId,
    register(name, run, o = {}) {
      handlers.set(name, { run, leaseSeconds: o.leaseSeconds ?? DEFAULT_LEASE_SECONDS, maxAttempts: o.maxAttempts ?? DEFAULT_MAX_ATTEMPTS })
    },
    schedule(name, when) {
      if (typeof when === 'string') {
        // croner throws on an expression it cannot read: a mistake stops the start, it never runs at a wrong time
        const cron = new Cron(when, { timezone: 'UTC', paused: true })
        if (!cron.nextRun()) throw new Error(`schedule ${name}: the cron expression ${when} never fires`)
        schedules.delete(name)
        cronSchedules.set(name, cron)
        return
      }
      if (!Number.isInteger(when) || when < 1) throw new Error(`schedule ${name}: bad interval ${when}`)
      cronSchedules.delete(name)
      schedules.set(name, when)
    },
    async enqueue(tx, name, payload = {}, o = {}) {
      const maxAttempts = handlers.get(name)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS
      await insertJob(tx, { name, payload, singletonKey: o.singletonKey ?? null, runAt: o.runAt ?? null, maxAttempts })
    },
    tick,
    start() {
      if (timer || stopped) return
      const loop = () => {
        timer = null
        if (stopped) return
        // round() catches everything; the catch is the last guard so no rejection reaches the process
        tick()
          .catch((err) => {
            log.error({ err }, 'job queue loop failed')
            return 0
          })
          .then((ran) => {
            // after a busy round look again at once: more may be due
            if (!stopped) timer = setTimeout(loop, ran > 0 ? 0 : (opts.pollMs ?? 1000)).unref()
          })
      }
      timer = setTimeout(loop, 0).unref()
    },
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = null
      await running
    },
  }
}

/** For the metrics: the queue's depth and lag per job name, failures, and the mail outbox. */
export const queueMetrics: DbFigure[] = [
  {
    name: 'portal_jobs_waiting',
    help: 'Jobs waiting to run, by name (due now or later)',
    labelNames: ['name'],
    read: async (db) => (await jobQueueFigures(db)).map((r) => ({ labels: { name: r.name }, value: r.waiting })),
  },
  {
    name: 'portal_jobs_due',
    help: 'Jobs due now and not yet taken, by name',
    labelNames: ['name'],
    read: async (db) => (await jobQueueFigures(db)).map((r) => ({ labels: { name: r.name }, value: r.due })),
  },
  {
    name: 'portal_jobs_oldest_due_age_seconds',
    help: 'How long the oldest due job has waited (0 when none is due)',
    labelNames: [],
    read: async (db) => [{ labels: {}, value: Math.max(0, ...(await jobQueueFigures(db)).map((r) => r.oldest_due_seconds ?? 0)) }],
  },
  {
    name: 'portal_jobs_failed_last_24h',
    help: 'Jobs that failed for good in the last 24 hours, by name (retry them with jobs:retry)',
    labelNames: ['name'],
    read: async (db) => (await failedJobFigures(db)).map((r) => ({ labels: { name: r.name }, value: r.failed })),
  },
  {
    name: 'portal_mail_outbox_waiting',
    help: 'Mails waiting in the outbox to be delivered',
    labelNames: [],
    read: async (db) => [{ labels: {}, value: (await outboxFigures(db)).waiting }],
  },
  {
    name: 'portal_mail_outbox_oldest_age_seconds',
    help: 'How long the oldest waiting mail has waited (0 when none waits)',
    labelNames: [],
    read: async (db) => [{ labels: {}, value: (await outboxFigures(db)).oldest_seconds ?? 0 }],
  },
]
