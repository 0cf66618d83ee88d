import { columns, type Queryable } from '../../db/db.ts'

/** A promo code as the table holds it, with whether it has expired by the database's clock. */
export interface PromoRow {
  id: number
  code: string
  discount: string
  platforms: string[]
  expires_at: Date | null
  max_activations: number | null
  activations_used: number
  disabled: boolean
  created_at: Date
}

const PROMO_COLUMNS = columns<PromoRow>()('id', 'code', 'discount', 'platforms', 'expires_at', 'max_activations', 'activations_used', 'disabled', 'created_at')

export type PromoState = PromoRow & { expired: boolean }

/** The code, compared without regard to case; `expired` by the database's clock. */
export async function findPromo(db: Queryable, code: string): Promise<PromoState | null> {
  const rows = await db.query<PromoState>(
    `SELECT ${PROMO_COLUMNS()}, (expires_at IS NOT NULL AND expires_at <= now()) AS expired
       FROM promo_codes WHERE lower(code) = lower($1)`,
    [code],
  )
  return rows[0] ?? null
}

export async function listPromos(db: Queryable): Promise<PromoState[]> {
  return db.query<PromoState>(`SELECT ${PROMO_COLUMNS()}, (expires_at IS NOT NULL AND expires_at <= now()) AS expired FROM promo_codes ORDER BY created_at, id`)
}

export interface NewPromo {
  code: string
  discount: string
  platforms: string[]
  expiresAt: Date | null
  maxActivations: number | null
}

/** Inserts a code; null when a code of the same letters (in any case) exists. */
export async function insertPromo(db: Queryable, p: NewPromo): Promise<PromoRow | null> {
  const rows = await db.query<PromoRow>(
    `INSERT INTO promo_codes (code, discount, platforms, expires_at, max_activations) VALUES ($1, $2, $3::text[], $4, $5)
     ON CONFLICT ((lower(code))) DO NOTHING RETURNING ${PROMO_COLUMNS()}`,
    [p.code, p.discount, p.platforms, p.expiresAt, p.maxActivations],
  )
  return rows[0] ?? null
}

/** Disables a code; false when there is none. Idempotent. */
export async function disablePromo(db: Queryable, code: string): Promise<boolean> {
  const rows = await db.query<{ id: number }>(`UPDATE promo_codes SET disabled = true WHERE lower(code) = lower($1) RETURNING id`, [code])
  return rows.length > 0
}

/**
 * Takes one activation of a usable code for a platform in one conditional statement: the row lock
 * makes parallel callers wait and each re-checks the count after the one before it, so no more than
 * max_activations are ever taken (and the table's CHECK would refuse it anyway). Null when the code
 * is missing, disabled, expired, not for the platform or used up; the caller asks findPromo why.
 */
export async function takeActivation(tx: Queryable, code: string, platform: string): Promise<PromoRow | null> {
  const rows = await tx.query<PromoRow>(
    `UPDATE promo_codes SET activations_used = activations_used + 1
      WHERE lower(code) = lower($1) AND NOT disabled
        AND (expires_at IS NULL OR expires_at > now())
        AND (cardinality(platforms) = 0 OR $2 = ANY(platforms))
        AND (max_activations IS NULL OR activations_used < max_activations)
      RETURNING ${PROMO_COLUMNS()}`,
    [code, platform],
  )
  return rows[0] ?? null
}

export interface ReservationRow {
  id: number
  promo_id: number
  client_id: number
  ref: string
  transaction_id: number | null
  reserved_at: Date
  confirmed_at: Date | null
  released_at: Date | null
}

const RESERVATION_COLUMNS = columns<ReservationRow>()('id', 'promo_id', 'client_id', 'ref', 'transaction_id', 'reserved_at', 'confirmed_at', 'released_at')

export async function insertReservation(
  tx: Queryable,
  r: { promoId: number; clientId: number; ref: string; transactionId: number | null },
): Promise<ReservationRow> {
  const rows = await tx.query<ReservationRow>(
    `INSERT INTO promo_reservations (promo_id, client_id, ref, transaction_id) VALUES ($1, $2, $3, $4) RETURNING ${RESERVATION_COLUMNS()}`,
    [r.promoId, r.clientId, r.ref, r.transactionId],
  )
  return rows[0]!
}

export async function findReservation(db: Queryable, ref: string): Promise<ReservationRow | null> {
  const rows = await db.query<ReservationRow>(`SELECT ${RESERVATION_COLUMNS()} FROM promo_reservations WHERE ref = $1`, [ref])
  return rows[0] ?? null
}

/** Ties a reservation to the transaction created after it; false when there is no such reservation. */
export async function linkReservation(tx: Queryable, ref: string, transactionId: number): Promise<boolean> {
  const rows = await tx.query<{ id: number }>(`UPDATE promo_reservations SET transaction_id = $2 WHERE ref = $1 RETURNING id`, [ref, transactionId])
  return rows.length > 0
}

/**
 * Gives a reservation's activation back to its code, once: a reservation already released or
 * confirmed (paid) is left alone. Parallel calls for one ref release it once (the second finds
 * released_at set after the first's row lock). Answers whether this call released it.
 */
