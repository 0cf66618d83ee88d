import { columns, type Queryable } from '../../db/db.ts'

export interface PaymentMethodRow {
  id: number
  client_id: number
  provider: 'sandbox' | 'stripe' | 'paypal'
  source: 'stripe' | 'paypal'
  token: string
  customer_ref: string | null
  card_brand: string | null
  card_last4: string | null
  paypal_email: string | null
}

export async function findPaymentMethod(db: Queryable, clientId: number, id: number): Promise<PaymentMethodRow | null> {
  const rows = await db.query<PaymentMethodRow>(
    `SELECT id, client_id, provider, source, token, customer_ref, card_brand, card_last4, paypal_email
       FROM payment_methods WHERE id = $1 AND client_id = $2`,
    [id, clientId],
  )
  return rows[0] ?? null
}

// ---- the sandbox provider's checkouts ----

export type SandboxStatus = 'open' | 'pending' | 'paid' | 'declined' | 'cancelled' | 'expired'

/** The signed webhook a sandbox checkout sent last: the raw body and its X-Sandbox-Signature header. */
export interface SandboxSignedEvent {
  body: string
  signature: string
}

export interface SandboxSessionRow {
  id: string
  source: 'stripe' | 'paypal'
  mode: 'payment' | 'subscription'
  merchant: string
  customer_email: string
  lines: { description: string; quantity: number; amount_cents: number }[]
  amount_cents: number
  currency: string
  success_url: string
  cancel_url: string
  metadata: { transaction_id?: number; expires_at?: string; interval?: 'month' | 'year'; held_card?: string | null }
  status: SandboxStatus
  last_event: SandboxSignedEvent | null
  created_at: Date
  completed_at: Date | null
}

const SANDBOX_COLUMNS = columns<SandboxSessionRow>()(
  'id',
  'source',
  'mode',
  'merchant',
  'customer_email',
  'lines',
  'amount_cents',
  'currency',
  'success_url',
  'cancel_url',
  'metadata',
  'status',
  'last_event',
  'created_at',
  'completed_at',
)

const toSandboxRow = (r: SandboxSessionRow): SandboxSessionRow => ({ ...r, amount_cents: Number(r.amount_cents) })

export async function insertSandboxSession(
  db: Queryable,
  s: Pick<SandboxSessionRow, 'id' | 'source' | 'mode' | 'merchant' | 'customer_email' | 'lines' | 'amount_cents' | 'success_url' | 'cancel_url' | 'metadata'>,
) {
  await db.query(
    `INSERT INTO sandbox_sessions (id, source, mode, merchant, customer_email, lines, amount_cents, success_url, cancel_url, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [s.id, s.source, s.mode, s.merchant, s.customer_email, JSON.stringify(s.lines), s.amount_cents, s.success_url, s.cancel_url, JSON.stringify(s.metadata)],
  )
}

/** A sandbox checkout; `lock` holds its row for the caller's transaction. */
export async function findSandboxSession(db: Queryable, id: string, lock = false): Promise<SandboxSessionRow | null> {
  const [row] = await db.query<SandboxSessionRow>(`SELECT ${SANDBOX_COLUMNS()} FROM sandbox_sessions WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id])
  return row ? toSandboxRow(row) : null
}

/**
 * open (or, settling a held payment, pending) → paid, declined or cancelled, with the signed webhook
 * it sends; false when it was no longer in the state it was taken from.
 */
export async function closeSandboxSession(
  tx: Queryable,
  id: string,
  status: 'paid' | 'declined' | 'cancelled',
  event: SandboxSignedEvent,
  from: 'open' | 'pending' = 'open',
): Promise<boolean> {
  const rows = await tx.query(`UPDATE sandbox_sessions SET status = $2, last_event = $3, completed_at = now() WHERE id = $1 AND status = $4 RETURNING id`, [
    id,
    status,
    JSON.stringify(event),
    from,
  ])
  return rows.length === 1
}

/** open → pending: the payment is held for review (with the card it was paid with), no webhook yet; false when it was no longer open */
export async function holdSandboxSession(tx: Queryable, id: string, heldCard: string | null): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE sandbox_sessions SET status = 'pending', metadata = metadata || $2::jsonb WHERE id = $1 AND status = 'open' RETURNING id`,
    [id, JSON.stringify({ held_card: heldCard })],
  )
  return rows.length === 1
}

/** open → expired (the checkout ran out of time); false when it was closed before */
export async function expireSandboxSession(tx: Queryable, id: string): Promise<boolean> {
  const rows = await tx.query(`UPDATE sandbox_sessions SET status = 'expired', completed_at = now() WHERE id = $1 AND status = 'open' RETURNING id`, [id])
  return rows.length === 1
}

// ---- the sandbox provider's saved methods and off-session charges ----

export interface SandboxMethodRow {
  token: string
  source: 'stripe' | 'paypal'
  card_brand: string | null
  card_last4: string | null
  paypal_email: string | null
  decline_off_session: boolean
  /** every off-session charge needs the customer's authentication (authentication_required) */
  authenticate_off_session: boolean
  session_id: string
}

export async function insertSandboxMethod(tx: Queryable, m: SandboxMethodRow) {
  await tx.query(
    `INSERT INTO sandbox_payment_methods (token, source, card_brand, card_last4, paypal_email, decline_off_session, authenticate_off_session, session_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [m.token, m.source, m.card_brand, m.card_last4, m.paypal_email, m.decline_off_session, m.authenticate_off_session, m.session_id],
  )
}

export async function findSandboxMethod(db: Queryable, token: string): Promise<SandboxMethodRow | null> {
  const [row] = await db.query<SandboxMethodRow>(
    `SELECT token, source, card_brand, card_last4, paypal_email, decline_off_session, authenticate_off_session, session_id
       FROM sandbox_payment_methods WHERE token = $1`,
    [token],
  )
  return row ?? null
}

export interface SandboxChargeRow {
  id: string
  idempotency_key: string
  token: string
  transaction_id: number | null
  amount_cents: number
  outcome: 'paid' | 'declined'
  decline_reason: string | null
  payment_method: string | null
  event_id: string
}

const toChargeRow = (r: SandboxChargeRow): SandboxChargeRow => ({
  ...r,
  amount_cents: Number(r.amount_cents),
  transaction_id: r.transaction_id === null ? null : Number(r.transaction_id),
})

/**
 * Records a sandbox charge under its idempotency key, or (the key was used before, or is being used
 * at this moment by another call: the unique key makes it wait for that one) answers the stored one.
 */
export async function insertOrFindSandboxCharge(db: Queryable, c: SandboxChargeRow): Promise<SandboxChargeRow> {
  const cols = 'id, idempotency_key, token, transaction_id, amount_cents, outcome, decline_reason, payment_method, event_id'
  const [inserted] = await db.query<SandboxChargeRow>(
    `INSERT INTO sandbox_charges (${cols}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (idempotency_key) DO NOTHING RETURNING ${cols}`,
    [c.id, c.idempotency_key, c.token, c.transaction_id, c.amount_cents, c.outcome, c.decline_reason, c.payment_method, c.event_id],
  )
  if (inserted) return toChargeRow(inserted)
  const [existing] = await db.query<SandboxChargeRow>(`SELECT ${cols} FROM sandbox_charges WHERE idempotency_key = $1`, [c.idempotency_key])
  if (!existing) throw new Error(`sandbox charge ${c.idempotency_key} neither inserted nor found`)
  return toChargeRow(existing)
}
