import { randomUUID } from 'node:crypto'
import type { Db, Queryable } from '../db/db.ts'
import { claimJobs, enqueueDueSchedules, insertJob, markJobDone, markJobFailed } from './queries.ts'

/**
 * The job queue: background and scheduled work kept in the database (`jobs`, `job_schedules`), so
 * every server process on one database shares it and a job runs once, whichever process takes it.
 * Jobs are claimed under a lease (`locked_until`), skipping rows another process holds: a job whose process
 * died is taken over once its lease runs out. A failure is logged and retried with back-off until
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
  /** runs `name` every `everySeconds`, once across all processes (the first run is due at once) */
  schedule(name: string, everySeconds: number): void
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
  const workerId = `${process.pid}-${randomUUID().slice(0, 8)}`
  let timer: NodeJS.Timeout | null = null
  let running: Promise<number> | null = null
  let stopped = false

  async function enqueueSchedules() {
    if (schedules.size === 0) return
    await enqueueDueSchedules(db, [...schedules.keys()], [...schedules.values()])
  }

  async function claim(): Promise<(Job & { max_attempts: number })[]> {
    if (handlers.size === 0) return []
    const names = [...handlers.keys()]
    const leases = names.map((n) => handlers.get(n)!.leaseSeconds)
    return claimJobs(db, names, leases, workerId, opts.batch ?? 10)
  }

  async function runOne(job: Job & { max_attempts: number }) {
    const handler = handlers.get(job.name)!
    try {
      await handler.run({ id: job.id, name: job.name, payload: job.payload, attempts: job.attempts })
      await markJobDone(db, job.id, workerId)
    } catch (err) {
      const final = job.attempts >= job.max_attempts
      log[final ? 'error' : 'warn']({ err, job: job.name, jobId: job.id, attempts: job.attempts }, final ? 'job failed for good' : 'job failed, will retry')
      await markJobFailed(db, job.id, workerId, String((err as Error)?.message ?? err).slice(0, 1000), final, retryDelaySeconds(job.attempts))
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
    schedule(name, everySeconds) {
      if (!Number.isInteger(everySeconds) || everySeconds < 1) throw new Error(`schedule ${name}: bad interval ${everySeconds}`)
      schedules.set(name, everySeconds)
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
