import type { Cents, ExternalPaymentSource, PaymentProviderName, PaymentSource } from '@portal/domain'
import { columns, type Queryable } from '../../db/db.ts'

/** A line of an invoice: what was bought, how many, for how much in total. */
export interface TransactionLine {
  description: string
  quantity: number
  amount_cents: Cents
  /** a basket line: the catalogue entry it sells and the os of its licenses, for fulfilment */
  entry_id?: string
  os_type?: number | null
  /** a discount line (a promo code): a negative amount, nothing to fulfil */
  kind?: 'discount'
  /** a custom Face SDK line: the components and database size the customer chose */
  license_content?: Record<string, number>
  /** a renewal: the service period it pays for (ISO dates) */
  period?: { from: string; to: string }
}

export interface TransactionRow {
  id: number
  client_id: number
  type: number
  status: number
  amount_cents: Cents
  kind: string
  description: string
  lines: TransactionLine[]
  payment_source: string
  provider: string | null
  provider_session_id: string | null
  payment_method: string | null
  invoice_number: number | null
  staff_id: number | null
  reason: string | null
  expires_at: Date | null
  paid_at: Date | null
  created_at: Date
}

export const TRANSACTION_COLUMNS = columns<TransactionRow>()(
  'id',
  'client_id',
  'type',
  'status',
  'amount_cents',
  'kind',
  'description',
  'lines',
  'payment_source',
  'provider',
  'provider_session_id',
  'payment_method',
  'invoice_number',
  'staff_id',
  'reason',
  'expires_at',
  'paid_at',
  'created_at',
)

/** bigint columns come back as strings from node-postgres: numbers for the domain */
function toRow(r: TransactionRow): TransactionRow {
  return {
    ...r,
    id: Number(r.id),
    client_id: Number(r.client_id),
    amount_cents: Number(r.amount_cents),
    invoice_number: r.invoice_number === null ? null : Number(r.invoice_number),
    staff_id: r.staff_id === null ? null : Number(r.staff_id),
    expires_at: r.expires_at === null ? null : new Date(r.expires_at),
    paid_at: r.paid_at === null ? null : new Date(r.paid_at),
    created_at: new Date(r.created_at),
  }
}

export interface NewTransaction {
  clientId: number
  type: 0 | 1
  status: 0 | 1
  amountCents: Cents
  kind: string
  description: string
  lines: TransactionLine[]
  paymentSource: PaymentSource | ExternalPaymentSource | 'staff'
  paymentMethod?: string | null
  staffId?: number | null
  reason?: string | null
  expiresAt?: Date | null
}

/**
 * The next invoice number. The counter's row stays locked until the caller's transaction ends, so
 * numbers run without gaps: a rolled-back payment gives its number back.
 */
export async function nextInvoiceNumber(tx: Queryable): Promise<number> {
  const [row] = await tx.query<{ last: string | number }>(
    'INSERT INTO invoice_counter (id, last) VALUES (true, 1) ON CONFLICT (id) DO UPDATE SET last = invoice_counter.last + 1 RETURNING last',
  )
  return Number(row!.last)
}

/** A new transaction. An ok one (paid from the balance, a staff adjustment) comes with its invoice number. */
export async function insertTransaction(tx: Queryable, t: NewTransaction & { invoiceNumber: number | null }): Promise<TransactionRow> {
  const [row] = await tx.query<TransactionRow>(
    `INSERT INTO transactions (client_id, type, status, amount_cents, kind, description, lines, payment_source, payment_method,
                               staff_id, reason, expires_at, invoice_number, paid_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, CASE WHEN $13::bigint IS NULL THEN NULL ELSE now() END)
     RETURNING ${TRANSACTION_COLUMNS()}`,
    [
      t.clientId,
      t.type,
      t.status,
      t.amountCents,
      t.kind,
      t.description,
      JSON.stringify(t.lines),
      t.paymentSource,
      t.paymentMethod ?? null,
      t.staffId ?? null,
      t.reason ?? null,
      t.expiresAt ?? null,
      t.invoiceNumber,
    ],
  )
  if (t.invoiceNumber !== null) await freezeInvoice(tx, Number(row!.id), t.invoiceNumber)
  return toRow(row!)
}

/** The provider's checkout that will pay a pending transaction. */
export async function setProviderSession(tx: Queryable, id: number, provider: PaymentProviderName, sessionId: string) {
  await tx.query('UPDATE transactions SET provider = $2, provider_session_id = $3, updated_at = now() WHERE id = $1', [id, provider, sessionId])
}

