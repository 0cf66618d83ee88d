import { PLATFORMS, PRODUCTS, SALE_ENTRIES, platformOfProduct, platformProductSpec, type Platform } from '@portal/domain'
import type { Queryable } from '../../db/db.ts'

/**
 * The fleet view's aggregates. Each runs in the database for one client (every statement starts
 * from `client_id = $1` on an index that leads with it) and answers a few rows: one per day, week or
 * month of its window, the empty ones present as zeros (generate_series), so nothing per license or
 * per event crosses the wire.
 */

/** Which platform a product belongs to, as the domain says (platformOfProduct), for SQL: two arrays by index. */
const PRODUCT_CODES: string[] = [...PRODUCTS]
const PRODUCT_PLATFORMS: string[] = PRODUCT_CODES.map((p) => platformOfProduct(p))
/** The basket's sale entries and their platforms: a purchase's first line names its entry (one platform per order). */
const ENTRY_IDS: string[] = SALE_ENTRIES.map((e) => e.id)
const ENTRY_PLATFORMS: string[] = SALE_ENTRIES.map((e) => e.platform)

/** The platform of a product code held in `expr`; null for a code the catalogue does not know. */
const platformOf = (expr: string, codes: string, platforms: string) => `(${platforms}::text[])[array_position(${codes}::text[], ${expr})]`

/** `sum(value) FILTER (WHERE platform = …)` per platform, named by the platform (constants, not input). */
const perPlatform = (value: string, platform: string, cast: string) =>
  PLATFORMS.map((p) => `COALESCE(sum(${value}) FILTER (WHERE ${platform} = '${p}'), 0)::${cast} AS "${p}"`).join(', ')

type PerPlatform<T> = Record<Platform, T>

/** Device activations (the history's `activated` lines) per UTC day in [from, to) and platform; every day present. */
export async function activationsPerDay(db: Queryable, clientId: number, from: Date, to: Date): Promise<(PerPlatform<number> & { day: string })[]> {
  return db.query(
    `WITH ev AS (
       SELECT date_trunc('day', e.created_at AT TIME ZONE 'UTC') AS day,
              COALESCE(${platformOf('l.product', '$4', '$5')}, 'nuitrack') AS platform, count(*)::int AS n
         FROM activity_events e JOIN licenses l ON l.id = e.license_id
        WHERE e.client_id = $1 AND e.created_at >= $2 AND e.created_at < $3 AND e.kind = 'activated'
        GROUP BY 1, 2)
     SELECT to_char(d.day, 'YYYY-MM-DD') AS day, ${perPlatform('ev.n', 'ev.platform', 'int')}
       FROM generate_series($2::timestamptz AT TIME ZONE 'UTC', $3::timestamptz AT TIME ZONE 'UTC' - interval '1 day', interval '1 day') AS d(day)
       LEFT JOIN ev ON ev.day = d.day
      GROUP BY d.day ORDER BY d.day`,
    [clientId, from, to, PRODUCT_CODES, PRODUCT_PLATFORMS],
  )
}

/**
 * Live licenses whose expiry falls in (now, until], per ISO week (its Monday, UTC) from the week of
 * `now` to the week of `until`; every week present.
 */
export async function expiringPerWeek(db: Queryable, clientId: number, now: Date, until: Date): Promise<{ week: string; count: number }[]> {
  return db.query(
    `WITH ex AS (
       SELECT date_trunc('week', l.expire_date AT TIME ZONE 'UTC') AS week, count(*)::int AS n
         FROM licenses l
        WHERE l.client_id = $1 AND l.revoked_at IS NULL AND l.expire_date > $2 AND l.expire_date <= $3
        GROUP BY 1)
     SELECT to_char(w.week, 'YYYY-MM-DD') AS week, COALESCE(ex.n, 0)::int AS count
       FROM generate_series(date_trunc('week', $2::timestamptz AT TIME ZONE 'UTC'), date_trunc('week', $3::timestamptz AT TIME ZONE 'UTC'), interval '1 week') AS w(week)
       LEFT JOIN ex ON ex.week = w.week
      ORDER BY w.week`,
    [clientId, now, until],
  )
}