export async function releaseReservation(tx: Queryable, ref: string): Promise<boolean> {
  const rows = await tx.query<{ id: number }>(
    `WITH r AS (
       UPDATE promo_reservations SET released_at = now()
        WHERE ref = $1 AND released_at IS NULL AND confirmed_at IS NULL
        RETURNING promo_id)
     UPDATE promo_codes p SET activations_used = p.activations_used - 1 FROM r WHERE p.id = r.promo_id RETURNING p.id`,
    [ref],
  )
  return rows.length > 0
}

/** releaseReservation for every open reservation tied to a transaction (its payment was declined or expired); answers how many. */
export async function releaseReservationsOfTransaction(tx: Queryable, transactionId: number): Promise<number> {
  const rows = await tx.query<{ id: number }>(
    `WITH r AS (
       UPDATE promo_reservations SET released_at = now()
        WHERE transaction_id = $1 AND released_at IS NULL AND confirmed_at IS NULL
        RETURNING promo_id)
     UPDATE promo_codes p SET activations_used = p.activations_used - n.count
       FROM (SELECT promo_id, count(*)::int AS count FROM r GROUP BY promo_id) n
      WHERE p.id = n.promo_id RETURNING p.id`,
    [transactionId],
  )
  return rows.length
}

/**
 * Locks a code's row for a reservation, so that one client's checkouts of the code are serialised:
 * the next one then sees the reservation the one before it made, and replaces it.
 */
export async function lockPromo(tx: Queryable, code: string): Promise<number | null> {
  const rows = await tx.query<{ id: number }>('SELECT id FROM promo_codes WHERE lower(code) = lower($1) FOR UPDATE', [code])
  return rows[0] ? Number(rows[0].id) : null
}

/** Releases a client's open reservations of a code (a new checkout replaces the old one's); answers how many. */
export async function releaseClientReservations(tx: Queryable, promoId: number, clientId: number): Promise<number> {
  const rows = await tx.query<{ id: number }>(
    `WITH r AS (
       UPDATE promo_reservations SET released_at = now()
        WHERE promo_id = $1 AND client_id = $2 AND released_at IS NULL AND confirmed_at IS NULL
        RETURNING promo_id)
     UPDATE promo_codes p SET activations_used = p.activations_used - (SELECT count(*)::int FROM r)
      WHERE p.id = $1 AND EXISTS (SELECT 1 FROM r) RETURNING p.id`,
    [promoId, clientId],
  )
  return rows.length
}

/**
 * Releases every reservation still open after `seconds`: a checkout nobody finished gives its
 * activation back. Its payment may still complete later: confirming it then counts it again.
 */
export async function releaseStaleReservations(db: Queryable, seconds: number): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH r AS (
       UPDATE promo_reservations SET released_at = now()
        WHERE released_at IS NULL AND confirmed_at IS NULL AND reserved_at < now() - make_interval(secs => $1)
        RETURNING promo_id),
     n AS (SELECT promo_id, count(*)::int AS count FROM r GROUP BY promo_id),
     u AS (UPDATE promo_codes p SET activations_used = p.activations_used - n.count FROM n WHERE p.id = n.promo_id RETURNING n.count)
     SELECT COALESCE(sum(count), 0)::int AS n FROM u`,
    [seconds],
  )
  return Number(rows[0]?.n ?? 0)
}

/** Marks a reservation spent for good (its purchase was paid); false when there is none to confirm. */
export async function confirmReservation(tx: Queryable, ref: string): Promise<boolean> {
  const rows = await tx.query<{ id: number }>(
    `UPDATE promo_reservations SET confirmed_at = now() WHERE ref = $1 AND released_at IS NULL AND confirmed_at IS NULL RETURNING id`,
    [ref],
  )
  return rows.length > 0
}

/**
 * Confirms the reservations tied to a transaction (its payment succeeded); answers how many. One that
 * was released meanwhile (its checkout was replaced or left for an hour, and then paid after all)
 * is counted again, up to the code's maximum: the customer paid the discounted price, so the payment
 * stands even when the code has no activation left.
 */
export async function confirmReservationsOfTransaction(tx: Queryable, transactionId: number): Promise<number> {
  const rows = await tx.query<{ n: number }>(
    `WITH old AS (
       SELECT id, promo_id, released_at IS NOT NULL AS retaken FROM promo_reservations
        WHERE transaction_id = $1 AND confirmed_at IS NULL FOR UPDATE),
     c AS (
       UPDATE promo_reservations pr SET confirmed_at = now(), released_at = NULL
         FROM old WHERE pr.id = old.id RETURNING old.promo_id, old.retaken),
     n AS (SELECT promo_id, count(*)::int AS count FROM c WHERE retaken GROUP BY promo_id),
     u AS (
       UPDATE promo_codes p SET activations_used = CASE WHEN p.max_activations IS NULL THEN p.activations_used + n.count
                                                       ELSE LEAST(p.max_activations, p.activations_used + n.count) END
         FROM n WHERE p.id = n.promo_id RETURNING p.id)
     SELECT (SELECT count(*)::int FROM c) AS n, (SELECT count(*) FROM u) AS u`,
    [transactionId],
  )
  return Number(rows[0]?.n ?? 0)
}