/**
 * Keeps the provider's id of the payment a checkout made (Stripe's PaymentIntent of a Checkout
 * Session): the provider's refund and dispute events name it (migration 0034_provider_payment_ref.sql).
 */
export async function setProviderPaymentRef(tx: Queryable, id: number, ref: string) {
  await tx.query('UPDATE transactions SET provider_payment_ref = $2 WHERE id = $1 AND provider_payment_ref IS DISTINCT FROM $2', [id, ref])
}

/** A pending transaction of a provider's checkout, locked for the caller's transaction. */
export async function lockTransactionBySession(tx: Queryable, provider: PaymentProviderName, sessionId: string): Promise<TransactionRow | null> {
  const [row] = await tx.query<TransactionRow>(
    `SELECT ${TRANSACTION_COLUMNS()} FROM transactions WHERE provider = $1 AND provider_session_id = $2 FOR UPDATE`,
    [provider, sessionId],
  )
  return row ? toRow(row) : null
}

export async function lockTransaction(tx: Queryable, id: number): Promise<TransactionRow | null> {
  const [row] = await tx.query<TransactionRow>(`SELECT ${TRANSACTION_COLUMNS()} FROM transactions WHERE id = $1 FOR UPDATE`, [id])
  return row ? toRow(row) : null
}

/** pending (or expired, when the payment came late) → ok, with its invoice number and how it was paid */
export async function markTransactionPaid(tx: Queryable, id: number, invoiceNumber: number, paymentMethod: string | null) {
  await tx.query(
    `UPDATE transactions SET status = 0, invoice_number = $2, payment_method = COALESCE($3, payment_method), paid_at = now(), updated_at = now()
      WHERE id = $1 AND status IN (1, 3)`,
    [id, invoiceNumber, paymentMethod],
  )
  await freezeInvoice(tx, id, invoiceNumber)
}

/**
 * The issued invoice as a record: the seller as configured now, the buyer's name, e-mail and (for a
 * corporate account) company as they are now, the lines and the totals. Every download prints this
 * copy; nothing done to the profile or the settings later changes it. Nothing happens when the
 * transaction does not carry that number (it was paid before, under another).
 */
async function freezeInvoice(tx: Queryable, id: number, invoiceNumber: number) {
  await tx.query(
    `INSERT INTO invoice_records (transaction_id, number, issued_at, seller, buyer, lines, total_cents, payment_method)
     SELECT t.id, t.invoice_number, COALESCE(t.paid_at, now()), (SELECT seller FROM invoice_seller),
            jsonb_build_object(
              'name', btrim(c.name || ' ' || c.last_name),
              'email', c.email,
              'company', CASE WHEN COALESCE((c.options->>'corporate_member')::boolean, false) THEN c.company END),
            t.lines, t.amount_cents, t.payment_method
       FROM transactions t JOIN clients c ON c.id = t.client_id
      WHERE t.id = $1 AND t.invoice_number = $2
     ON CONFLICT DO NOTHING`,
    [id, invoiceNumber],
  )
}

/** What an issued invoice prints, as it was when it was issued. */
export interface InvoiceRecordRow {
  number: number
  issued_at: Date
  seller: { name?: string; address?: string; tax_id?: string; email?: string; country?: string } | null
  buyer: { name: string; email: string; company: { name?: string; address?: string; vat?: string } | null }
  lines: TransactionLine[]
  total_cents: number
  payment_method: string | null
}

export async function findInvoiceRecord(db: Queryable, transactionId: number): Promise<InvoiceRecordRow | null> {
  const [row] = await db.query<InvoiceRecordRow>(
    'SELECT number, issued_at, seller, buyer, lines, total_cents, payment_method FROM invoice_records WHERE transaction_id = $1',
    [transactionId],
  )
  return row ? { ...row, number: Number(row.number), total_cents: Number(row.total_cents), issued_at: new Date(row.issued_at) } : null
}

/** The seller that invoices issued from now on print: written at each start, when it changed. */
export async function recordInvoiceSeller(db: Queryable, seller: object) {
  await db.query(
    `INSERT INTO invoice_seller (id, seller) VALUES (true, $1::jsonb)
     ON CONFLICT (id) DO UPDATE SET seller = EXCLUDED.seller, updated_at = now() WHERE invoice_seller.seller IS DISTINCT FROM EXCLUDED.seller`,
    [JSON.stringify(seller)],
  )
}

/** pending → declined (2) or expired (3); a settled transaction stays as it is */
export async function closeTransaction(tx: Queryable, id: number, status: 2 | 3) {
  await tx.query('UPDATE transactions SET status = $2, updated_at = now() WHERE id = $1 AND status = 1', [id, status])
}

