import type { Queryable } from '../db/db.ts'
import { AppError } from './errors.ts'

export interface RateRule {
  /** what is limited, e.g. `signin:ip:1.2.3.4` */
  key: string
  max: number
  windowSeconds: number
}

/**
 * Fixed-window counters in the database, so the limit holds across every server process on one
 * database: one atomic upsert per rule, no read-then-write.
 */
export async function hit(db: Queryable, rules: RateRule[]): Promise<void> {
  for (const rule of rules) {
    const rows = await db.query<{ hits: number }>(
      `INSERT INTO rate_limits (key, window_start, hits)
       VALUES ($1, to_timestamp(floor(extract(epoch FROM now()) / $2) * $2), 1)
       ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limits.hits + 1
       RETURNING hits`,
      [rule.key, rule.windowSeconds],
    )
    if ((rows[0]?.hits ?? 0) > rule.max) throw new AppError('rate_limited')
  }
}

export async function pruneRateLimits(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM rate_limits WHERE window_start < now() - interval '1 day'`)
}
