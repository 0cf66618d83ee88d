import { PAYMENT_SESSION_HOURS, TRANSACTION_STATUS, TRANSACTION_TYPE, refillBody } from '@portal/domain'
import type { z } from 'zod'
import { RATE_LIMITS, type AppContext } from '../../context.ts'
import { fail } from '../../platform/errors.ts'
import { PaymentUnavailable, type CheckoutSession } from '../../platform/payments/port.ts'
import { hit } from '../../platform/rate-limit.ts'
import { findClientById } from '../account/queries.ts'
import { deletePendingTransaction, insertTransaction, setProviderSession } from '../transactions/queries.ts'

export const TOP_UP_DESCRIPTION = 'Balance top-up'

/**
 * Top-up: a pending credit transaction and the provider's checkout that will pay it. The balance
 * grows only when the provider reports the payment (payments/service.ts). The checkout is opened
 * outside any database transaction (a provider is a network call, and the sandbox writes its own
 * store); when it fails, the pending transaction is deleted, so nothing stays behind.
 */
export async function refill(ctx: AppContext, clientId: number, body: z.output<typeof refillBody>) {
  await hit(ctx.db, [{ key: `refill:client:${clientId}`, ...RATE_LIMITS.refillPerClient }])
  const client = (await findClientById(ctx.db, clientId)) ?? fail('unauthorized')
  const amountCents = body.amount * 100
  const lines = [{ description: TOP_UP_DESCRIPTION, quantity: 1, amount_cents: amountCents }]
  const expiresAt = new Date(Date.now() + PAYMENT_SESSION_HOURS * 3600 * 1000)

  let provider
  try {
    provider = ctx.payments.forSource(body.payment_source)
  } catch (err) {
    ctx.log.warn({ err, source: body.payment_source }, 'no payment provider serves the source')
    return fail('external_payments_unavailable')
  }

  const transaction = await insertTransaction(ctx.db, {
    clientId,
    type: TRANSACTION_TYPE.credit,
    status: TRANSACTION_STATUS.pending,
    amountCents,
    kind: 'top_up',
    description: TOP_UP_DESCRIPTION,
    lines,
    paymentSource: body.payment_source,
    expiresAt,
    invoiceNumber: null,
  })
  let session: CheckoutSession
  try {
    session = await provider.createCheckout({
      transactionId: transaction.id,
      source: body.payment_source,
      mode: 'payment',
      lines,
      amountCents,
      customerEmail: client.email,
      successUrl: `${ctx.config.PUBLIC_URL}${body.success_url}`,
      cancelUrl: `${ctx.config.PUBLIC_URL}${body.cancel_url}`,
      expiresAt,
    })
  } catch (err) {
    await deletePendingTransaction(ctx.db, transaction.id)
    const known = err instanceof PaymentUnavailable
    ctx.log[known ? 'warn' : 'error']({ err, provider: provider.name }, known ? 'payment provider unavailable' : 'payment provider failed')
    return fail('external_payments_unavailable')
  }
  await setProviderSession(ctx.db, transaction.id, session.provider, session.sessionId)
  return { payment: { provider: session.provider, provider_data: { session_id: session.sessionId, url: session.url } }, transaction_id: transaction.id }
}
