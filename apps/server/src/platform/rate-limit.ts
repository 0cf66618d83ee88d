import { createHash } from 'node:crypto'
import type { Queryable } from '../db/db.ts'
import { AppError } from './errors.ts'
import { addBucketHits, addHits, pruneRateLimitRows, takeBackHits } from './queries.ts'

export interface RateRule {
  /** what is limited, e.g. `signin:ip:1.2.3.4` */
  key: string
  max: number
  windowSeconds: number
}

/**
 * Sliding-window counters in the database, so the limit holds across every server process on one
 * database. Hits go into small buckets (a fifteenth of the window); a hit is refused when the
 * buckets of the last window, its own included, hold more than `max`. The window never resets at
 * a clock boundary, so no span of `windowSeconds` lets more than `max` through (it may count up to
 * one bucket more than the window: stricter, never looser). One statement per call: the upsert
 * answers the current bucket's count exactly (row lock), and older buckets no longer change.
 */
export async function hit(db: Queryable, rules: RateRule[]): Promise<void> {
  if (rules.length === 0) return
  // all rules in one statement, rows always locked in the order given
  const rows = await addHits(
    db,
    rules.map((r) => r.key),
    rules.map((r) => r.windowSeconds),
    rules.map((r) => Math.max(1, Math.ceil(r.windowSeconds / 15))),
  )
  for (const rule of rules) {
    const row = rows.find((r) => r.key === rule.key)
    if ((row?.hits ?? 0) > rule.max) throw new AppError('rate_limited')
  }
}

/**
 * Takes back one hit of each key (in its newest bucket), for limits that count only failures: the
 * caller reserves a hit with hit() before it checks, so parallel tries cannot pass the limit, and
 * gives it back when the try succeeded.
 */
export async function forgive(db: Queryable, keys: string[]): Promise<void> {
  if (keys.length === 0) return
  await takeBackHits(db, keys)
}

/** Deletes counters older than `keepSeconds` (the longest window in use, so no live count is lost). */
export async function pruneRateLimits(db: Queryable, keepSeconds: number): Promise<number> {
  return pruneRateLimitRows(db, keepSeconds)
}

interface LimiterLog {
  warn(obj: object, msg: string): void
}

/** Keys go into a text column: anything beyond plain printable ASCII (a NUL, say) is stored hashed. */
const storedKey = (key: string) => (/^[\x20-\x7e]{1,200}$/.test(key) ? key : `h:${createHash('sha256').update(key).digest('hex')}`)

/**
 * Rate limits for the device API, the hot path: requests are counted in the process and added to
 * the shared counters in the database every `flushMs` in one statement, which answers every
 * process's counts. The accounting is the sliding window of hit(): buckets of a fifteenth of the
 * window, and a request is refused when the buckets of the last window (the database's counts as
 * of the last flush plus this process's unflushed ones) pass the limit, so no burst passes at a
 * clock boundary. With several processes a limit can be overrun by at most what the others let
 * through in one flush interval. A failed flush never escapes: it is logged, its counts are kept
 * and sent again with back-off. Sign-in, sign-up and e-mail limits stay exact (hit()).
 */
export class BatchedLimiter {
  /** unflushed counts: key -> bucket start (epoch seconds) -> hits */
  private pending = new Map<string, Map<number, number>>()
  /** the database's counts per bucket as of the last flush */
  private known = new Map<string, Map<number, number>>()
  private timer: NodeJS.Timeout | null = null
  private flushing: Promise<void> | null = null
  private failures = 0
  private readonly bucketSeconds: number

  private readonly db: Queryable
  private readonly windowSeconds: number
  private readonly flushMs: number
  private readonly opts: { log?: LimiterLog; now?: () => number }

  constructor(db: Queryable, windowSeconds = 60, flushMs = 200, opts: { log?: LimiterLog; now?: () => number } = {}) {
    this.db = db
    this.windowSeconds = windowSeconds
    this.flushMs = flushMs
    this.opts = opts
    this.bucketSeconds = Math.max(1, Math.ceil(windowSeconds / 15))
  }

