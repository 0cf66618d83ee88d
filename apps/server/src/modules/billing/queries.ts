import type { Cents } from '@portal/domain'
import type { Queryable } from '../../db/db.ts'
import type { PaymentEvent, SavedPaymentMethod } from '../../platform/payments/port.ts'

// ---- the ledger: every cent a client's balance moves, one entry per transaction ----

/**
 * Moves a client's balance by `amountCents` (positive credits, negative debits) with its ledger
 * entry, in the caller's transaction. One conditional UPDATE: parallel debits never take the
 * balance below zero (null answers "not enough"), and the entry's unique transaction id means a
 * transaction moves the balance once, whoever retries it.
 */
export async function applyLedgerEntry(tx: Queryable, clientId: number, transactionId: number, amountCents: Cents): Promise<Cents | null> {
  const [row] = await tx.query<{ balance_cents: string | number }>(
    'UPDATE clients SET balance_cents = balance_cents + $2 WHERE id = $1 AND balance_cents + $2 >= 0 RETURNING balance_cents',
    [clientId, amountCents],
  )
  if (!row) return null
  const balance = Number(row.balance_cents)
  await tx.query('INSERT INTO ledger_entries (client_id, transaction_id, amount_cents, balance_after_cents) VALUES ($1, $2, $3, $4)', [
    clientId,
    transactionId,
    amountCents,
    balance,
  ])
  return balance
}

/** The balance two ways: the kept column and the ledger's sum (they are equal; tests and audits check it). */
export async function balanceAndLedgerSum(db: Queryable, clientId: number): Promise<{ balance: Cents; ledger: Cents }> {
  const [row] = await db.query<{ balance: string | number; ledger: string | number }>(
    `SELECT c.balance_cents AS balance, COALESCE((SELECT sum(amount_cents) FROM ledger_entries WHERE client_id = c.id), 0) AS ledger
       FROM clients c WHERE c.id = $1`,
    [clientId],
  )
  return { balance: Number(row?.balance ?? 0), ledger: Number(row?.ledger ?? 0) }
}

// ---- the payment event log: each provider event applied once ----

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

/**
 * A saved method the provider no longer keeps (PayPal deleted the vault token): the subscriptions
 * and groups that renewed on it keep no method (their renewal then asks the customer for one) and
 * the row goes. Answers the client it was of, or null when the portal did not know it.
 */
export async function deletePaymentMethod(tx: Queryable, provider: string, token: string): Promise<{ id: number; client_id: number } | null> {
  const [m] = await tx.query<{ id: number; client_id: number }>('SELECT id, client_id FROM payment_methods WHERE provider = $1 AND token = $2 FOR UPDATE', [
    provider,
    token,
  ])
  if (!m) return null
  await tx.query('UPDATE subscriptions SET payment_method_id = NULL WHERE payment_method_id = $1', [m.id])
  await tx.query('UPDATE license_groups SET payment_method_id = NULL WHERE payment_method_id = $1', [m.id])
  await tx.query('DELETE FROM payment_methods WHERE id = $1', [m.id])
  return { id: Number(m.id), client_id: Number(m.client_id) }
}
