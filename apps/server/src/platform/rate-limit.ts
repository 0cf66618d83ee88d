import type { Queryable } from '../db/db.ts'
import { AppError } from './errors.ts'

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
  const rows = await db.query<{ key: string; hits: number }>(
    `WITH r AS (
       SELECT key, w, n, to_timestamp(floor(extract(epoch FROM now()) / b) * b) AS bucket
         FROM unnest($1::text[], $2::int[], $3::int[]) WITH ORDINALITY AS r(key, w, b, n)
     ), up AS (
       INSERT INTO rate_limits (key, window_start, hits)
       SELECT key, bucket, 1 FROM r ORDER BY n
       ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limits.hits + 1
       RETURNING key, hits
     )
     SELECT up.key, (up.hits + COALESCE((SELECT sum(l.hits) FROM rate_limits l
                                          WHERE l.key = r.key AND l.window_start < r.bucket
                                            AND l.window_start >= r.bucket - make_interval(secs => r.w)), 0))::int AS hits
       FROM up JOIN r ON r.key = up.key`,
    [rules.map((r) => r.key), rules.map((r) => r.windowSeconds), rules.map((r) => Math.max(1, Math.ceil(r.windowSeconds / 15)))],
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
  await db.query(
    `UPDATE rate_limits l SET hits = l.hits - 1
       FROM (SELECT key, max(window_start) AS window_start FROM rate_limits WHERE key = ANY($1::text[]) GROUP BY key) newest
      WHERE l.key = newest.key AND l.window_start = newest.window_start AND l.hits > 0`,
    [keys],
  )
}

export async function pruneRateLimits(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM rate_limits WHERE window_start < now() - interval '1 day'`)
}

/**
 * Rate limits for the device API, the hot path: counts are kept in the process and added to the
 * shared counters in the database every `flushMs` in one statement, which answers the totals of
 * every process. A request is refused when the last known total plus this process's unflushed
 * count passes the limit, so with several processes a limit can be overrun by at most what the
 * others let through in one flush interval. Sign-in, sign-up and e-mail limits stay exact (hit()).
 */
export class BatchedLimiter {
  private pending = new Map<string, number>()
  private known = new Map<string, number>()
  private window = 0
  private timer: NodeJS.Timeout | null = null
  private flushing: Promise<void> | null = null

  constructor(
    private db: Queryable,
    private windowSeconds = 60,
    private flushMs = 200,
  ) {}

  private roll() {
    const w = Math.floor(Date.now() / 1000 / this.windowSeconds) * this.windowSeconds
    if (w !== this.window) {
      this.window = w
      this.known.clear()
      this.pending.clear()
    }
  }

  /** Counts one request against every rule; false when any is over its limit. */
  take(rules: { key: string; max: number }[]): boolean {
    this.roll()
    let ok = true
    for (const r of rules) {
      const mine = (this.pending.get(r.key) ?? 0) + 1
      this.pending.set(r.key, mine)
      if ((this.known.get(r.key) ?? 0) + mine > r.max) ok = false
    }
    this.timer ??= setTimeout(() => void this.flush(), this.flushMs)
    return ok
  }

  async flush(): Promise<void> {
    while (this.flushing) await this.flushing
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (this.pending.size === 0) return
    const batch = [...this.pending]
    const window = this.window
    this.pending.clear()
    this.flushing = (async () => {
      const rows = await this.db.query<{ key: string; hits: number }>(
        `INSERT INTO rate_limits (key, window_start, hits)
         SELECT k, to_timestamp($3), n FROM unnest($1::text[], $2::int[]) AS r(k, n) ORDER BY k
         ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limits.hits + EXCLUDED.hits
         RETURNING key, hits`,
        [batch.map(([k]) => k), batch.map(([, n]) => n), window],
      )
      if (window === this.window) for (const r of rows) this.known.set(r.key, r.hits)
    })()
    try {
      await this.flushing
    } finally {
      this.flushing = null
    }
  }

  async stop() {
    await this.flush().catch(() => undefined)
  }
}
