import {
  TRANSACTION_STATUS,
  TRANSACTION_TYPE,
  formatCents,
  formatCreditNoteNumber,
  transactionStatusOf,
  type Cents,
  type TransactionStatus,
} from '@portal/domain'
import type { AppContext } from '../../context.ts'
import type { Queryable } from '../../db/db.ts'
import { fail } from '../../platform/errors.ts'
import type { PaymentEvent } from '../../platform/payments/port.ts'
import { findClientById } from '../account/service.ts'
import { recordActivityForLicenses, recordPaid } from '../activity/service.ts'
import { givePurchaseCapacityBack, takePurchaseCapacity } from '../groups/service.ts'
import { confirmPromoOfTransaction, releasePromoOfTransaction } from '../promo/service.ts'
import { emitWebhookEvent } from '../webhooks/service.ts'
import {
  RECEIPT_JOB,
  clientOfTransaction,
  closeTransaction,
  insertCreditNote,
  insertTransaction,
  lockTransaction,
  lockTransactionBySession,
  markTransactionPaid,
  nextInvoiceNumber,
  setProviderPaymentRef,
  type CreditNoteRow,
  type TransactionLine,
  type TransactionRow,
} from '../transactions/service.ts'
import { renewalsNeedMethodMail, restoredMail, reversedMail } from './mails.ts'
import {
  applyLedgerEntry,
  creditForRestoredNote,
  debitForCreditNote,
  deletePaymentMethod,
  endSubscriptionsOf,
  lockOpenDispute,
  markCreditNoteRestored,
  recordPaymentEvent,
  refundedCents,
  restartSubscriptionsOf,
  restoreLicensesOf,
  savePaymentMethod,
  suspendLicensesOf,
} from './queries.ts'

export { owedCents, transactionOfPayment } from './queries.ts'

/**
 * Billing: how a transaction is settled, whatever was bought (a top-up, a basket order, a renewal, a
 * reactivation, an upgrade, a staff adjustment) and however it was paid (the balance at once, or a
 * provider's event later). Each step is one function here; the purchase kinds call them and say
 * what the payment delivers through their Fulfilment, kept in the app context (ctx.fulfilments).
 */

/** What the paid event brought beside the money: the payment method the provider now keeps (subscriptions). */
export interface PaidWith {
  /** payment_methods.id of the method saved by a subscription checkout; null for a one-off payment */
  methodId: number | null
  /** business time of the payment (ctx.clock): an upgrade's new period starts then */
  now: Date
}

/**
 * What a transaction of a kind does when it is paid, inside the transaction that settles it, and
 * (optionally) when it closes unpaid (declined, cancelled, expired: an upgrade's hold ends).
 */
export interface Fulfilment {
  paid(ctx: BillingCtx, tx: Queryable, t: TransactionRow, paidWith: PaidWith): Promise<void>
  closed?(ctx: BillingCtx, tx: Queryable, t: TransactionRow): Promise<void>
}

/** What settling needs: the database, the job queue (receipts), what a kind's fulfilment may use (its mails, business time), the fulfilments. */
export type BillingCtx = Pick<AppContext, 'db' | 'jobs' | 'log' | 'mailer' | 'config' | 'clock' | 'fulfilments'>

/** The fulfilments by transaction kind: each purchase kind's module exports its own, the app context holds them all. */
export type Fulfilments = ReadonlyMap<string, Fulfilment>

/**
 * Step: the ledger entry of a transaction, moving the client's balance by `cents` (positive credits,
 * negative debits). Answers the balance after it, or null when a debit would take it below zero
 * (nothing is written then). A transaction moves the balance once: its entry is unique.
 */
export const postLedgerEntry = (tx: Queryable, clientId: number, transactionId: number, cents: Cents): Promise<Cents | null> =>
  applyLedgerEntry(tx, clientId, transactionId, cents)