/** Which of a client's transactions: a status code, a creation window [from, to), a page (no limit: all from offset). */
export interface TransactionFilter {
  status?: number
  from?: Date
  to?: Date
  offset?: number
  limit?: number
}

/**
 * The WHERE of a filter and its parameters, with only the conditions it has: a plan kept for the
 * statement then never reads a column it was not asked about (the unfiltered count stays an
 * index-only scan of the client's rows).
 */
function filtered(clientId: number, f: TransactionFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [clientId]
  const where = ['client_id = $1']
  if (f.status !== undefined) where.push(`status = $${params.push(f.status)}`)
  if (f.from !== undefined) where.push(`created_at >= $${params.push(f.from)}`)
  if (f.to !== undefined) where.push(`created_at < $${params.push(f.to)}`)
  return { where: where.join(' AND '), params }
}

/** The client's transactions that match, newest first, read through the (client_id, created_at) index. */
export async function listTransactions(db: Queryable, clientId: number, f: TransactionFilter = {}): Promise<TransactionRow[]> {
  const { where, params } = filtered(clientId, f)
  const rows = await db.query<TransactionRow>(
    `SELECT ${TRANSACTION_COLUMNS()} FROM transactions WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, f.limit ?? null, f.offset ?? 0],
  )
  return rows.map(toRow)
}

/** How many of the client's transactions match, over every page. */
export async function countTransactions(db: Queryable, clientId: number, f: TransactionFilter = {}): Promise<number> {
  const { where, params } = filtered(clientId, f)
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM transactions WHERE ${where}`, params)
  return Number(row?.n ?? 0)
}

/** one of the client's transactions; another client's is not found */
export async function findTransaction(db: Queryable, clientId: number, id: number): Promise<TransactionRow | null> {
  const [row] = await db.query<TransactionRow>(`SELECT ${TRANSACTION_COLUMNS()} FROM transactions WHERE client_id = $1 AND id = $2`, [clientId, id])
  return row ? toRow(row) : null
}

