import { TRANSACTION_STATUS, transactionStatusOf, type TransactionStatus } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { fail } from '../../platform/errors.ts'
import {
  PaymentUnavailable,
  WebhookSignatureError,
  isPaymentEvent,
  type PaymentEvent,
  type ProviderNotice,
  type WebhookRequest,
} from '../../platform/payments/port.ts'
import { findTransactionBySession } from '../transactions/service.ts'
import { applyDispute, applyTakenBack } from './refunds.ts'
import { applyPaymentEvent, forgetPaymentMethod, type AppliedEvent, type BillingCtx } from '../billing/service.ts'

/**
 * The real providers' ways back into the portal: Stripe's signed webhook and PayPal's capture after
 * approval. Both end in applyPaymentEvent, which applies an event once however often it comes.
 */

type Ctx = BillingCtx & Pick<AppContext, 'payments'>

/** A paid event that found its transaction already closed took money the portal did not credit: an operator must refund it. */
function warnIfPaidButClosed(ctx: Ctx, event: PaymentEvent, result: AppliedEvent) {
  if (event.outcome === 'paid' && !result.applied && result.status !== null && result.status !== 'ok') {
    ctx.log.error(
      { provider: event.provider, session: event.sessionId, event: event.eventId, transaction: result.transactionId, status: result.status },
      'provider reports a payment for a transaction that is no longer pending; refund it at the provider',
    )
  }
}

/** What a provider's webhook reported, applied once through the payment event log, each notice in turn. */
async function applyWebhook(ctx: Ctx, reading: PaymentEvent | ProviderNotice | ProviderNotice[]) {
  for (const event of Array.isArray(reading) ? reading : [reading]) {
    if (isPaymentEvent(event)) warnIfPaidButClosed(ctx, event, await applyPaymentEvent(ctx, event))
    else if (event.kind === 'method_deleted') await forgetPaymentMethod(ctx, event)
    else if (event.kind === 'disputed' || event.kind === 'dispute_won') await applyDispute(ctx, event)
    else await applyTakenBack(ctx, event)
  }
}

/**
 * A Stripe webhook: verified by its signature, then applied: a Checkout Session's outcome, a
 * charge's refunds, a dispute opened or decided. Stripe not configured: the route does not exist
 * for it (404); configured without STRIPE_WEBHOOK_SECRET, or Stripe not answering what the event
 * needs read (a saved card, a charge's refunds): 503, so Stripe delivers it again. An event type the
 * portal does not act on is acknowledged.
 */
export async function receiveStripeWebhook(ctx: Ctx, req: WebhookRequest): Promise<void> {
  const stripe = ctx.payments.byName('stripe')
  if (!stripe?.readWebhook) return fail('route_not_found')
  let event: PaymentEvent | ProviderNotice | ProviderNotice[] | null
  try {
    event = await stripe.readWebhook(req)
  } catch (err) {
    if (err instanceof WebhookSignatureError) {
      ctx.log.warn({ reason: err.message }, 'Stripe webhook with a bad signature refused')
      return fail('webhook_signature')
    }
    if (err instanceof PaymentUnavailable) {
      ctx.log.error({ reason: err.message }, 'Stripe webhook cannot be verified')
      return fail('external_payments_unavailable')
    }
    throw err
  }
  if (!event) return
  await applyWebhook(ctx, event)
}

export interface CaptureResult {
  transaction_id: number
  transaction_status: TransactionStatus
  /** the buyer's funding source was refused: PayPal's page to choose another (the transaction stays pending) */
  approve_url?: string
}

/**
 * Captures an approved PayPal order of the client's and applies the capture. A settled transaction
 * answers its status without calling PayPal again (so a closed one is never charged); a repeated
 * or parallel sync of a pending one gets the same capture back from PayPal and applies it once.
 * Another client's order, or one the portal did not open, is not found.
 */
export async function capturePaypalOrder(ctx: Ctx, clientId: number, orderId: string): Promise<CaptureResult> {
  const t = await findTransactionBySession(ctx.db, clientId, 'paypal', orderId)
  if (!t) return fail('not_found')
  if (t.status !== TRANSACTION_STATUS.pending) return { transaction_id: t.id, transaction_status: transactionStatusOf(t.status) }
  const paypal = ctx.payments.byName('paypal')
  if (!paypal?.capture) return fail('external_payments_unavailable')
  let event: Awaited<ReturnType<NonNullable<typeof paypal.capture>>>
  try {
    event = await paypal.capture(orderId)
  } catch (err) {
    if (err instanceof PaymentUnavailable && err.providerRef) {
      // PayPal holds the capture (review, eCheck): the transaction stays pending with its order, which
      // the reconcile job and PayPal's webhook settle later; nothing is captured or created again
      ctx.log.info({ order: orderId, transaction: t.id, reason: err.message }, 'PayPal holds the capture; the payment stays pending')
      return { transaction_id: t.id, transaction_status: 'pending' }
    }
    if (err instanceof PaymentUnavailable) {
      ctx.log.warn({ order: orderId, transaction: t.id, reason: err.message }, 'PayPal capture failed; nothing changed')
      return fail('external_payments_unavailable')
    }
    throw err
  }
  if ('retryUrl' in event) {
    ctx.log.info({ order: orderId, transaction: t.id }, 'PayPal refused the funding source; the buyer goes back to PayPal to choose another')
    return { transaction_id: t.id, transaction_status: transactionStatusOf(t.status), approve_url: event.retryUrl }
  }
  const result = await applyPaymentEvent(ctx, event)
  warnIfPaidButClosed(ctx, event, result)
  return { transaction_id: t.id, transaction_status: result.status ?? transactionStatusOf(t.status) }
}

/**
 * A PayPal webhook: PayPal vouches for it (verify-webhook-signature with PAYPAL_WEBHOOK_ID), then it
 * applies once through the payment event log: a capture completed or denied settles its order's
 * transaction (the same event id as the capture call and the reconcile job, so whichever comes first
 * credits, once); a refund or reversal is reversed by billing; a deleted vault token is forgotten.
 * PayPal not configured: 404; configured without PAYPAL_WEBHOOK_ID: 503, so PayPal delivers it again.
 */
export async function receivePaypalWebhook(ctx: Ctx, req: WebhookRequest): Promise<void> {
  const paypal = ctx.payments.byName('paypal')
  if (!paypal?.readWebhook) return fail('route_not_found')
  let event: PaymentEvent | ProviderNotice | ProviderNotice[] | null
  try {
    event = await paypal.readWebhook(req)
  } catch (err) {
    if (err instanceof WebhookSignatureError) {
      ctx.log.warn({ reason: err.message }, 'PayPal webhook refused: PayPal did not verify it')
      return fail('webhook_signature')
    }
    if (err instanceof PaymentUnavailable) {
      ctx.log.error({ reason: err.message }, 'PayPal webhook cannot be verified or read now')
      return fail('external_payments_unavailable')
    }
    throw err
  }
  if (!event) return
  await applyWebhook(ctx, event)
}