/**
 * Step: the transaction becomes paid (status ok) with the next invoice number and the method shown on
 * it, its payment joins the license history and a promo code it reserved is spent. Taken after what
 * was bought, in the database transaction that settles: what was bought first (the client's row, as
 * every balance change takes it), the invoice counter last, one lock order for every purchase kind.
 * Answers the invoice number.
 */
export async function settlePaid(tx: Queryable, transactionId: number, how: { paymentMethod: string | null; now: Date }): Promise<number> {
  const invoiceNumber = await nextInvoiceNumber(tx)
  await markTransactionPaid(tx, transactionId, invoiceNumber, how.paymentMethod)
  await recordPaid(tx, transactionId, how.now)
  await confirmPromoOfTransaction(tx, transactionId)
  return invoiceNumber
}

/** Step: the receipt of a paid transaction (with its invoice when the client's bills_mail is on), mailed by the receipt job once committed. */
export async function mailReceipt(ctx: Pick<AppContext, 'jobs'>, tx: Queryable, transactionId: number) {
  await ctx.jobs.enqueue(tx, RECEIPT_JOB, { transaction_id: transactionId })
}

/** A customer's payment settled: paid, then its receipt (a staff adjustment takes settlePaid alone). */
export async function settleWithReceipt(ctx: Pick<AppContext, 'jobs'>, tx: Queryable, transactionId: number, how: { paymentMethod: string | null; now: Date }) {
  await settlePaid(tx, transactionId, how)
  await mailReceipt(ctx, tx, transactionId)
}

/** A purchase paid from the balance: what it is, and what it is for. */
export interface BalancePayment {
  clientId: number
  kind: string
  amountCents: Cents
  description: string
  lines: TransactionLine[]
  now: Date
}

/**
 * A purchase of any kind paid from the balance, in the caller's transaction (which holds the client's
 * lock): the pending debit transaction, its ledger entry (refused below zero with insufficient_funds
 * before the invoice counter is taken), what it buys (`deliver`), then settled. Answers the
 * transaction's id.
 */
export async function settleFromBalance(
  ctx: Pick<AppContext, 'jobs'>,
  tx: Queryable,
  p: BalancePayment,
  deliver: (t: TransactionRow) => Promise<void>,
): Promise<number> {
  const t = await insertTransaction(tx, {
    clientId: p.clientId,
    type: TRANSACTION_TYPE.debit,
    status: TRANSACTION_STATUS.pending,
    amountCents: p.amountCents,
    kind: p.kind,
    description: p.description,
    lines: p.lines,
    paymentSource: 'balance',
    paymentMethod: 'Balance',
    invoiceNumber: null,
  })
  if ((await postLedgerEntry(tx, p.clientId, t.id, -p.amountCents)) === null) fail('insufficient_funds')
  await deliver(t)
  await settleWithReceipt(ctx, tx, t.id, { paymentMethod: 'Balance', now: p.now })
  return t.id
}

/**
 * A pending transaction closed unpaid (declined, cancelled, expired), in the caller's transaction: a
 * promo code it reserved is free again and what its kind reserved ends (an upgrade's hold).
 */
export async function closeUnpaid(
  ctx: BillingCtx,
  tx: Queryable,
  t: TransactionRow,
  status: typeof TRANSACTION_STATUS.declined | typeof TRANSACTION_STATUS.expired,
) {
  await closeTransaction(tx, t.id, status)
  await releasePromoOfTransaction(tx, t.id)
  await ctx.fulfilments.get(t.kind)?.closed?.(ctx, tx, t)
}

export interface AppliedEvent {
  transactionId: number | null
  /** the transaction's status after the event */
  status: TransactionStatus | null
  /** false when the event changed nothing: seen before, about a settled transaction, or unknown */
  applied: boolean
}

/**
 * Applies a provider's event to the transaction of its checkout, once: the event id is recorded in
 * the payment event log in the same database transaction that settles, and the transaction row is
 * locked first, so the same webhook delivered any number of times, in parallel or on two processes,
 * settles once. A crash before the commit leaves nothing applied and nothing recorded: the next
 * delivery applies it.
 */
