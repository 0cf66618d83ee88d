import { PAYMENT_SESSION_HOURS, TRANSACTION_STATUS, TRANSACTION_TYPE, type Cents, type ExternalPaymentSource } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import type { Queryable } from '../../db/db.ts'
import { fail } from '../../platform/errors.ts'
import { findClientById } from '../account/service.ts'
import { deleteTransaction, insertTransaction, setProviderSession, type TransactionLine } from '../transactions/service.ts'

export interface CheckoutOrder {
  clientId: number
  /** what the transaction is: top_up, purchase… (its fulfilment when paid: ctx.fulfilments, modules/billing) */
  kind: string
  /** 0 credit (money onto the balance), 1 debit (a purchase) */
  type: (typeof TRANSACTION_TYPE)[keyof typeof TRANSACTION_TYPE]
  description: string
  lines: TransactionLine[]
  amountCents: Cents
  source: ExternalPaymentSource
  mode?: 'payment' | 'subscription'
  /** a subscription's term: how often the provider is told it renews */
  interval?: 'month' | 'year'
  /** /app/ paths (the contract checked them); made absolute on PUBLIC_URL for the provider */
  successPath: string
  cancelPath: string
  /** what the provider is asked to charge, when it differs from the invoice's lines (a discounted order: one line of the total) */
  checkoutLines?: TransactionLine[]
  /** runs in the transaction that writes the pending transaction (a purchase reserves its promo code there) */
  reserve?: (tx: Queryable, transactionId: number) => Promise<void>
  /** gives back what reserve took when the checkout cannot be opened */
  release?: (tx: Queryable, transactionId: number) => Promise<unknown>
  /**
   * when the pending transaction (and the provider's checkout) expires; default PAYMENT_SESSION_HOURS
   * from now. An upgrade passes its hold's end, so the expiry job closes it when the hold ends.
   */
  expiresAt?: Date
}

export interface OpenedCheckout {
  transaction_id: number
  payment: { provider: 'sandbox' | 'stripe' | 'paypal'; provider_data: { session_id: string; url: string } }
}

/**
 * Opens a provider checkout for a pending transaction. The transaction is written first (so a
 * webhook that beats our answer finds it), then the provider is asked; if the provider is down or
 * refuses, the transaction is removed again and the caller gets external_payments_unavailable:
 * nothing is left behind.
 */
export async function openCheckout(ctx: AppContext, order: CheckoutOrder): Promise<OpenedCheckout> {
  let provider
  try {
    provider = ctx.payments.forSource(order.source)
  } catch {
    return fail('external_payments_unavailable')
  }
  const client = (await findClientById(ctx.db, order.clientId)) ?? fail('unauthorized')
  const expiresAt = order.expiresAt ?? new Date(ctx.clock.now().getTime() + PAYMENT_SESSION_HOURS * 3600_000)
  const t = await ctx.db.transaction(async (tx) => {
    const row = await insertTransaction(tx, {
      clientId: order.clientId,
      type: order.type,
      status: TRANSACTION_STATUS.pending,
      amountCents: order.amountCents,
      kind: order.kind,
      description: order.description,
      lines: order.lines,
      paymentSource: order.source,
      expiresAt,
      invoiceNumber: null,
    })
    await order.reserve?.(tx, row.id)
    return row
  })
  try {
    const session = await provider.createCheckout({
      transactionId: t.id,
      source: order.source,
      mode: order.mode ?? 'payment',
      ...(order.interval ? { interval: order.interval } : {}),
      lines: (order.checkoutLines ?? order.lines).map((l) => ({ description: l.description, quantity: l.quantity, amount_cents: l.amount_cents })),
      amountCents: order.amountCents,
      customerEmail: client.email,
      successUrl: ctx.config.PUBLIC_URL + order.successPath,
      cancelUrl: ctx.config.PUBLIC_URL + order.cancelPath,
      expiresAt,
    })
    await setProviderSession(ctx.db, t.id, session.provider, session.sessionId)
    return { transaction_id: t.id, payment: { provider: session.provider, provider_data: { session_id: session.sessionId, url: session.url } } }
  } catch (err) {
    ctx.log.warn({ err, source: order.source, provider: provider.name }, 'payment provider refused a checkout')
    await ctx.db
      .transaction(async (tx) => {
        await order.release?.(tx, t.id)
        await deleteTransaction(tx, t.id)
      })
      .catch((e: unknown) => ctx.log.error({ err: e, transaction: t.id }, 'could not remove a failed checkout'))
    return fail('external_payments_unavailable')
  }
}
