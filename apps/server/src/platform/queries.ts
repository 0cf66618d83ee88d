import type { Role } from '@portal/domain'
import type { Queryable } from '../db/db.ts'

/** The SQL of the platform's own tables: sessions (lookup), rate limits, captchas, mail, jobs. */

export interface SessionClientRow {
  /** the account the request acts for: the session's current organisation, else the person's own */
  id: number
  is_staff: boolean
  /** the signed-in person */
  actor_id: number
  /** the person's role in that account */
  role: Role
}

/**
 * The session's person, the organisation it acts in and the role there, by the hash of the
 * session's id ($1). An organisation the person no longer belongs to falls back to their own
 * account, where they are owner while it is personal.
 */
export const SESSION_CLIENT_SQL = `
  SELECT CASE WHEN m.org_id IS NULL THEN c.id ELSE m.org_id END AS id, c.is_staff, c.id AS actor_id,
         COALESCE(m.role, own.role, 'owner') AS role
    FROM sessions s JOIN clients c ON c.id = s.client_id
    LEFT JOIN memberships m ON m.org_id = s.org_id AND m.member_id = s.client_id
    LEFT JOIN memberships own ON own.org_id = c.id AND own.member_id = c.id
   WHERE s.id_hash = $1 AND s.expires_at > now()`

/** The client of a live session, by the hash of its id. */
export async function findSessionClient(db: Queryable, idHash: string): Promise<SessionClientRow | null> {
  const rows = await db.query<SessionClientRow>(SESSION_CLIENT_SQL, [idHash])
  return rows[0] ?? null
}

// ---- customer API tokens (the bearer check of session.ts) ----

export interface BearerTokenRow {
  id: number
  client_id: number
  is_staff: boolean
  scope: 'read' | 'manage'
  revoked: boolean
  expired: boolean
  /** who made it (null once that person's account is gone) */
  creator_id: number | null
  /** that person's role in the account now; null when they are no longer a member */
  creator_role: Role | null
}

/**
 * The token with this hash and its client, and whether it is revoked or expired; a live token's
 * last use is written in the same statement, only when the stored one is older than `everySeconds`
 * (so a busy script writes the row about once a minute, not on every call).
 */
export async function findBearerToken(db: Queryable, hash: string, everySeconds: number): Promise<BearerTokenRow | null> {
  const rows = await db.query<BearerTokenRow>(
    `WITH t AS (
       SELECT id, client_id, created_by, scope, revoked_at IS NOT NULL AS revoked, coalesce(expires_at <= now(), false) AS expired, last_used_at
         FROM api_tokens WHERE token_hash = $1
     ), used AS (
       UPDATE api_tokens a SET last_used_at = now() FROM t
        WHERE a.id = t.id AND NOT t.revoked AND NOT t.expired
          AND (t.last_used_at IS NULL OR t.last_used_at <= now() - make_interval(secs => $2))
       RETURNING a.id
     )
     SELECT t.id, t.client_id, c.is_staff, t.scope, t.revoked, t.expired, t.created_by AS creator_id,
            CASE WHEN t.created_by = t.client_id THEN COALESCE(m.role, 'owner') ELSE m.role END AS creator_role
       FROM t JOIN clients c ON c.id = t.client_id
       LEFT JOIN memberships m ON m.org_id = t.client_id AND m.member_id = t.created_by`,
    [hash, everySeconds],
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
                                        every_seconds = EXCLUDED.every_seconds, cron = NULL
        WHERE job_schedules.next_run_at <= now()
       RETURNING name
     )
     INSERT INTO jobs (name, singleton_key, max_attempts)
     SELECT due.name, 'schedule:' || due.name, 1 FROM due
     ON CONFLICT (singleton_key) WHERE status = 'pending' DO NOTHING`,
    [names, everySeconds],
  )
}

/**
 * Cron schedules: a new one (or one whose expression changed) waits for its next time; one whose time
 * has come is moved to its next time and its run enqueued, once across all processes.
 */
export async function enqueueDueCronSchedules(db: Queryable, names: string[], crons: string[], nextRuns: Date[]) {
  await db.query(
    `INSERT INTO job_schedules (name, cron, next_run_at)
     SELECT n, c, t FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS r(n, c, t)
     ON CONFLICT (name) DO UPDATE SET cron = EXCLUDED.cron, every_seconds = NULL, next_run_at = EXCLUDED.next_run_at
      WHERE job_schedules.cron IS DISTINCT FROM EXCLUDED.cron`,
    [names, crons, nextRuns],
  )
  await db.query(
    `WITH due AS (
       UPDATE job_schedules s SET next_run_at = r.t
         FROM unnest($1::text[], $2::timestamptz[]) AS r(n, t)
        WHERE s.name = r.n AND s.next_run_at <= now()
       RETURNING s.name
     )
     INSERT INTO jobs (name, singleton_key, max_attempts)
     SELECT due.name, 'schedule:' || due.name, 1 FROM due
     ON CONFLICT (singleton_key) WHERE status = 'pending' DO NOTHING`,
    [names, nextRuns],
  )
}

/** Moves a running job's lease on, while the process holding it still does. */
export async function renewJobLease(db: Queryable, id: number, workerId: string, leaseSeconds: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE jobs SET locked_until = now() + make_interval(secs => $3) WHERE id = $1 AND locked_by = $2 AND status = 'pending' RETURNING id`,
    [id, workerId, leaseSeconds],
  )
  return rows.length > 0
}