export async function applyPaymentEvent(ctx: BillingCtx, event: PaymentEvent): Promise<AppliedEvent> {
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
      await closeUnpaid(ctx, tx, t, status)
      return { transactionId: t.id, status: transactionStatusOf(status), applied: true }
    }
    if (event.amountCents !== undefined && event.amountCents !== t.amount_cents) {
      // never credit what was not paid: the transaction stays pending for an operator to look at
      ctx.log.error({ transaction: t.id, expected: t.amount_cents, paid: event.amountCents }, 'paid amount differs from the transaction; not applied')
      return { transactionId: t.id, status: current, applied: false }
    }
    const fulfil = ctx.fulfilments.get(t.kind)
    if (!fulfil) throw new Error(`no fulfilment for transactions of kind ${t.kind}`)
    if (t.status === TRANSACTION_STATUS.expired) {
      // the provider completed it after we gave up (a capture held past our expiry): credited, once, and an operator looks
      ctx.log.error(
        { provider: event.provider, transaction: t.id, client: t.client_id, session: event.sessionId, event: event.eventId, expired_at: t.expires_at },
        'payment completed after its checkout expired: credited now; check what it bought (a hold or promo code it reserved was released at expiry)',
      )
    }
    // the provider's refund and dispute events name the payment, not the checkout (Stripe's PaymentIntent)
    if (event.paymentRef) await setProviderPaymentRef(tx, t.id, event.paymentRef)
    const methodId = event.savedMethod ? await savePaymentMethod(tx, t.client_id, event.savedMethod) : null
    const now = ctx.clock.now()
    await fulfil.paid(ctx, tx, t, { methodId, now })
    await settleWithReceipt(ctx, tx, t.id, { paymentMethod: event.paymentMethod ?? null, now })
    if (event.savedMethodMissing) await tellRenewalsNeedMethod(ctx, tx, t, event)
    return { transactionId: t.id, status: 'ok', applied: true }
  })
}

/**
 * A subscription paid without a method kept for its renewals (PayPal answered no vault id, usually
 * an account without PayPal's vault approval): a log line for an operator, and a mail telling the
 * customer that renewals need a payment method, in the transaction that credits.
 */
async function tellRenewalsNeedMethod(ctx: BillingCtx, tx: Queryable, t: TransactionRow, event: PaymentEvent) {
  ctx.log.error(
    { provider: event.provider, transaction: t.id, client: t.client_id, session: event.sessionId },
    'subscription paid but the provider kept no payment method: it cannot renew by itself (PayPal vault approval?); the customer is told',
  )
  const client = await findClientById(tx, t.client_id)
  if (client) await ctx.mailer.enqueue(tx, renewalsNeedMethodMail(ctx.config.PUBLIC_URL, client.email, { paidWith: event.paymentMethod ?? null }))
}

/**
 * The provider no longer keeps a saved method (PayPal's VAULT.PAYMENT-TOKEN.DELETED): applied once
 * through the payment event log; the subscriptions on it renew on no method, which asks the customer
 * for one at the renewal. Answers whether it changed anything.
 */
export async function forgetPaymentMethod(ctx: BillingCtx, notice: { provider: PaymentEvent['provider']; eventId: string; token: string }): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const fresh = await recordPaymentEvent(tx, { provider: notice.provider, eventId: notice.eventId, sessionId: notice.token, outcome: 'cancelled' }, null)
    if (!fresh) return false
    const gone = await deletePaymentMethod(tx, notice.provider, notice.token)
    ctx.log.warn(
      { provider: notice.provider, client: gone?.client_id ?? null },
      gone
        ? 'the provider deleted a saved payment method: renewals on it will ask for another'
        : 'the provider deleted a payment method the portal did not keep',
    )
    return gone !== null
  })
}

