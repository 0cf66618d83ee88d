import type { Queryable } from '../db/db.ts'

/** The SQL of the platform's own tables: sessions (lookup), rate limits, captchas, mail, jobs. */

export interface SessionClientRow {
  id: number
  is_staff: boolean
}

/** The client of a live session, by the hash of its id. */
export async function findSessionClient(db: Queryable, idHash: string): Promise<SessionClientRow | null> {
  const rows = await db.query<SessionClientRow>(
    `SELECT c.id, c.is_staff FROM sessions s JOIN clients c ON c.id = s.client_id
      WHERE s.id_hash = $1 AND s.expires_at > now()`,
    [idHash],
  )
  return rows[0] ?? null
}

// ---- captcha ----

/** Spends a solved challenge; answers false when it was spent before. */
export async function spendCaptcha(db: Queryable, challenge: string): Promise<boolean> {
  const rows = await db.query('INSERT INTO captcha_used (challenge) VALUES ($1) ON CONFLICT DO NOTHING RETURNING challenge', [challenge])
  return rows.length > 0
}

// ---- mail outbox ----

/** An attachment as the outbox keeps it (jsonb): the bytes in base64. */
export interface StoredAttachment {
  filename: string
  content_type: string
  content_base64: string
}

export interface OutboxMail {
  id: number
  to_address: string
  subject: string
  text_body: string
  html_body: string
  reply_to: string | null
  attachments: StoredAttachment[]
  attempts: number
}