export interface JobListRow {
  id: number
  name: string
  status: string
  attempts: number
  max_attempts: number
  run_at: Date
  locked_by: string | null
  locked_until: Date | null
  last_error: string | null
  finished_at: Date | null
}

/** The operator's list: waiting and running jobs (or failed ones), optionally of one name, oldest first. */
export async function listJobs(db: Queryable, opts: { failed: boolean; name: string | null; limit: number }): Promise<JobListRow[]> {
  return db.query<JobListRow>(
    `SELECT id, name, status, attempts, max_attempts, run_at, locked_by, locked_until, last_error, finished_at
       FROM jobs WHERE status = $1 AND ($2::text IS NULL OR name = $2)
      ORDER BY ${opts.failed ? 'finished_at DESC' : 'run_at, id'} LIMIT $3`,
    [opts.failed ? 'failed' : 'pending', opts.name, opts.limit],
  )
}

/** A failed or cancelled job runs again now, with its attempts counted afresh; null when it is not such a job. */
export async function retryJob(db: Queryable, id: number): Promise<{ id: number; name: string } | null> {
  const [row] = await db.query<{ id: number; name: string }>(
    `UPDATE jobs SET status = 'pending', run_at = now(), attempts = 0, finished_at = NULL, locked_until = NULL, locked_by = NULL
      WHERE id = $1 AND status IN ('failed', 'cancelled') RETURNING id, name`,
    [id],
  )
  return row ?? null
}