/** Money a provider (or staff through it) took back from a paid transaction. */
export interface Reversal {
  transactionId: number
  kind: 'refund' | 'dispute' | 'reversal'
  /** what is taken back; the whole rest of the transaction when left out */
  amountCents?: Cents
  reason: string
  /** applied once per key: the provider's event id, or the staff refund's provider id */
  provider: PaymentEvent['provider']
  eventKey: string
  providerRef?: string | null
}

export interface ReversalResult {
  applied: boolean
  creditNote: CreditNoteRow | null
  suspended: number[]
  /** ungenerated units of the purchase taken out of its groups (and the group keys split off them) */
  capacityTaken: number
  owedCents: Cents
}

/**
 * Takes a paid transaction's money back, once per provider event (the payment event log, in the
 * same database transaction, so 5 parallel deliveries of one refund reverse once): a credit note
 * with its own gapless number correcting the invoice, the ledger's reversal entry (a top-up's credit
 * comes off the balance; what was already spent is owed) and a mail to the customer. When what is
 * taken back completes the whole payment, what the purchase delivered stops: the licenses it paid
 * for are suspended with the reason (and a line in their history) and stop renewing, and its
 * ungenerated capacity leaves its groups; a partial refund leaves them alone
 * (docs/adr/purchase-capacity-and-partial-refunds.md). Lock order as settling: the client's row, the
 * transaction, the credit note counter, then the groups.
 */
export async function reversePayment(ctx: BillingCtx, r: Reversal): Promise<ReversalResult> {
  const nothing: ReversalResult = { applied: false, creditNote: null, suspended: [], capacityTaken: 0, owedCents: 0 }
  return ctx.db.transaction(async (tx) => {
    const owner = await clientOfTransaction(tx, r.transactionId)
    if (owner === null) return nothing
    const client = await findClientById(tx, owner, true)
    const t = await lockTransaction(tx, r.transactionId)
    if (!t || !client) return nothing
    if (!(await recordPaymentEvent(tx, { provider: r.provider, eventId: r.eventKey, sessionId: t.provider_session_id ?? '', outcome: 'cancelled' }, t.id)))
      return nothing
    if (t.status !== TRANSACTION_STATUS.ok) {
      ctx.log.error({ transaction: t.id, kind: r.kind }, 'money taken back of a transaction that is not paid: nothing to reverse; check it at the provider')
      return nothing
    }
    const left = t.amount_cents - (await refundedCents(tx, t.id))
    const amount = Math.min(r.amountCents ?? left, left)
    if (amount <= 0) {
      ctx.log.warn({ transaction: t.id, kind: r.kind }, 'the transaction was already taken back in full; nothing more reversed')
      return nothing
    }
    const now = ctx.clock.now()
    const note = await insertCreditNote(tx, {
      client_id: t.client_id,
      transaction_id: t.id,
      kind: r.kind,
      amount_cents: amount,
      reason: r.reason,
      provider_ref: r.providerRef ?? null,
      issued_at: now,
    })
    // a top-up's credit comes off the balance (its ledger's reversal entry); a purchase taken back
    // whole stops what it delivered (its licenses, its ungenerated capacity); a part leaves them
    const owed = t.kind === 'top_up' ? await debitForCreditNote(tx, t.client_id, t.id, note.id, amount) : 0
    const whole = amount === left
    const why = `${r.kind === 'refund' ? 'payment refunded' : r.kind === 'dispute' ? 'payment disputed' : 'payment reversed'} (${formatCreditNoteNumber(note.number)}): ${r.reason}`
    const stops = t.kind !== 'top_up' && whole
    const suspended = stops ? await suspendLicensesOf(tx, t.id, t.client_id, note.id, why) : []
    await endSubscriptionsOf(tx, suspended, note.id)
    const capacity = stops ? await takePurchaseCapacity(tx, t.id, note.id) : { recorded: false, taken: 0 }
    const capacityTaken = capacity.taken
    if (stops && t.kind === 'purchase' && !capacity.recorded)
      ctx.log.warn(
        { transaction: t.id, client: t.client_id, credit_note: note.number },
        'a basket order paid before purchases recorded what they delivered was taken back: its licenses and capacity are left as they are; check them by hand',
      )
    await recordActivityForLicenses(tx, suspended, {
      clientId: t.client_id,
      kind: 'suspended',
      details: { reason: why, transaction_id: t.id, credit_note: formatCreditNoteNumber(note.number) },
      at: now,
    })
    for (const licenseId of suspended) await emitWebhookEvent(ctx, tx, t.client_id, 'license.suspended', { license_id: licenseId, reason: why })
    ctx.log.warn(
      {
        transaction: t.id,
        client: t.client_id,
        kind: r.kind,
        amount,
        whole,
        credit_note: note.number,
        suspended: suspended.length,
        capacity_taken: capacityTaken,
        owed,
      },
      'payment taken back: credit note issued',
    )
    await ctx.mailer.enqueue(
      tx,
      reversedMail(ctx.config.PUBLIC_URL, client.email, {
        kind: r.kind,
        amount: formatCents(amount),
        what: t.description,
        creditNote: formatCreditNoteNumber(note.number),
        suspended: suspended.length,
        capacityTaken,
        partial: t.kind !== 'top_up' && !whole,
        owed: owed > 0 ? formatCents(owed) : null,
      }),
    )
    return { applied: true, creditNote: note, suspended, capacityTaken, owedCents: owed }
  })
}

