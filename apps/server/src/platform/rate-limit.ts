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
  if (rules.length === 0) return
  // all rules in one statement, rows always locked in the order given
  const rows = await db.query<{ key: string; hits: number }>(
    `INSERT INTO rate_limits (key, window_start, hits)
     SELECT r.key, to_timestamp(floor(extract(epoch FROM now()) / r.w) * r.w), 1
       FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS r(key, w, n) ORDER BY r.n
     ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limits.hits + 1
     RETURNING key, hits`,
    [rules.map((r) => r.key), rules.map((r) => r.windowSeconds)],
  )
  for (const rule of rules) {
    const row = rows.find((r) => r.key === rule.key)
    if ((row?.hits ?? 0) > rule.max) throw new AppError('rate_limited')
  }
}

export async function pruneRateLimits(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM rate_limits WHERE window_start < now() - interval '1 day'`)
}
