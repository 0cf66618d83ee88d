import { columns, type Queryable } from '../../db/db.ts'
import type { PaymentEvent, SavedPaymentMethod } from '../../platform/payments/port.ts'

/**
 * Keeps a payment method a provider saved for the client; the same method saved again (a second
 * subscription on one card) is the same row. Answers its id.
 */
export async function savePaymentMethod(tx: Queryable, clientId: number, m: SavedPaymentMethod): Promise<number> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO payment_methods (client_id, provider, source, token, customer_ref, card_brand, card_last4, paypal_email)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (provider, token) DO UPDATE SET customer_ref = COALESCE(EXCLUDED.customer_ref, payment_methods.customer_ref)
     RETURNING id, client_id`,
    [clientId, m.provider, m.source, m.token, m.customerRef ?? null, m.cardBrand ?? null, m.cardLast4 ?? null, m.paypalEmail ?? null],
  )
  return rows[0]!.id
}

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

/**
 * Records a provider's event as applied; false when it was recorded before (the same webhook again,
 * or in parallel: the primary key lets one of them through). Runs in the transaction that applies it.
 */
export async function recordPaymentEvent(tx: Queryable, event: PaymentEvent, transactionId: number | null): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO payment_events (provider, event_id, transaction_id, outcome) VALUES ($1, $2, $3, $4)
     ON CONFLICT (provider, event_id) DO NOTHING RETURNING event_id`,
    [event.provider, event.eventId, transactionId, event.outcome],
  )
  return rows.length === 1
}

// ---- the sandbox provider's checkouts ----

export type SandboxStatus = 'open' | 'paid' | 'declined' | 'cancelled' | 'expired'

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
  metadata: { transaction_id?: number; expires_at?: string }
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

/** open → paid, declined or cancelled, with the signed webhook it sends; false when it was no longer open. */
export async function closeSandboxSession(tx: Queryable, id: string, status: 'paid' | 'declined' | 'cancelled', event: SandboxSignedEvent): Promise<boolean> {
  const rows = await tx.query(`UPDATE sandbox_sessions SET status = $2, last_event = $3, completed_at = now() WHERE id = $1 AND status = 'open' RETURNING id`, [
    id,
    status,
    JSON.stringify(event),
  ])
  return rows.length === 1
}

/** open → expired (the checkout ran out of time); false when it was closed before */
export async function expireSandboxSession(tx: Queryable, id: string): Promise<boolean> {
  const rows = await tx.query(`UPDATE sandbox_sessions SET status = 'expired', completed_at = now() WHERE id = $1 AND status = 'open' RETURNING id`, [id])
  return rows.length === 1
}
