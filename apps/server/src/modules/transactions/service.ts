import {
  TRANSACTION_STATUS,
  formatCreditNoteNumber,
  formatInvoiceNumber,
  centsToUsd,
  renewalTermSeconds,
  saleEntryById,
  transactionStatusOf,
  type CreditNoteView,
  type TransactionListQuery,
  type TransactionView,
} from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { fail } from '../../platform/errors.ts'
import type { DbFigure } from '../../platform/metrics.ts'
import { invoiceSeller, renderInvoice, type InvoiceData, type InvoiceSettlement } from './invoice.ts'
import {
  findCreditNote as findCreditNoteRow,
  findInvoiceRecord,
  findOwedCents,
  findTransaction,
  listCreditNotes as listCreditNoteRows,
  countTransactions,
  listTransactions,
  paymentFigures,
  recordInvoiceSeller,
  type CreditNoteRow,
  type InvoiceRecordRow,
  type TransactionFilter,
  type TransactionLine,
  type TransactionRow,
} from './queries.ts'

export {
  CREDIT_NOTE_COLUMNS,
  clientOfTransaction,
  closeTransaction,
  findCreditNote,
  insertCreditNote,
  listCreditNotes,
  toCreditNote,
  type CreditNoteRow,
  deleteTransaction,
  findTransactionById,
  findTransactionBySession,
  insertTransaction,
  listExpiredPending,
  listReconcilable,
  lockTransaction,
  lockTransactionBySession,
  markTransactionPaid,
  nextInvoiceNumber,
  setProviderPaymentRef,
  setProviderSession,
  type NewTransaction,
  type TransactionLine,
  type TransactionRow,
} from './queries.ts'
export { formatInvoiceDate } from './invoice.ts'

/** The job that mails the receipt (with the invoice when the client's bills_mail is on) of a paid transaction (receipt.ts). */
export const RECEIPT_JOB = 'payments.receipt'

/** How a transaction was paid when the provider did not say more ("Visa •••• 4242"): by its source. */
const SOURCE_METHOD: Record<string, string> = {
  stripe: 'Card',
  paypal: 'PayPal',
  balance: 'Balance',
  staff: 'Balance adjustment',
}

export const paymentMethodOf = (t: Pick<TransactionRow, 'payment_method' | 'payment_source'>) => t.payment_method ?? SOURCE_METHOD[t.payment_source] ?? null

export const invoiceUrl = (id: number) => `/api/transaction/${id}/invoice/`
export const invoiceFilename = (invoiceNumber: number) => `${formatInvoiceNumber(invoiceNumber)}.pdf`

const isPaid = (t: TransactionRow) => t.status === TRANSACTION_STATUS.ok && t.invoice_number !== null

export function toTransactionView(t: TransactionRow): TransactionView {
  const created = t.created_at.toISOString()
  return {
    id: t.id,
    creation_date: created,
    dates: { createdDate: created },
    status: transactionStatusOf(t.status),
    status_code: t.status,
    amount: centsToUsd(t.amount_cents),
    type: t.type,
    description: t.description,
    payment_method: paymentMethodOf(t),
    invoice_number: t.invoice_number,
    invoice_url: isPaid(t) ? invoiceUrl(t.id) : null,
  }
}

export const creditNoteUrl = (id: number) => `/api/transaction/credit-note/${id}/`

/** A credit note as the payment documents show it; `invoiceNumber` is the one it corrects. */
export function toCreditNoteView(n: CreditNoteRow, invoiceNumber: number | null): CreditNoteView {
  return {
    id: n.id,
    number: formatCreditNoteNumber(n.number),
    corrects_invoice: invoiceNumber === null ? '' : formatInvoiceNumber(invoiceNumber),
    transaction_id: n.transaction_id,
    kind: n.kind,
    amount: centsToUsd(n.amount_cents),
    reason: n.reason,
    issued_at: new Date(n.issued_at).toISOString(),
    restored: n.restored_at !== null,
    pdf_url: creditNoteUrl(n.id),
  }
}

/**
 * The client's payment documents: the transactions that match (a status, a creation window, a page),
 * all its credit notes, newest first, and what is owed.
 */
export async function getTransactions(ctx: Pick<AppContext, 'db'>, clientId: number, query: TransactionListQuery = {}) {
  const filter: TransactionFilter = {
    status: query.status === undefined || query.status === 'all' ? undefined : TRANSACTION_STATUS[query.status],
    from: query.from === undefined ? undefined : new Date(query.from),
    to: query.to === undefined ? undefined : new Date(query.to),
    offset: query.offset,
    limit: query.limit,
  }
  const [rows, total, notes, owed] = await Promise.all([
    listTransactions(ctx.db, clientId, filter),
    countTransactions(ctx.db, clientId, filter),
    listCreditNoteRows(ctx.db, clientId),
    findOwedCents(ctx.db, clientId),
  ])
  return {
    transactions: rows.map(toTransactionView),
    total,
    credit_notes: notes.map((n) => toCreditNoteView(n, n.invoice_number)),
    owed: centsToUsd(owed),
  }
}