/** pending transactions whose checkout ran out of time */
export async function listExpiredPending(db: Queryable, now: Date, limit = 100): Promise<TransactionRow[]> {
  const rows = await db.query<TransactionRow>(
    `SELECT ${TRANSACTION_COLUMNS()} FROM transactions WHERE status = 1 AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
    [now, limit],
  )
  return rows.map(toRow)
}

/**
 * The transactions a provider may still settle: pending ones, and ones expired since `since` (a
 * capture a provider held past our expiry), with the provider's id of their checkout; oldest first.
 */
export async function listReconcilable(db: Queryable, since: Date, limit = 100, afterId = 0): Promise<TransactionRow[]> {
  const rows = await db.query<TransactionRow>(
    `SELECT ${TRANSACTION_COLUMNS()} FROM transactions
      WHERE provider_session_id IS NOT NULL AND id > $3
        AND (status = 1 OR (status = 3 AND expires_at >= $1))
        AND COALESCE(expires_at, created_at) >= $1
      ORDER BY id LIMIT $2`,
    [since, limit, afterId],
  )
  return rows.map(toRow)
}

/** a transaction by its id alone (the receipt job's), whoever's it is */
export async function findTransactionById(db: Queryable, id: number): Promise<TransactionRow | null> {
  const [row] = await db.query<TransactionRow>(`SELECT ${TRANSACTION_COLUMNS()} FROM transactions WHERE id = $1`, [id])
  return row ? toRow(row) : null
}

/**
 * Marks a paid transaction's receipt sent, in the caller's transaction (the one that puts the mail
 * into the outbox). False when it was sent before or the transaction is not paid: the row lock
 * makes a second, parallel run wait for the first and then find it set.
 */
export async function claimReceipt(tx: Queryable, id: number): Promise<boolean> {
  const rows = await tx.query('UPDATE transactions SET receipt_sent_at = now() WHERE id = $1 AND status = 0 AND receipt_sent_at IS NULL RETURNING id', [id])
  return rows.length > 0
}

/** removes a pending transaction whose checkout could not be opened (nothing refers to it yet) */
export async function deleteTransaction(tx: Queryable, id: number) {
  await tx.query('DELETE FROM transactions WHERE id = $1 AND status = 1 AND provider_session_id IS NULL', [id])
}

/** one of the client's transactions by its provider's checkout (a PayPal order); another client's is not found */
export async function findTransactionBySession(
  db: Queryable,
  clientId: number,
  provider: PaymentProviderName,
  sessionId: string,
): Promise<TransactionRow | null> {
  const [row] = await db.query<TransactionRow>(
    `SELECT ${TRANSACTION_COLUMNS()} FROM transactions WHERE client_id = $1 AND provider = $2 AND provider_session_id = $3`,
    [clientId, provider, sessionId],
  )
  return row ? toRow(row) : null
}

// ---- credit notes: the documents that correct an invoice (issued by modules/billing) ----

export interface CreditNoteRow {
  id: number
  number: number
  client_id: number
  transaction_id: number
  kind: 'refund' | 'dispute' | 'reversal'
  amount_cents: number
  reason: string
  provider_ref: string | null
  issued_at: Date
  restored_at: Date | null
}
export const CREDIT_NOTE_COLUMNS = 'id, number, client_id, transaction_id, kind, amount_cents, reason, provider_ref, issued_at, restored_at'
export const toCreditNote = (r: CreditNoteRow): CreditNoteRow => ({
  ...r,
  id: Number(r.id),
  number: Number(r.number),
  client_id: Number(r.client_id),
  transaction_id: Number(r.transaction_id),
  amount_cents: Number(r.amount_cents),
})

/** The next credit note number, gapless: the counter's row is locked until the issuing transaction ends. */
export async function insertCreditNote(
  tx: Queryable,
  n: Pick<CreditNoteRow, 'client_id' | 'transaction_id' | 'kind' | 'amount_cents' | 'reason' | 'provider_ref'> & { issued_at: Date },
): Promise<CreditNoteRow> {
  const [counter] = await tx.query<{ last: string | number }>(
    'INSERT INTO credit_note_counter (id, last) VALUES (true, 1) ON CONFLICT (id) DO UPDATE SET last = credit_note_counter.last + 1 RETURNING last',
  )
  const [row] = await tx.query<CreditNoteRow>(
    `INSERT INTO credit_notes (number, client_id, transaction_id, kind, amount_cents, reason, provider_ref, issued_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${CREDIT_NOTE_COLUMNS}`,
    [Number(counter!.last), n.client_id, n.transaction_id, n.kind, n.amount_cents, n.reason, n.provider_ref, n.issued_at],
  )
  return toCreditNote(row!)
}

/** The client's credit notes, newest first, each with the number of the invoice it corrects (whichever page of transactions holds it). */
export async function listCreditNotes(db: Queryable, clientId: number): Promise<(CreditNoteRow & { invoice_number: number | null })[]> {
  const rows = await db.query<CreditNoteRow & { invoice_number: number | null }>(
    `SELECT ${CREDIT_NOTE_COLUMNS},
            (SELECT t.invoice_number FROM transactions t WHERE t.id = credit_notes.transaction_id AND t.client_id = credit_notes.client_id) AS invoice_number
       FROM credit_notes WHERE client_id = $1 ORDER BY issued_at DESC, id DESC`,
    [clientId],
  )
  return rows.map((r) => ({ ...toCreditNote(r), invoice_number: r.invoice_number === null ? null : Number(r.invoice_number) }))
}

export async function findCreditNote(db: Queryable, clientId: number, id: number): Promise<CreditNoteRow | null> {
  const [row] = await db.query<CreditNoteRow>(`SELECT ${CREDIT_NOTE_COLUMNS} FROM credit_notes WHERE client_id = $1 AND id = $2`, [clientId, id])
  return row ? toCreditNote(row) : null
}

/** What the client owes (a refunded top-up's spent credit), in cents. */
export async function findOwedCents(db: Queryable, clientId: number): Promise<number> {
  const [row] = await db.query<{ owed: string | number }>('SELECT owed_cents AS owed FROM clients WHERE id = $1', [clientId])
  return Number(row?.owed ?? 0)
}

/** whose a transaction is (to take the client's row first, before the transaction's) */
export async function clientOfTransaction(db: Queryable, id: number): Promise<number | null> {
  const [row] = await db.query<{ client_id: string | number }>('SELECT client_id FROM transactions WHERE id = $1', [id])
  return row ? Number(row.client_id) : null
}

/** Payments of the last 24 hours by the adapter that served them (or the balance) and their state. */
export async function paymentFigures(db: Queryable) {
  return db.query<{ provider: string; status: number; kind: string; n: number }>(
    `SELECT COALESCE(provider, payment_source) AS provider, status, kind, count(*)::int AS n
       FROM transactions WHERE created_at > now() - interval '24 hours' AND payment_source <> 'staff'
      GROUP BY 1, 2, 3`,
  )
}
