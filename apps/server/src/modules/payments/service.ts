import { TRANSACTION_STATUS, transactionStatusOf, type TransactionStatus } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import type { Queryable } from '../../db/db.ts'
import type { PaymentEvent } from '../../platform/payments/port.ts'
import { applyLedgerEntry } from '../balance/queries.ts'
import { fulfilLines } from '../basket/fulfilment.ts'
import { closeTransaction, lockTransactionBySession, markTransactionPaid, nextInvoiceNumber, type TransactionRow } from '../transactions/queries.ts'
import { confirmPromoOfTransaction, releasePromoOfTransaction } from '../promo/service.ts'
import { recordPaymentEvent, savePaymentMethod } from './queries.ts'
import { recordPaid } from '../activity/queries.ts'
import { findClientById } from '../account/queries.ts'
import { renewalsNeedMethodMail } from './mails.ts'

/** The job that mails the receipt (with the invoice when the client's bills_mail is on) of a paid transaction. */
export const RECEIPT_JOB = 'payments.receipt'

/** What the paid event brought beside the money: the payment method the provider now keeps (subscriptions). */
export interface PaidWith {
  /** payment_methods.id of the method saved by a subscription checkout; null for a one-off payment */
  methodId: number | null
  /** business time of the payment (ctx.clock): an upgrade's new period starts then */
  now: Date
}

/**
 * What a transaction of a kind does when it is paid, inside the transaction that marks it paid, and
 * (optionally) when it closes unpaid (declined, cancelled, expired: an upgrade's hold ends).
 */
export interface Fulfilment {
  paid(tx: Queryable, t: TransactionRow, paidWith: PaidWith): Promise<void>
  closed?(tx: Queryable, t: TransactionRow): Promise<void>
}

/**
 * The fulfilments by transaction kind. A top-up credits the balance and the basket delivers its
 * licenses (here); subscriptions and upgrades register theirs (renewal, upgrade…) when the app is built.
 */
const FULFILMENT = new Map<string, Fulfilment>([
  [
    'top_up',
    {
      // a credit cannot fail the balance's CHECK; a second entry for the transaction fails its unique index
      paid: async (tx, t) => void (await applyLedgerEntry(tx, t.client_id, t.id, t.amount_cents)),
    },
  ],
  // a basket order paid by card or PayPal: its licenses, as a balance purchase gets them at once
  [
    'purchase',
    {
      paid: (tx, t, paidWith) =>
        fulfilLines(tx, t.client_id, t.lines, { source: t.payment_source === 'paypal' ? 'paypal' : 'stripe', methodId: paidWith.methodId }),
    },
  ],
])

/**
 * A subscription paid without a method kept for its renewals (PayPal answered no vault id, usually
 * an account without PayPal's vault approval): a log line for an operator, and a mail telling the
 * customer that renewals need a payment method, in the transaction that credits.
 */
async function tellRenewalsNeedMethod(ctx: Partial<Pick<AppContext, 'mailer' | 'config' | 'log'>>, tx: Queryable, t: TransactionRow, event: PaymentEvent) {
  ctx.log?.error(
    { provider: event.provider, transaction: t.id, client: t.client_id, session: event.sessionId },
    'subscription paid but the provider kept no payment method: it cannot renew by itself (PayPal vault approval?); the customer is told',
  )
  const client = ctx.mailer && ctx.config ? await findClientById(tx, t.client_id) : null
  if (client) await ctx.mailer!.enqueue(tx, renewalsNeedMethodMail(ctx.config!.PUBLIC_URL, client.email, { paidWith: event.paymentMethod ?? null }))
}

/** Adds (or replaces) what a paid transaction of `kind` delivers. */
export function registerFulfilment(kind: string, fulfilment: Fulfilment) {
  FULFILMENT.set(kind, fulfilment)
}
export const fulfilmentOf = (kind: string) => FULFILMENT.get(kind)

export interface AppliedEvent {
  transactionId: number | null
  /** the transaction's status after the event */
  status: TransactionStatus | null
  /** false when the event changed nothing: seen before, about a settled transaction, or unknown */
  applied: boolean
}

/**
 * Applies a provider's event to the transaction of its checkout, once: the event id is recorded in
 * the same database transaction that credits, and the transaction row is locked first, so the same
 * webhook delivered any number of times, in parallel or on two processes, credits once. A crash
 * before the commit leaves nothing applied and nothing recorded: the next delivery applies it.
 */
export async function applyPaymentEvent(
  ctx: Pick<AppContext, 'db' | 'jobs' | 'log'> & Partial<Pick<AppContext, 'clock' | 'mailer' | 'config'>>,
  event: PaymentEvent,
): Promise<AppliedEvent> {
  return ctx.db.transaction(async (tx) => {
    const t = await lockTransactionBySession(tx, event.provider, event.sessionId)
    if (!t) {
      ctx.log.warn({ provider: event.provider, session: event.sessionId, event: event.eventId }, 'payment event for an unknown checkout ignored')
      return { transactionId: null, status: null, applied: false }
    }
    const current = transactionStatusOf(t.status)
    // a payment that arrives after we gave up on its checkout (expired) still counts: the customer paid
    const open = t.status === TRANSACTION_STATUS.pending || (event.outcome === 'paid' && t.status === TRANSACTION_STATUS.expired)
    if (!(await recordPaymentEvent(tx, event, t.id)) || !open) {
      return { transactionId: t.id, status: current, applied: false }
    }
    if (event.outcome !== 'paid') {
      const status = event.outcome === 'declined' ? TRANSACTION_STATUS.declined : TRANSACTION_STATUS.expired
      await closeTransaction(tx, t.id, status)
      // a promo code reserved for the order is free again; an upgrade's hold ends
      await releasePromoOfTransaction(tx, t.id)
      await FULFILMENT.get(t.kind)?.closed?.(tx, t)
      return { transactionId: t.id, status: transactionStatusOf(status), applied: true }
    }
    if (event.amountCents !== undefined && event.amountCents !== t.amount_cents) {
      // never credit what was not paid: the transaction stays pending for an operator to look at
      ctx.log.error({ transaction: t.id, expected: t.amount_cents, paid: event.amountCents }, 'paid amount differs from the transaction; not applied')
      return { transactionId: t.id, status: current, applied: false }
    }
    const fulfil = FULFILMENT.get(t.kind)
    if (!fulfil) throw new Error(`no fulfilment for transactions of kind ${t.kind}`)
    const methodId = event.savedMethod ? await savePaymentMethod(tx, t.client_id, event.savedMethod) : null
    // what was bought first (the client's row, as every balance change takes it), the invoice counter last:
    // one lock order with balance purchases and staff adjustments
    const now = ctx.clock?.now() ?? new Date()
    await fulfil.paid(tx, t, { methodId, now })
    await markTransactionPaid(tx, t.id, await nextInvoiceNumber(tx), event.paymentMethod ?? null)
    await recordPaid(tx, t.id, now)
    await confirmPromoOfTransaction(tx, t.id)
    await ctx.jobs.enqueue(tx, RECEIPT_JOB, { transaction_id: t.id })
    if (event.savedMethodMissing) await tellRenewalsNeedMethod(ctx, tx, t, event)
    return { transactionId: t.id, status: 'ok', applied: true }
  })
}
