import type { ActivityDetails, ActivityKind } from '@portal/domain'
import { columns, type Queryable } from '../../db/db.ts'
import { currentActor } from '../../platform/actor.ts'

export interface NewActivity {
  clientId: number
  licenseId?: number | null
  groupId?: number | null
  kind: ActivityKind
  details?: ActivityDetails
  /** business time of the change (ctx.clock); the database's now() when the caller has none */
  at?: Date | null
}

/**
 * Appends one line to the client's history, in the transaction of the change it records; its actor
 * is the person acting in the request (platform/actor.ts), none for the system.
 */
export async function recordActivity(tx: Queryable, e: NewActivity) {
  await tx.query(
    `INSERT INTO activity_events (client_id, license_id, group_id, kind, details, created_at, actor_id)
     VALUES ($1, $2, $3, $4, $5::jsonb, COALESCE($6::timestamptz, now()), $7)`,
    [e.clientId, e.licenseId ?? null, e.groupId ?? null, e.kind, JSON.stringify(e.details ?? {}), e.at ?? null, currentActor()],
  )
}

/** The same line for each of many licenses (the CLI's bulk creation): one statement. */
export async function recordActivityForLicenses(tx: Queryable, licenseIds: readonly number[], e: Omit<NewActivity, 'licenseId'>) {
  if (licenseIds.length === 0) return
  await tx.query(
    `INSERT INTO activity_events (client_id, license_id, group_id, kind, details, created_at, actor_id)
     SELECT $1, id, $3, $4, $5::jsonb, COALESCE($6::timestamptz, now()), $7 FROM unnest($2::bigint[]) AS id`,
    [e.clientId, licenseIds, e.groupId ?? null, e.kind, JSON.stringify(e.details ?? {}), e.at ?? null, currentActor()],
  )
}

/**
 * The line of a paid transaction, read from the transaction itself: a renewal is `renewed`, a
 * reactivation `reactivated`, a purchase or an upgrade `paid`; money that only moves the balance
 * (top-ups, staff adjustments) is the transactions screen's, not the history's. Called after what
 * the payment did (a renewal's new end is the license's `until`).
 */
export async function recordPaid(tx: Queryable, transactionId: number, at?: Date | null) {
  await tx.query(
    `INSERT INTO activity_events (client_id, license_id, group_id, kind, details, created_at, actor_id)
     SELECT t.client_id, t.license_id, t.group_id,
            CASE t.kind WHEN 'renewal' THEN 'renewed' WHEN 'reactivation' THEN 'reactivated' ELSE 'paid' END,
            jsonb_build_object('transaction_id', t.id, 'amount_cents', t.amount_cents, 'description', t.description,
                               'payment_method', t.payment_method, 'transaction_kind', t.kind, 'until', l.expire_date),
            COALESCE($2::timestamptz, now()), $3
       FROM transactions t LEFT JOIN licenses l ON l.id = t.license_id
      WHERE t.id = $1 AND t.status = 0 AND t.kind NOT IN ('top_up', 'adjustment')`,
    [transactionId, at ?? null, currentActor()],
  )
}

export interface ActivityRow {
  id: number
  kind: ActivityKind
  license_id: number | null
  group_id: number | null
  details: ActivityDetails
  created_at: Date
  /** the license's title and product now, for its display name */
  license_title: string | null
  license_product: string | null
  /** the e-mail of the person who acted, null for the system */
  actor_email: string | null
}
const EVENT_COLUMNS = columns<Omit<ActivityRow, 'license_title' | 'license_product' | 'actor_email'>>()(
  'id',
  'kind',
  'license_id',
  'group_id',
  'details',
  'created_at',
)

const SELECT = `SELECT ${EVENT_COLUMNS('e')}, l.title AS license_title, l.product AS license_product, a.email AS actor_email
                  FROM activity_events e LEFT JOIN licenses l ON l.id = e.license_id LEFT JOIN clients a ON a.id = e.actor_id`

/** A license's history, newest first (the caller has checked the license is the client's). */
export async function listLicenseActivity(db: Queryable, clientId: number, licenseId: number): Promise<ActivityRow[]> {
  return db.query<ActivityRow>(`${SELECT} WHERE e.client_id = $1 AND e.license_id = $2 ORDER BY e.created_at DESC, e.id DESC`, [clientId, licenseId])
}

/** One page of the client's history, newest first; `limit` null: all of it (the export). */
export async function listClientActivity(db: Queryable, clientId: number, offset: number, limit: number | null): Promise<ActivityRow[]> {
  return db.query<ActivityRow>(`${SELECT} WHERE e.client_id = $1 ORDER BY e.created_at DESC, e.id DESC OFFSET $2 LIMIT $3`, [clientId, offset, limit])
}

export async function countClientActivity(db: Queryable, clientId: number): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM activity_events WHERE client_id = $1', [clientId])
  return row!.n
}

/** Whether the license is the client's own and not revoked (another's history is not found). */
export async function ownsLicense(db: Queryable, clientId: number, licenseId: number): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM licenses WHERE id = $1 AND client_id = $2 AND revoked_at IS NULL', [licenseId, clientId])
  return rows.length > 0
}
