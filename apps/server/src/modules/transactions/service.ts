import { DEFAULT_OPTIONS, TRANSACTION_STATUS, centsToUsd, transactionStatusOf, type TransactionView } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { fail } from '../../platform/errors.ts'
import { findClientById, type ClientRow } from '../account/service.ts'
import { invoiceSeller, renderInvoice, type InvoiceData } from './invoice.ts'
import { findTransaction, listTransactions, type TransactionRow } from './queries.ts'

export {
  closeTransaction,
  deleteTransaction,
  findTransactionBySession,
  insertTransaction,
  listExpiredPending,
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
export const invoiceFilename = (id: number) => `invoice-${id}.pdf`

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

/** What the invoice of a paid transaction prints, from the transaction, its client and the configured seller. */
export function invoiceData(ctx: Pick<AppContext, 'config'>, t: TransactionRow, client: ClientRow): InvoiceData {
  const fullName = [client.name, client.last_name].filter((s) => s.trim() !== '').join(' ')
  const corporate = { ...DEFAULT_OPTIONS, ...client.options }.corporate_member
  const company = client.company ?? {}
  return {
    number: t.invoice_number!,
    paidAt: t.paid_at ?? t.created_at,
    seller: invoiceSeller(ctx.config),
    buyer: {
      name: fullName,
      email: client.email,
      company: corporate ? { name: company.name ?? '', address: company.address ?? '', vat: company.vat ?? '' } : null,
    },
    lines: t.lines.length ? t.lines : [{ description: t.description, quantity: 1, amount_cents: t.amount_cents }],
    totalCents: t.amount_cents,
    paymentMethod: paymentMethodOf(t) ?? '',
    transactionId: t.id,
  }
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
  const client = await findClientById(ctx.db, clientId)
  if (!client) return fail('not_found', 'Transaction not found')
  return { filename: invoiceFilename(t.id), pdf: await renderInvoice(invoiceData(ctx, t, client)) }
}