/** A waiting job that no process is running is cancelled; answers what the job was, if anything. */
export async function cancelJob(db: Queryable, id: number): Promise<{ cancelled: boolean; status: string | null; running: boolean }> {
  const [row] = await db.query<{ id: number }>(
    `UPDATE jobs SET status = 'cancelled', finished_at = now(), last_error = 'cancelled by an operator'
      WHERE id = $1 AND status = 'pending' AND (locked_until IS NULL OR locked_until < now()) RETURNING id`,
    [id],
  )
  if (row) return { cancelled: true, status: 'cancelled', running: false }
  const [job] = await db.query<{ status: string; running: boolean }>(
    `SELECT status, (status = 'pending' AND locked_until >= now()) AS running FROM jobs WHERE id = $1`,
    [id],
  )
  return { cancelled: false, status: job?.status ?? null, running: job?.running ?? false }
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

/** Waiting jobs per name: how many, how many are due, and how long the oldest due one has waited. */
export async function jobQueueFigures(db: Queryable) {
  return db.query<{ name: string; waiting: number; due: number; oldest_due_seconds: number | null }>(
    `SELECT name, count(*)::int AS waiting, count(*) FILTER (WHERE run_at <= now())::int AS due,
            extract(epoch FROM now() - min(run_at) FILTER (WHERE run_at <= now()))::float8 AS oldest_due_seconds
       FROM jobs WHERE status = 'pending' GROUP BY name`,
  )
}

/** Jobs that failed for good in the last 24 hours, per name. */
export async function failedJobFigures(db: Queryable) {
  return db.query<{ name: string; failed: number }>(
    `SELECT name, count(*)::int AS failed FROM jobs
      WHERE status = 'failed' AND finished_at > now() - interval '24 hours' GROUP BY name`,
  )
}

/** Mails waiting in the outbox, and the age of the oldest. */
export async function outboxFigures(db: Queryable) {
  const [row] = await db.query<{ waiting: number; oldest_seconds: number | null }>(
    `SELECT count(*)::int AS waiting, extract(epoch FROM now() - min(created_at))::float8 AS oldest_seconds
       FROM mail_outbox WHERE status = 'pending'`,
  )
  return row ?? { waiting: 0, oldest_seconds: null }
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

// ---- shared secrets and the license-signing keyring (sealed with PORTAL_MASTER_KEY) ----

export async function findSealedSecret(db: Queryable, name: string): Promise<string | null> {
  const rows = await db.query<{ sealed: string }>('SELECT sealed FROM portal_secrets WHERE name = $1', [name])
  return rows[0]?.sealed ?? null
}

/** Any one sealed value the database holds besides `except`: a secret by its name, or a license key by its kid. */
export async function anySealedValue(db: Queryable, except: string): Promise<{ kind: 'secret' | 'license-key'; name: string; sealed: string } | null> {
  const rows = await db.query<{ kind: 'secret' | 'license-key'; name: string; sealed: string }>(
    `(SELECT 'secret' AS kind, name, sealed FROM portal_secrets WHERE name <> $1 LIMIT 1)
     UNION ALL (SELECT 'license-key' AS kind, kid AS name, private_key_sealed AS sealed FROM license_signing_keys LIMIT 1)`,
    [except],
  )
  return rows[0] ?? null
}

/** Stores a secret unless one of that name exists; answers whether this call stored it. */
export async function insertSealedSecretIfAbsent(db: Queryable, name: string, sealed: string): Promise<boolean> {
  const rows = await db.query('INSERT INTO portal_secrets (name, sealed) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING name', [name, sealed])
  return rows.length > 0
}

export interface SigningKeyRow {
  kid: string
  public_key: string
  private_key_sealed: string
  created_at: Date
  retire_at: Date | null
}

/** Every license-signing key, newest last. */
export async function listSigningKeys(db: Queryable): Promise<SigningKeyRow[]> {
  return db.query<SigningKeyRow>('SELECT kid, public_key, private_key_sealed, created_at, retire_at FROM license_signing_keys ORDER BY created_at, position')
}

/** Adds a key unless its kid is known; answers whether it was added. */
export async function insertSigningKey(db: Queryable, key: Omit<SigningKeyRow, 'created_at' | 'retire_at'> & { created_at: string; retire_at: string | null }) {
  const rows = await db.query(
    `INSERT INTO license_signing_keys (kid, public_key, private_key_sealed, created_at, retire_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (kid) DO NOTHING RETURNING kid`,
    [key.kid, key.public_key, key.private_key_sealed, key.created_at, key.retire_at],
  )
  return rows.length > 0
}

export async function setSigningKeyRetirement(db: Queryable, kid: string, at: Date): Promise<boolean> {
  const rows = await db.query('UPDATE license_signing_keys SET retire_at = $2 WHERE kid = $1 RETURNING kid', [kid, at.toISOString()])
  return rows.length > 0
}

/** Whether a key signs now: one not retired, or retiring after `now`. */
export async function hasLiveSigningKey(db: Queryable, now: Date): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM license_signing_keys WHERE retire_at IS NULL OR retire_at > $1 LIMIT 1', [now.toISOString()])
  return rows.length > 0
}

/** The channel the keyring's changes are announced on (PostgreSQL LISTEN/NOTIFY). */
export const KEYRING_CHANNEL = 'portal_keyring'

/** Tells the processes listening that the keyring changed: they read it again at once. */
export async function notifyKeyringChanged(db: Queryable, kid: string) {
  await db.query('SELECT pg_notify($1, $2)', [KEYRING_CHANNEL, kid])
}

/** Processes starting at once on one PostgreSQL: one makes (or imports) the first key, the others find it. */
export async function lockSigningKeys(tx: Queryable) {
  await tx.query('SELECT pg_advisory_xact_lock(7245002)')
}
