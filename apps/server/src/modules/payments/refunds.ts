import { TRANSACTION_STATUS, formatCreditNoteNumber, type Cents } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import type { ProviderNotice } from '../../platform/payments/port.ts'
import { lockOpenDisputeOf, reversePayment, restoreDisputed, transactionOfPayment, type BillingCtx, type ReversalResult } from '../billing/service.ts'
import { findTransactionById } from '../transactions/service.ts'

/**
 * Money given back or taken back at the provider: a staff refund (payments:refund) asks the provider
 * first and then reverses in billing under the provider's refund id, so the provider's own webhook
 * about the same refund reverses nothing more; a provider's refund, reversal or dispute reverses
 * the same way; the sandbox's disputes (sandbox:dispute) stand in for a card network's.
 */

type Ctx = BillingCtx & Pick<AppContext, 'payments'>

export class RefundRefused extends Error {}

/** A staff refund through the provider that took the payment; answers the credit note and what it did. */
export async function refundTransaction(ctx: Ctx, r: { transactionId: number; amountCents?: Cents; reason: string }): Promise<ReversalResult> {
  const t = await findTransactionById(ctx.db, r.transactionId)
  if (!t) throw new RefundRefused(`No transaction ${r.transactionId}.`)
  if (t.status !== TRANSACTION_STATUS.ok) throw new RefundRefused(`Transaction ${t.id} is not paid: nothing to refund.`)
  const provider = t.provider ? ctx.payments.byName(t.provider as 'sandbox' | 'stripe' | 'paypal') : undefined
  if (!provider?.refund || !t.provider_session_id)
    throw new RefundRefused(`Transaction ${t.id} was not paid through a payment provider (${t.payment_source}): adjust the balance instead.`)
  const amount = r.amountCents ?? t.amount_cents
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > t.amount_cents)
    throw new RefundRefused(`Refund between 0.01 and the payment's ${t.amount_cents / 100} USD.`)
  const { refundId } = await provider.refund({
    transactionId: t.id,
    sessionId: t.provider_session_id,
    amountCents: amount,
    // one refund per transaction and amount asked: a retried command refunds once
    idempotencyKey: `refund:${t.id}:${amount}`,
    reason: r.reason,
  })
  return reversePayment(ctx, {
    transactionId: t.id,
    kind: 'refund',
    amountCents: amount,
    reason: r.reason,
    provider: provider.name,
    eventKey: `refund:${refundId}`,
    providerRef: refundId,
  })
}

type MoneyNotice = Extract<ProviderNotice, { kind: 'refunded' | 'reversed' | 'disputed' | 'dispute_won' }>

/** the transaction a provider's notice is about: by its checkout, or by its payment (PayPal's capture, Stripe's PaymentIntent) */
async function transactionOfNotice(ctx: Ctx, notice: MoneyNotice): Promise<number | null> {
  const sessionId = 'sessionId' in notice ? notice.sessionId : null
  const transactionId = await transactionOfPayment(ctx.db, notice.provider, sessionId, notice.paymentRef ?? null)
  if (transactionId === null) {
    ctx.log.error(
      { provider: notice.provider, event: notice.eventId, order: sessionId, payment: notice.paymentRef ?? null },
      'money taken back of a payment the portal does not know; check it at the provider',
    )
  }
  return transactionId
}

/**
 * A provider's refund or reversal notice (PayPal's PAYMENT.CAPTURE.REFUNDED / REVERSED, each refund
 * of Stripe's charge.refunded), applied once per refund: keyed by the refund's id, as a staff refund is.
 */
export async function applyTakenBack(ctx: Ctx, notice: Extract<ProviderNotice, { kind: 'refunded' | 'reversed' }>): Promise<ReversalResult | null> {
  const transactionId = await transactionOfNotice(ctx, notice)
  if (transactionId === null) return null
  return reversePayment(ctx, {
    transactionId,
    kind: notice.kind === 'refunded' ? 'refund' : 'reversal',
    ...(notice.amountCents !== undefined ? { amountCents: notice.amountCents } : {}),
    reason: notice.kind === 'refunded' ? 'refunded at the payment provider' : 'reversed by the payment provider (a chargeback or a bank return)',
    provider: notice.provider,
    eventKey: notice.eventId,
    providerRef: notice.providerRef ?? null,
  })
}

/**
 * A provider's dispute (Stripe's charge.dispute.created, or .closed lost): taken back as
 * sandbox:dispute does (a credit note, the licenses suspended, a top-up's credit off the balance),
 * once per dispute; a dispute won (charge.dispute.closed won) restores what it suspended, once.
 */
export async function applyDispute(ctx: Ctx, notice: Extract<ProviderNotice, { kind: 'disputed' | 'dispute_won' }>): Promise<boolean> {
  const transactionId = await transactionOfNotice(ctx, notice)
  if (transactionId === null) return false
  if (notice.kind === 'dispute_won')
    return restoreDisputed(ctx, { transactionId, provider: notice.provider, eventKey: notice.eventId, reversalKey: notice.reversalKey })
  const result = await reversePayment(ctx, {
    transactionId,
    kind: 'dispute',
    ...(notice.amountCents !== undefined ? { amountCents: notice.amountCents } : {}),
    reason: 'the card holder disputed the payment',
    provider: notice.provider,
    eventKey: notice.eventId,
    providerRef: notice.providerRef,
  })
  return result.applied
}

/**
 * The sandbox's dispute of a paid sandbox transaction: lost (the default) takes the payment back as
 * a card network's chargeback does; won restores what a lost one suspended. Answers what it did.
 */
export async function disputeSandboxTransaction(ctx: Ctx, transactionId: number, outcome: 'lost' | 'won'): Promise<string> {
  const t = await findTransactionById(ctx.db, transactionId)
  if (!t || t.provider !== 'sandbox') throw new RefundRefused(`No sandbox transaction ${transactionId}.`)
  if (outcome === 'won') {
    const open = await lockOpenDisputeOf(ctx.db, t.id)
    if (!open) throw new RefundRefused(`Transaction ${t.id} has no open dispute.`)
    await restoreDisputed(ctx, { transactionId: t.id, provider: 'sandbox', eventKey: `dispute-won:${open.id}` })
    return `The dispute of transaction ${t.id} was won: ${formatCreditNoteNumber(open.number)} is closed and what it suspended is restored.`
  }
  if (await lockOpenDisputeOf(ctx.db, t.id)) return `Transaction ${t.id} is already disputed.`
  const result = await reversePayment(ctx, {
    transactionId: t.id,
    kind: 'dispute',
    reason: 'the card holder disputed the payment',
    provider: 'sandbox',
    eventKey: `dispute:${t.id}:${Date.now()}`,
  })
  if (!result.applied || !result.creditNote) throw new RefundRefused(`Transaction ${t.id} cannot be disputed (not paid, or refunded in full).`)
  return `Transaction ${t.id} disputed: credit note ${formatCreditNoteNumber(result.creditNote.number)}, ${result.suspended.length} license(s) suspended, ${result.capacityTaken} ungenerated license(s) taken out of their groups.`
}