/** A credit note's PDF: the invoice it corrects, rendered as a credit note (renderInvoice) for the amount taken back. */
export async function getCreditNote(ctx: Pick<AppContext, 'db' | 'config'>, clientId: number, idText: string): Promise<{ filename: string; pdf: Buffer }> {
  const id = parseId(idText)
  const note = id === null ? null : await findCreditNoteRow(ctx.db, clientId, id)
  const t = note ? await findTransaction(ctx.db, clientId, note.transaction_id) : null
  const record = t ? await findInvoiceRecord(ctx.db, t.id) : null
  if (!note || !t || !record) return fail('not_found', 'Credit note not found')
  const invoice = invoiceData(ctx, t, record)
  const data = {
    ...invoice,
    paidAt: note.issued_at,
    lines: [{ description: `${invoice.lines.length === 1 ? invoice.lines[0]!.description : t.description}`, quantity: 1, amount_cents: note.amount_cents }],
    totalCents: note.amount_cents,
    creditNote: { number: note.number, corrects: record.number, reason: note.reason, kind: note.kind },
  }
  return { filename: `${formatCreditNoteNumber(note.number)}.pdf`, pdf: await renderInvoice(data) }
}

/** What the invoice of a paid transaction prints: its record, frozen when it was issued. */
export function invoiceData(ctx: Pick<AppContext, 'config'>, t: TransactionRow, record: InvoiceRecordRow): InvoiceData {
  const company = record.buyer.company
  return {
    number: record.number,
    paidAt: record.issued_at,
    // a record issued before sellers were frozen prints the seller as configured
    seller: { ...invoiceSeller(ctx.config), ...(record.seller ?? {}) },
    buyer: {
      name: record.buyer.name,
      email: record.buyer.email,
      company: company ? { name: company.name ?? '', address: company.address ?? '', vat: company.vat ?? '' } : null,
    },
    lines: record.lines.length
      ? record.lines.map((l) => ({ ...l, period: l.period ?? servicePeriodOf(l, record.issued_at) }))
      : [{ description: t.description, quantity: 1, amount_cents: record.total_cents }],
    totalCents: record.total_cents,
    paymentMethod: paymentMethodOf({ payment_method: record.payment_method, payment_source: t.payment_source }) ?? '',
    transactionId: t.id,
    settlement: settlementOf(t),
  }
}

/**
 * The service period of a line bought through the basket with a term (a subscription, a term
 * license): from the payment, for the sold entry's term. A renewal's line carries its own period;
 * perpetual lines have none.
 */
export function servicePeriodOf(line: Pick<TransactionLine, 'entry_id'>, issuedAt: Date): { from: string; to: string } | null {
  const entry = line.entry_id ? saleEntryById(line.entry_id) : null
  if (!entry) return null
  const term = renewalTermSeconds({ product: entry.product, config: entry.config })
  return term ? { from: issuedAt.toISOString(), to: new Date(issuedAt.getTime() + term * 1000).toISOString() } : null
}

/** Top-ups sell prepaid credit; what the balance pays applies it; a card or PayPal purchase is paid. */
export function settlementOf(t: Pick<TransactionRow, 'kind' | 'payment_source'>): InvoiceSettlement {
  if (t.kind === 'top_up') return 'prepaid_credit'
  return t.payment_source === 'balance' ? 'credit_applied' : 'paid'
}

/** a path id as the database's: digits only, within bigint and a safe integer; anything else is not found */
function parseId(text: string): number | null {
  if (!/^\d{1,15}$/.test(text)) return null
  const id = Number(text)
  return id > 0 ? id : null
}

/**
 * The invoice PDF of one of the client's paid transactions. Another client's transaction, one that
 * is not paid, or an id that is not one answers not_found; a failure to render is thrown on (the
 * error handler answers internal_server_error).
 */
export async function getInvoice(ctx: Pick<AppContext, 'db' | 'config'>, clientId: number, idText: string): Promise<{ filename: string; pdf: Buffer }> {
  const id = parseId(idText)
  const t = id === null ? null : await findTransaction(ctx.db, clientId, id)
  if (!t || !isPaid(t)) return fail('not_found', 'Transaction not found')
  const record = await findInvoiceRecord(ctx.db, t.id)
  if (!record) return fail('not_found', 'Transaction not found')
  return { filename: invoiceFilename(record.number), pdf: await renderInvoice(invoiceData(ctx, t, record)) }
}

/** Keeps the configured seller where the invoices issued from now on copy it from (at each start). */
export async function recordCurrentSeller(ctx: Pick<AppContext, 'db' | 'config'>) {
  await recordInvoiceSeller(ctx.db, invoiceSeller(ctx.config))
}

/** For the metrics: payments of the last 24 hours by provider, kind and state (an alert watches the declines). */
export const paymentMetrics: DbFigure[] = [
  {
    name: 'portal_payments_last_24h',
    help: 'Payments created in the last 24 hours, by the provider that served them (or balance), kind and state',
    labelNames: ['provider', 'kind', 'status'],
    read: async (db) =>
      (await paymentFigures(db)).map((r) => ({ labels: { provider: r.provider, kind: r.kind, status: transactionStatusOf(r.status) }, value: r.n })),
  },
]