/** Transaction kinds that move money but buy nothing: they are not spend. */
const NOT_SPEND = ['top_up', 'adjustment']

/**
 * Spend in cents per UTC month in [from, to) and platform; every month present. A paid debit
 * (purchase, renewal, reactivation, upgrade; by card, PayPal or the balance) counts in the month it
 * was paid; a credit note on one (refund, dispute, reversal) counts negative in the month it was
 * issued, unless the dispute was won (restored_at). The platform is the license's or group's the
 * transaction is for, else the sale entry of its first line (a basket order is of one platform).
 */
export async function spendPerMonth(db: Queryable, clientId: number, from: Date, to: Date): Promise<(PerPlatform<number> & { month: string })[]> {
  const rows = await db.query<PerPlatform<string | number> & { month: string }>(
    `WITH spent AS (
       SELECT t.paid_at AS at, t.amount_cents AS cents, t.license_id, t.group_id, t.lines
         FROM transactions t
        WHERE t.client_id = $1 AND t.status = 0 AND t.type = 1 AND NOT (t.kind = ANY($4::text[]))
          AND t.paid_at >= $2 AND t.paid_at < $3
       UNION ALL
       SELECT c.issued_at, -c.amount_cents, t.license_id, t.group_id, t.lines
         FROM credit_notes c JOIN transactions t ON t.id = c.transaction_id
        WHERE c.client_id = $1 AND c.restored_at IS NULL AND c.issued_at >= $2 AND c.issued_at < $3
          AND t.type = 1 AND NOT (t.kind = ANY($4::text[]))),
     placed AS (
       SELECT date_trunc('month', s.at AT TIME ZONE 'UTC') AS month, s.cents,
              COALESCE(${platformOf('l.product', '$5', '$6')}, ${platformOf('g.product', '$5', '$6')},
                       ${platformOf("s.lines->0->>'entry_id'", '$7', '$8')}, 'nuitrack') AS platform
         FROM spent s
         LEFT JOIN licenses l ON l.id = s.license_id
         LEFT JOIN license_groups g ON g.id = s.group_id)
     SELECT to_char(m.month, 'YYYY-MM') AS month, ${perPlatform('p.cents', 'p.platform', 'bigint')}
       FROM generate_series($2::timestamptz AT TIME ZONE 'UTC', $3::timestamptz AT TIME ZONE 'UTC' - interval '1 month', interval '1 month') AS m(month)
       LEFT JOIN placed p ON p.month = m.month
      GROUP BY m.month ORDER BY m.month`,
    [clientId, from, to, NOT_SPEND, PRODUCT_CODES, PRODUCT_PLATFORMS, ENTRY_IDS, ENTRY_PLATFORMS],
  )
  // sums of bigint come back as text from node-postgres
  return rows.map((r) => ({ month: r.month, ...(Object.fromEntries(PLATFORMS.map((p) => [p, Number(r[p])])) as PerPlatform<number>) }))
}

/** One platform's strip: devices bound now to its live licenses, and its live licenses expiring in (now, until]. */
export async function platformSummary(
  db: Queryable,
  clientId: number,
  platform: Platform,
  now: Date,
  until: Date,
): Promise<{ active_devices: number; expiring_soon: number }> {
  const spec = platformProductSpec(platform)
  const match = spec.kind === 'in' ? 'l.product = ANY($2::text[])' : 'NOT (l.product = ANY($2::text[]))'
  const [row] = await db.query<{ active_devices: number; expiring_soon: number }>(
    `SELECT (SELECT count(*)::int FROM devices d JOIN licenses l ON l.id = d.license_id
              WHERE l.client_id = $1 AND l.revoked_at IS NULL AND ${match} AND d.released_at IS NULL) AS active_devices,
            (SELECT count(*)::int FROM licenses l
              WHERE l.client_id = $1 AND l.revoked_at IS NULL AND ${match} AND l.expire_date > $3 AND l.expire_date <= $4) AS expiring_soon`,
    [clientId, spec.products, now, until],
  )
  return row!
}
