import type { Cents } from '@portal/domain'
import type { Queryable } from '../../db/db.ts'
import type { PaymentEvent, SavedPaymentMethod } from '../../platform/payments/port.ts'
import { CREDIT_NOTE_COLUMNS, toCreditNote, type CreditNoteRow } from '../transactions/service.ts'

// ---- the ledger: every cent a client's balance moves, one entry per transaction ----

/**
 * Moves a client's balance by `amountCents` (positive credits, negative debits) with its ledger
 * entry, in the caller's transaction. One conditional UPDATE: parallel debits never take the
 * balance below zero (null answers "not enough"), and the entry's unique transaction id means a
 * transaction moves the balance once, whoever retries it.
 */
export async function applyLedgerEntry(tx: Queryable, clientId: number, transactionId: number, amountCents: Cents): Promise<Cents | null> {
  const [row] = await tx.query<{ balance_cents: string | number }>(
    // a credit pays what is owed first (a refunded top-up's spent credit); a debit waits while anything is owed
    `UPDATE clients SET balance_cents = balance_cents + CASE WHEN $2 > 0 THEN GREATEST($2 - owed_cents, 0) ELSE $2 END,
                        owed_cents = CASE WHEN $2 > 0 THEN GREATEST(owed_cents - $2, 0) ELSE owed_cents END
      WHERE id = $1 AND ($2 > 0 OR (balance_cents + $2 >= 0 AND owed_cents = 0)) RETURNING balance_cents`,
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

/**
 * The balance two ways: the kept column and the ledger's sum (they are equal; tests and audits check
 * it). When something is owed (a refunded top-up's spent credit) the ledger's sum is the balance
 * minus what is owed: `ledger` answers that sum, `owed` what is owed.
 */
export async function balanceAndLedgerSum(db: Queryable, clientId: number): Promise<{ balance: Cents; ledger: Cents }> {
  const [row] = await db.query<{ balance: string | number; ledger: string | number; owed: string | number }>(
    `SELECT c.balance_cents AS balance, c.owed_cents AS owed, COALESCE((SELECT sum(amount_cents) FROM ledger_entries WHERE client_id = c.id), 0) AS ledger
       FROM clients c WHERE c.id = $1`,
    [clientId],
  )
  // the ledger's sum plus what is owed: equal to the balance whatever was refunded
  return { balance: Number(row?.balance ?? 0), ledger: Number(row?.ledger ?? 0) + Number(row?.owed ?? 0) }
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

// ---- reversals: credit notes, what is owed, suspended licenses ----

/** What was refunded of a transaction so far (its credit notes not restored). */
export async function refundedCents(tx: Queryable, transactionId: number): Promise<number> {
  const [row] = await tx.query<{ sum: string | number | null }>(
    'SELECT COALESCE(sum(amount_cents), 0) AS sum FROM credit_notes WHERE transaction_id = $1 AND restored_at IS NULL',
    [transactionId],
  )
  return Number(row?.sum ?? 0)
}

/** The open dispute of a transaction (its credit note not restored), locked. */
export async function lockOpenDispute(tx: Queryable, transactionId: number): Promise<CreditNoteRow | null> {
  const [row] = await tx.query<CreditNoteRow>(
    `SELECT ${CREDIT_NOTE_COLUMNS} FROM credit_notes WHERE transaction_id = $1 AND kind = 'dispute' AND restored_at IS NULL ORDER BY id DESC LIMIT 1 FOR UPDATE`,
    [transactionId],
  )
  return row ? toCreditNote(row) : null
}

export async function markCreditNoteRestored(tx: Queryable, id: number, at: Date) {
  await tx.query('UPDATE credit_notes SET restored_at = $2 WHERE id = $1', [id, at])
}

/**
 * Takes `cents` back from a client's balance for a credit note, in the caller's transaction (which
 * holds the client's row): what the balance has goes, the rest is owed. The ledger's entry is the
 * whole amount, so the ledger's sum stays the balance minus what is owed. Answers the shortfall.
 */
export async function debitForCreditNote(tx: Queryable, clientId: number, transactionId: number, creditNoteId: number, cents: number): Promise<number> {
  const [row] = await tx.query<{ balance: string | number; owed: string | number }>(
    `UPDATE clients SET owed_cents = owed_cents + GREATEST($2 - balance_cents, 0), balance_cents = GREATEST(balance_cents - $2, 0)
      WHERE id = $1 RETURNING balance_cents AS balance, owed_cents AS owed`,
    [clientId, cents],
  )
  await tx.query('INSERT INTO ledger_entries (client_id, transaction_id, credit_note_id, amount_cents, balance_after_cents) VALUES ($1, $2, $3, $4, $5)', [
    clientId,
    transactionId,
    creditNoteId,
    -cents,
    Number(row!.balance),
  ])
  return Number(row!.owed)
}

/** A won dispute gives a top-up's credit back: what is owed is paid from it first, the rest credits the balance. */
export async function creditForRestoredNote(tx: Queryable, clientId: number, transactionId: number, creditNoteId: number, cents: number) {
  const [row] = await tx.query<{ balance: string | number }>(
    `UPDATE clients SET balance_cents = balance_cents + GREATEST($2 - owed_cents, 0), owed_cents = GREATEST(owed_cents - $2, 0)
      WHERE id = $1 RETURNING balance_cents AS balance`,
    [clientId, cents],
  )
  await tx.query('INSERT INTO ledger_entries (client_id, transaction_id, credit_note_id, amount_cents, balance_after_cents) VALUES ($1, $2, $3, $4, $5)', [
    clientId,
    transactionId,
    creditNoteId,
    cents,
    Number(row!.balance),
  ])
}

/** What a client owes (a refunded top-up's spent credit). */
export async function owedCents(db: Queryable, clientId: number): Promise<number> {
  const [row] = await db.query<{ owed: string | number }>('SELECT owed_cents AS owed FROM clients WHERE id = $1', [clientId])
  return Number(row?.owed ?? 0)
}

/**
 * Suspends the licenses a transaction paid for with the reason: the license it names, its group's
 * licenses, and the licenses generated from the capacity it delivered (a basket order's). Answers
 * their ids.
 */
export async function suspendLicensesOf(tx: Queryable, transactionId: number, clientId: number, creditNoteId: number, reason: string): Promise<number[]> {
  const rows = await tx.query<{ id: string | number }>(
    `UPDATE licenses l SET status = 1, suspended_reason = $3, suspended_by_credit_note = $4
       FROM transactions t
      WHERE t.id = $1 AND l.client_id = $2 AND l.revoked_at IS NULL AND l.status = 0
        AND (l.id = t.license_id OR l.group_id = t.group_id
             OR l.purchase_capacity_id IN (SELECT c.id FROM purchase_capacity c WHERE c.transaction_id = t.id))
      RETURNING l.id`,
    [transactionId, clientId, reason, creditNoteId],
  )
  return rows.map((r) => Number(r.id))
}

/**
 * The renewals of licenses suspended because their payment was taken back end (their card is not
 * charged again for them), recorded under the credit note. Answers how many ended.
 */
export async function endSubscriptionsOf(tx: Queryable, licenseIds: readonly number[], creditNoteId: number): Promise<number> {
  if (licenseIds.length === 0) return 0
  const rows = await tx.query(
    `UPDATE subscriptions SET state = 'ended', next_attempt_at = NULL, ended_by_credit_note = $2, updated_at = now()
      WHERE license_id = ANY($1::bigint[]) AND state IN ('active', 'past_due') RETURNING id`,
    [licenseIds, creditNoteId],
  )
  return rows.length
}

/** A dispute won: the renewals its credit note ended run again, next at their license's expiry. */
export async function restartSubscriptionsOf(tx: Queryable, creditNoteId: number) {
  await tx.query(
    `UPDATE subscriptions s SET state = 'active', next_attempt_at = l.expire_date, ended_by_credit_note = NULL, updated_at = now()
       FROM licenses l WHERE s.ended_by_credit_note = $1 AND l.id = s.license_id`,
    [creditNoteId],
  )
}

/** Gives back the licenses a credit note suspended (a dispute won); answers their ids. */
export async function restoreLicensesOf(tx: Queryable, creditNoteId: number): Promise<number[]> {
  const rows = await tx.query<{ id: string | number }>(
    `UPDATE licenses SET status = 0, suspended_reason = NULL, suspended_by_credit_note = NULL WHERE suspended_by_credit_note = $1 RETURNING id`,
    [creditNoteId],
  )
  return rows.map((r) => Number(r.id))
}

/**
 * The transaction a provider's payment settled: by its checkout's id, or by the provider's id of the
 * payment (`paymentRef`): the event it was credited under (PayPal's capture id), the PaymentIntent
 * an off-session charge is, or the one stored for a paid Checkout Session (Stripe's pi_…).
 */
export async function transactionOfPayment(db: Queryable, provider: string, sessionId: string | null, paymentRef: string | null): Promise<number | null> {
  const [row] = await db.query<{ id: string | number }>(
    `SELECT id FROM transactions WHERE provider = $1 AND provider_session_id = $2
     UNION ALL
     SELECT id FROM transactions WHERE provider = $1 AND (provider_session_id = $3 OR provider_payment_ref = $3)
     UNION ALL
     SELECT transaction_id FROM payment_events WHERE provider = $1 AND event_id = $3 AND transaction_id IS NOT NULL
     LIMIT 1`,
    [provider, sessionId, paymentRef],
  )
  return row ? Number(row.id) : null
}