/**
 * A dispute decided for the merchant: its credit note is closed (restored), a top-up's credit comes
 * back (paying what is owed first), the licenses it suspended are active again and the ungenerated
 * capacity it took is back in its groups, the customer is told. Once per event key. Answers whether
 * it restored anything. `reversalKey`: the key the dispute's own reversal goes under; a dispute won
 * before its opening was applied (events out of order) records it, so the opening, come late, takes
 * nothing back.
 */
export async function restoreDisputed(
  ctx: BillingCtx,
  r: { transactionId: number; provider: PaymentEvent['provider']; eventKey: string; reversalKey?: string },
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const owner = await clientOfTransaction(tx, r.transactionId)
    if (owner === null) return false
    const client = await findClientById(tx, owner, true)
    const t = await lockTransaction(tx, r.transactionId)
    if (!t || !client) return false
    if (!(await recordPaymentEvent(tx, { provider: r.provider, eventId: r.eventKey, sessionId: t.provider_session_id ?? '', outcome: 'paid' }, t.id)))
      return false
    const note = await lockOpenDispute(tx, t.id)
    if (!note) {
      if (r.reversalKey)
        await recordPaymentEvent(tx, { provider: r.provider, eventId: r.reversalKey, sessionId: t.provider_session_id ?? '', outcome: 'cancelled' }, t.id)
      return false
    }
    const now = ctx.clock.now()
    await markCreditNoteRestored(tx, note.id, now)
    if (t.kind === 'top_up') await creditForRestoredNote(tx, t.client_id, t.id, note.id, note.amount_cents)
    const restored = await restoreLicensesOf(tx, note.id)
    await restartSubscriptionsOf(tx, note.id)
    const capacity = await givePurchaseCapacityBack(tx, note.id)
    const why = `dispute closed in our favour (${formatCreditNoteNumber(note.number)})`
    await recordActivityForLicenses(tx, restored, { clientId: t.client_id, kind: 'restored', details: { reason: why, transaction_id: t.id }, at: now })
    await ctx.mailer.enqueue(tx, restoredMail(ctx.config.PUBLIC_URL, client.email, { what: t.description, restored: restored.length, capacity }))
    return true
  })
}

/** The open dispute of a transaction (a dispute not yet won), if any. */
export const lockOpenDisputeOf = (db: Queryable, transactionId: number) => lockOpenDispute(db, transactionId)
