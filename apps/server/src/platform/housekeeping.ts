import type { Queryable } from '../db/db.ts'
import { RATE_LIMITS } from '../context.ts'
import { CAPTCHA_LIFETIME_MS } from './captcha.ts'
import type { JobQueue } from './jobs.ts'
import { pruneCaptchas, pruneJobs, pruneMail, pruneSessions } from './queries.ts'
import { pruneRateLimits } from './rate-limit.ts'

/** The device API's window (BatchedLimiter) beside the exact limits' windows. */
const SDK_WINDOW_SECONDS = 60
/** Counters are kept for the longest window in use, plus a margin for clock skew between processes. */
export const RATE_LIMIT_KEEP_SECONDS = Math.max(SDK_WINDOW_SECONDS, ...Object.values(RATE_LIMITS).map((r) => r.windowSeconds)) + 300
/** Sent mail and dev-mailbox mail are kept this long (the dev mailbox shows them until then). */
export const MAIL_KEEP_DAYS = 30
/** Finished jobs are kept this long for looking into what ran. */
export const JOBS_KEEP_DAYS = 7

export interface PruneCounts {
  rate_limits: number
  sessions: number
  captcha_used: number
  mail_outbox: number
  jobs: number
}

/** Deletes what no longer serves any purpose; each table in its own statement (no long locks). */
export async function pruneAll(db: Queryable): Promise<PruneCounts> {
  return {
    rate_limits: await pruneRateLimits(db, RATE_LIMIT_KEEP_SECONDS),
    sessions: await pruneSessions(db),
    // a challenge expires at most its lifetime after it was issued, so after that nobody can present
    // it again and its row has done its work; twice the lifetime leaves room for clock skew
    captcha_used: await pruneCaptchas(db, (2 * CAPTCHA_LIFETIME_MS) / 1000),
    mail_outbox: await pruneMail(db, MAIL_KEEP_DAYS),
    jobs: await pruneJobs(db, JOBS_KEEP_DAYS),
  }
}

export const PRUNE_EVERY_SECONDS = 15 * 60

/** Registers the periodic clean-up on the queue. */
export function scheduleHousekeeping(jobs: JobQueue, db: Queryable, log: { info(obj: object, msg: string): void }) {
  jobs.register('housekeeping.prune', async () => {
    const counts = await pruneAll(db)
    if (Object.values(counts).some((n) => n > 0)) log.info({ deleted: counts }, 'pruned old rows')
  })
  jobs.schedule('housekeeping.prune', PRUNE_EVERY_SECONDS)
}
