import { DEFAULT_OPTIONS, TRANSACTION_STATUS, formatCents, formatInvoiceNumber } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { escapeHtml, type Mail, type MailAttachment } from '../../platform/mailer.ts'
import { findClientById } from '../account/service.ts'
import { formatInvoiceDate, renderInvoice } from './invoice.ts'
import { findTransactionById, claimReceipt, findInvoiceRecord, type TransactionRow } from './queries.ts'
import { RECEIPT_JOB, invoiceData, invoiceFilename, paymentMethodOf } from './service.ts'

export type ReceiptOutcome = 'sent' | 'already_sent' | 'not_paid' | 'unknown'

/** The receipt of a paid transaction: what, how much, when, how; the invoice attached or where to get it. */
export function receiptMail(publicUrl: string, to: string, t: TransactionRow, attached: boolean): Mail {
  const total = formatCents(t.amount_cents)
  const number = formatInvoiceNumber(t.invoice_number!)
  const docsUrl = `${publicUrl}/app/payment-doc/`
  const facts: [string, string][] = [
    ['Amount', total],
    ['For', t.description],
    ['Date', formatInvoiceDate(t.paid_at ?? t.created_at)],
    ['Payment method', paymentMethodOf(t) ?? ''],
    ['Invoice', number],
  ]
  const invoiceNote = attached
    ? `The invoice ${number} is attached as a PDF.`
    : 'You can download the invoice from your payment documents. To get invoices by e-mail, turn on “Send me bills by e-mail” in your account options.'
  const lines = t.lines.length > 1 ? t.lines.map((l) => `- ${l.description} × ${l.quantity}: ${formatCents(l.amount_cents)}`) : []
  const text = [
    'Thank you for your payment.',
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    ...(lines.length ? ['', ...lines] : []),
    '',
    invoiceNote,
    '',
    `Your payment documents: ${docsUrl}`,
    '',
  ].join('\n')
  const html =
    '<p>Thank you for your payment.</p><table>' +
    facts.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('') +
    '</table>' +
    (lines.length ? `<ul>${lines.map((l) => `<li>${escapeHtml(l.slice(2))}</li>`).join('')}</ul>` : '') +
    `<p>${escapeHtml(invoiceNote)}</p><p><a href="${escapeHtml(docsUrl)}">Your payment documents</a></p>`
  return { to, subject: `Receipt for your payment of ${total}`, text, html }
}

/**
 * Mails the receipt of a paid transaction once, with its invoice PDF attached when the client's
 * bills_mail option is on. The outbox row and the transaction's receipt_sent_at are written in one
 * database transaction, so a run repeated (a retry, a lease that ran out, another process) sends
 * nothing more.
 */
export async function sendReceipt(ctx: Pick<AppContext, 'db' | 'mailer' | 'config'>, transactionId: number): Promise<ReceiptOutcome> {
  const t = await findTransactionById(ctx.db, transactionId)
  if (!t) return 'unknown'
  if (t.status !== TRANSACTION_STATUS.ok || t.invoice_number === null) return 'not_paid'
  const client = await findClientById(ctx.db, t.client_id)
  if (!client) return 'unknown'
  const billsMail = { ...DEFAULT_OPTIONS, ...client.options }.bills_mail
  // rendered before the database transaction: no row stays locked while the PDF is drawn
  const record = billsMail ? await findInvoiceRecord(ctx.db, t.id) : null
  const attachments: MailAttachment[] = record
    ? [{ filename: invoiceFilename(record.number), contentType: 'application/pdf', content: await renderInvoice(invoiceData(ctx, t, record)) }]
    : []
  return ctx.db.transaction(async (tx) => {
    if (!(await claimReceipt(tx, t.id))) return 'already_sent'
    await ctx.mailer.enqueue(tx, { ...receiptMail(ctx.config.PUBLIC_URL, client.email, t, billsMail), attachments })
    return 'sent'
  })
}

/** The job applyPaymentEvent enqueues for each payment it completes. */
export function registerReceiptJob(ctx: Pick<AppContext, 'db' | 'mailer' | 'config' | 'jobs' | 'log'>) {
  ctx.jobs.register(RECEIPT_JOB, async (job) => {
    const id = Number(job.payload.transaction_id)
    if (!Number.isSafeInteger(id) || id <= 0) {
      ctx.log.warn({ job: job.id, payload: job.payload }, 'receipt job without a transaction id ignored')
      return
    }
    const outcome = await sendReceipt(ctx, id)
    if (outcome === 'unknown' || outcome === 'not_paid') ctx.log.warn({ transaction: id, outcome }, 'receipt not sent')
  })
}