export async function insertMail(
  tx: Queryable,
  mail: { to: string; subject: string; text: string; html: string; attachments?: StoredAttachment[]; replyTo?: string },
  status: 'pending' | 'dev',
) {
  await tx.query(`INSERT INTO mail_outbox (to_address, subject, text_body, html_body, attachments, status, reply_to) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    mail.to,
    mail.subject,
    mail.text,
    mail.html,
    JSON.stringify(mail.attachments ?? []),
    status,
    mail.replyTo ?? null,
  ])
}

/** Leases up to `batch` due mails for 60 seconds; other processes skip them (SKIP LOCKED). */
export async function claimMail(db: Queryable, batch: number): Promise<OutboxMail[]> {
  return db.query<OutboxMail>(
    `UPDATE mail_outbox SET locked_until = now() + interval '60 seconds', attempts = attempts + 1
      WHERE id IN (SELECT id FROM mail_outbox
                    WHERE status = 'pending' AND next_attempt_at <= now()
                      AND (locked_until IS NULL OR locked_until < now())
                    ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING id, to_address, subject, text_body, html_body, reply_to, attachments, attempts`,
    [batch],
  )
}

export async function markMailSent(db: Queryable, id: number) {
  await db.query(`UPDATE mail_outbox SET status = 'sent', sent_at = now(), locked_until = NULL, last_error = NULL WHERE id = $1`, [id])
}

export async function markMailFailed(db: Queryable, id: number, error: string, retryInSeconds: number) {
  await db.query(
    `UPDATE mail_outbox SET locked_until = NULL, last_error = $2,
            next_attempt_at = now() + make_interval(secs => $3) WHERE id = $1`,
    [id, error, retryInSeconds],
  )
}

// ---- jobs ----

export interface ClaimedJob {
  id: number
  name: string
  payload: Record<string, unknown>
  attempts: number
  max_attempts: number
}

/**
 * Insert-or-advance every schedule in one statement: of several processes only the one that moves
 * next_run_at gets the row back, so each slot enqueues one job.
 */
export async function enqueueDueSchedules(db: Queryable, names: string[], everySeconds: number[]) {
  await db.query(
    `WITH due AS (
       INSERT INTO job_schedules (name, every_seconds, next_run_at)
       SELECT n, e, now() + make_interval(secs => e) FROM unnest($1::text[], $2::int[]) AS r(n, e)
       ON CONFLICT (name) DO UPDATE SET next_run_at = now() + make_interval(secs => EXCLUDED.every_seconds),
                                        every_seconds = EXCLUDED.every_seconds
        WHERE job_schedules.next_run_at <= now()
       RETURNING name
     )
     INSERT INTO jobs (name, singleton_key, max_attempts)
     SELECT due.name, 'schedule:' || due.name, 1 FROM due
     ON CONFLICT (singleton_key) WHERE status = 'pending' DO NOTHING`,
    [names, everySeconds],
  )
}

/** Leases due jobs of the given names (each for its own lease) to a worker; counts the attempt. */
export async function claimJobs(db: Queryable, names: string[], leaseSeconds: number[], workerId: string, batch: number): Promise<ClaimedJob[]> {
  return db.query<ClaimedJob>(
    `UPDATE jobs j SET locked_until = now() + make_interval(secs => l.lease), locked_by = $3, attempts = j.attempts + 1
       FROM unnest($1::text[], $2::int[]) AS l(name, lease)
      WHERE l.name = j.name
        AND j.id IN (SELECT id FROM jobs
                      WHERE status = 'pending' AND run_at <= now() AND name = ANY($1::text[])
                        AND (locked_until IS NULL OR locked_until < now())
                      ORDER BY run_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
      RETURNING j.id, j.name, j.payload, j.attempts, j.max_attempts`,
    [names, leaseSeconds, workerId, batch],
  )
}

export async function markJobDone(db: Queryable, id: number, workerId: string) {
  await db.query(`UPDATE jobs SET status = 'done', finished_at = now(), locked_until = NULL, last_error = NULL WHERE id = $1 AND locked_by = $2`, [
    id,
    workerId,
  ])
}

/** A failed run: kept as failed when it was the last attempt, else pending again after `retryInSeconds`. */
export async function markJobFailed(db: Queryable, id: number, workerId: string, error: string, final: boolean, retryInSeconds: number) {
  await db.query(
    `UPDATE jobs SET locked_until = NULL, last_error = $3,
            status = CASE WHEN $4::boolean THEN 'failed' ELSE 'pending' END,
            finished_at = CASE WHEN $4::boolean THEN now() END,
            run_at = now() + make_interval(secs => $5)
      WHERE id = $1 AND locked_by = $2`,
    [id, workerId, error, final, retryInSeconds],
  )
}

export async function insertJob(
  tx: Queryable,
  j: { name: string; payload: Record<string, unknown>; singletonKey: string | null; runAt: Date | null; maxAttempts: number },
) {
  await tx.query(
    `INSERT INTO jobs (name, payload, singleton_key, run_at, max_attempts) VALUES ($1, $2, $3, COALESCE($4, now()), $5)
     ON CONFLICT (singleton_key) WHERE status = 'pending' DO NOTHING`,
    [j.name, JSON.stringify(j.payload), j.singletonKey, j.runAt, j.maxAttempts],
  )
}

// ---- rate limits ----

/**
 * Adds one hit per key to its current bucket (bucket width per key) and answers, per key, the hits
 * of the window ending in that bucket. Rows are locked in the order given.
 */
export async function addHits(db: Queryable, keys: string[], windowSeconds: number[], bucketSeconds: number[]) {
  return db.query<{ key: string; hits: number }>(
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
    [keys, windowSeconds, bucketSeconds],
  )
}

/** Takes back one hit of each key, in its newest bucket. */
export async function takeBackHits(db: Queryable, keys: string[]) {
  await db.query(
    `UPDATE rate_limits l SET hits = l.hits - 1
       FROM (SELECT key, max(window_start) AS window_start FROM rate_limits WHERE key = ANY($1::text[]) GROUP BY key) newest
      WHERE l.key = newest.key AND l.window_start = newest.window_start AND l.hits > 0`,
    [keys],
  )
}

/**
 * Adds counted hits to their buckets (epoch seconds) and answers every bucket of those keys since
 * `since`. A CTE does not see its sibling's writes, so the table's rows are as they were before the
 * upsert: a bucket the upsert touched comes twice, and its `fresh` row (the upsert's) is the count.
 * The keys are matched by a hash join on their distinct list: an anti-join against the unnested
 * input was planned as a nested loop (the planner guesses 10 rows for unnest), which costs a flush
 * of many keys far more than the validations it counts (docs/benchmarks.md, History).
 */
export async function addBucketHits(db: Queryable, keys: string[], buckets: number[], hits: number[], since: number) {
  return db.query<{ key: string; bucket: number; hits: number; fresh: boolean }>(
    `WITH r AS (SELECT * FROM unnest($1::text[], $2::float8[], $3::int[]) AS r(k, b, n)),
     up AS (
       INSERT INTO rate_limits (key, window_start, hits)
       SELECT k, to_timestamp(b), n FROM r ORDER BY k, b
       ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limits.hits + EXCLUDED.hits
       RETURNING key, window_start, hits
     )
     SELECT key, extract(epoch FROM window_start)::float8 AS bucket, hits, true AS fresh FROM up
     UNION ALL
     SELECT l.key, extract(epoch FROM l.window_start)::float8, l.hits, false
       FROM (SELECT DISTINCT k FROM r) d JOIN rate_limits l ON l.key = d.k
      WHERE l.window_start >= to_timestamp($4)`,
    [keys, buckets, hits, since],
  )
}

// ---- housekeeping: each table in its own statement (no long locks); each answers the rows deleted ----

const deleted = async (db: Queryable, sql: string, params: unknown[] = []) => (await db.query(`${sql} RETURNING 1`, params)).length

export const pruneRateLimitRows = (db: Queryable, keepSeconds: number) =>
  deleted(db, `DELETE FROM rate_limits WHERE window_start < now() - make_interval(secs => $1)`, [keepSeconds])
export const pruneSessions = (db: Queryable) => deleted(db, `DELETE FROM sessions WHERE expires_at < now()`)
export const pruneCaptchas = (db: Queryable, keepSeconds: number) =>
  deleted(db, `DELETE FROM captcha_used WHERE used_at < now() - make_interval(secs => $1)`, [keepSeconds])
export const pruneMail = (db: Queryable, keepDays: number) =>
  deleted(db, `DELETE FROM mail_outbox WHERE status <> 'pending' AND created_at < now() - make_interval(days => $1)`, [keepDays])
export const pruneJobs = (db: Queryable, keepDays: number) =>
  deleted(db, `DELETE FROM jobs WHERE status <> 'pending' AND finished_at < now() - make_interval(days => $1)`, [keepDays])