  private nowSeconds() {
    return (this.opts.now?.() ?? Date.now()) / 1000
  }

  /** the current bucket's start, and the oldest bucket start that still counts */
  private span() {
    const bucket = Math.floor(this.nowSeconds() / this.bucketSeconds) * this.bucketSeconds
    return { bucket, since: bucket - this.windowSeconds }
  }

  private static sum(buckets: Map<number, number> | undefined, since: number) {
    let n = 0
    if (buckets) for (const [b, hits] of buckets) if (b >= since) n += hits
    return n
  }

  /** Counts one request against every rule; false when any is over its limit. */
  take(rules: { key: string; max: number }[]): boolean {
    const { bucket, since } = this.span()
    let ok = true
    for (const r of rules) {
      const key = storedKey(r.key)
      let mine = this.pending.get(key)
      if (!mine) this.pending.set(key, (mine = new Map()))
      mine.set(bucket, (mine.get(bucket) ?? 0) + 1)
      if (BatchedLimiter.sum(this.known.get(key), since) + BatchedLimiter.sum(mine, since) > r.max) ok = false
    }
    this.schedule(this.flushMs)
    return ok
  }

  private schedule(ms: number) {
    this.timer ??= setTimeout(() => {
      this.timer = null
      // flush() never rejects; the catch only keeps a future slip from reaching the process
      this.flush().catch((err) => this.opts.log?.warn({ err }, 'rate-limit flush failed'))
    }, ms)
    this.timer.unref()
  }

  /** Sends the unflushed counts; on failure keeps them for the next try. Never rejects. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (this.pending.size === 0) return
    const { since } = this.span()
    const batch = this.pending
    this.pending = new Map()
    const keys: string[] = []
    const buckets: number[] = []
    const hits: number[] = []
    for (const [key, perBucket] of batch) {
      for (const [b, n] of perBucket) {
        if (b < since) continue // slid out of every window while waiting: nothing to add
        keys.push(key)
        buckets.push(b)
        hits.push(n)
      }
    }
    if (keys.length === 0) return
    this.flushing = (async () => {
      try {
        const rows = await addBucketHits(this.db, keys, buckets, hits, since)
        const fresh = new Map<string, Map<number, number>>()
        for (const r of rows) {
          let m = fresh.get(r.key)
          if (!m) fresh.set(r.key, (m = new Map()))
          // a bucket the upsert touched comes twice: its upserted row holds the count, the table's the count before
          const bucket = Number(r.bucket)
          if (r.fresh || !m.has(bucket)) m.set(bucket, r.hits)
        }
        for (const [key, m] of fresh) this.known.set(key, m)
        this.failures = 0
      } catch (err) {
        // keep the counts (they still limit this process through `pending`) and try again later
        for (let i = 0; i < keys.length; i++) {
          let m = this.pending.get(keys[i]!)
          if (!m) this.pending.set(keys[i]!, (m = new Map()))
          m.set(buckets[i]!, (m.get(buckets[i]!) ?? 0) + hits[i]!)
        }
        this.failures++
        this.opts.log?.warn({ err, failures: this.failures }, 'rate-limit flush failed; counts kept for the next try')
        this.schedule(Math.min(30_000, this.flushMs * 2 ** Math.min(this.failures, 8)))
      }
      this.forgetOld()
    })()
    try {
      await this.flushing
    } finally {
      this.flushing = null
    }
  }

  /** Drops what no window counts any more, so random keys do not pile up in memory. */
  private forgetOld() {
    const { since } = this.span()
    for (const [key, m] of this.known) {
      for (const b of m.keys()) if (b < since) m.delete(b)
      if (m.size === 0) this.known.delete(key)
    }
  }

  async stop() {
    await this.flush()
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }
}
