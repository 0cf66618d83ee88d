import { TRANSACTION_STATUS, formatInvoiceNumber, centsToUsd, transactionStatusOf, type TransactionView } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { fail } from '../../platform/errors.ts'
import { invoiceSeller, renderInvoice, type InvoiceData, type InvoiceSettlement } from './invoice.ts'
import { findInvoiceRecord, findTransaction, listTransactions, recordInvoiceSeller, type InvoiceRecordRow, type TransactionRow } from './queries.ts'

export {
  closeTransaction,
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

/** The client's transactions, newest first. */
export async function getTransactions(ctx: Pick<AppContext, 'db'>, clientId: number) {
  return { transactions: (await listTransactions(ctx.db, clientId)).map(toTransactionView) }
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
    lines: record.lines.length ? record.lines : [{ description: t.description, quantity: 1, amount_cents: record.total_cents }],
    totalCents: record.total_cents,
    paymentMethod: paymentMethodOf({ payment_method: record.payment_method, payment_source: t.payment_source }) ?? '',
    transactionId: t.id,
    settlement: settlementOf(t),
  }
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
