import {
  CUSTOM_FACE_PRODUCT,
  OS_TYPES,
  TRANSACTION_TYPE,
  centsToUsd,
  chargedNowCents,
  discountedTotal,
  priceOrder,
  subscriptionInterval,
  type ContractBody,
  type OsType,
  type contracts,
} from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { fail } from '../../platform/errors.ts'
import { settleFromBalance, type Fulfilment } from '../billing/service.ts'
import { listPriceRows } from '../catalogue/service.ts'
import { openCheckout } from '../payments/service.ts'
import { promoDiscountFor, releasePromoOfTransaction, reservePromo } from '../promo/service.ts'
import type { TransactionLine } from '../transactions/service.ts'
import { fulfilLines } from './fulfilment.ts'
import { lockClient } from '../account/service.ts'

type PurchaseBody = Required<Pick<ContractBody<typeof contracts.resourceBuy>, 'items' | 'success_url' | 'cancel_url'>> &
  Omit<ContractBody<typeof contracts.resourceBuy>, 'items' | 'success_url' | 'cancel_url'>

/** The invoice line of a priced basket line: the entry's title, with the os for products sold per os. */
const lineTitle = (title: string, os: number | null) => (os === null ? title : `${title} (${OS_TYPES[os as OsType]})`)

/**
 * A purchase (POST /resource/buy/). Every item is priced here from the catalogue and the price table;
 * nothing the browser sends about prices or configs is trusted. Paid from the balance it is one
 * database transaction: the debit (refused below zero), the debit transaction with its invoice
 * number and the licenses in the client's groups. Paid by card or PayPal it opens the provider's
 * checkout; the licenses arrive when the provider confirms (basketFulfilments.purchase), exactly once.
 */
export async function purchase(ctx: AppContext, clientId: number, body: PurchaseBody, opts: { subscribe?: boolean } = {}) {
  const priced = priceOrder(body.items, await listPriceRows(ctx.db), { subscriptionsOnly: opts.subscribe })
  if (!('lines' in priced)) {
    return fail('item_not_for_sale', undefined, 'problem' in priced && priced.problem === 'not_for_sale' ? `items.${priced.index}` : 'items')
  }
  // section 5: what the purchase charges now (each subscription's first period), by card or from the balance
  const total = chargedNowCents(priced.lines)
  const lines: TransactionLine[] = priced.lines.map((l) => ({
    description: lineTitle(l.entry.title, l.os_type),
    quantity: l.count,
    amount_cents: l.amount_cents,
    entry_id: l.entry.id,
    os_type: l.os_type,
    ...(l.entry.product === CUSTOM_FACE_PRODUCT ? { license_content: l.entry.config.license_content } : {}),
  }))
  const description = lines.length === 1 ? `${lines[0]!.description} × ${lines[0]!.quantity}` : `Order of ${lines.length} products`
  const source = body.payment_source ?? 'stripe'
  const code = body.promocode?.trim() || null

  if (source !== 'balance') {
    // a promo code: its discount now, its activation reserved with the pending transaction (released if
    // the checkout cannot open, the payment is declined or expires; spent when it is paid)
    const platform = priced.lines[0]!.entry.platform
    const discount = code ? await promoDiscountFor(ctx.db, code, platform) : null
    const amount = discountedTotal(total, discount)
    const promoLine: TransactionLine[] =
      code && amount !== total ? [{ description: `Promo code ${code.toUpperCase()}`, quantity: 1, amount_cents: amount - total, kind: 'discount' }] : []
    const opened = await openCheckout(ctx, {
      clientId,
      kind: 'purchase',
      type: TRANSACTION_TYPE.debit,
      description,
      lines: [...lines, ...promoLine],
      // the provider charges the discounted total as one line
      checkoutLines: promoLine.length ? [{ description: `${description} (promo ${code!.toUpperCase()})`, quantity: 1, amount_cents: amount }] : undefined,
      amountCents: amount,
      source,
      // a subscription's first payment also saves the card or wallet for the renewals (the paid event's savedMethod)
      ...(opts.subscribe ? { mode: 'subscription' as const, interval: subscriptionInterval(priced.lines) } : {}),
      successPath: body.success_url,
      cancelPath: body.cancel_url,
      reserve: code
        ? (tx, transactionId) => reservePromo(tx, { code, clientId, ref: `transaction:${transactionId}`, platform, transactionId }).then(() => undefined)
        : undefined,
      release: code ? (tx, transactionId) => releasePromoOfTransaction(tx, transactionId) : undefined,
    })
    return { ...answer(opened.transaction_id, amount, opts), status: 'pending' as const, payment: opened.payment }
  }
  // section 5: the balance does not pay an order with a promo code
  if (code) return fail('promo_not_with_balance', undefined, 'payment_source')

  const id = await ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    const order = { clientId, kind: 'purchase', amountCents: total, description, lines, now: ctx.clock.now() }
    return settleFromBalance(ctx, tx, order, (t) => fulfilLines(tx, { transactionId: t.id, clientId }, lines, { source: 'balance', methodId: null }))
  })
  return { ...answer(id, total, opts), status: 'paid' as const, payment: null }
}

/** The order's ids: for now the order is its transaction (a subscription's id too, until renewals keep their own). */
const answer = (id: number, total: number, opts: { subscribe?: boolean }) => ({
  order_id: id,
  transaction_id: id,
  ...(opts.subscribe ? { subscription_id: id } : {}),
  amount: centsToUsd(total),
})

/** What a basket order paid by card or PayPal delivers: its licenses, as a balance purchase gets them at once. */
export const basketFulfilments: Record<string, Fulfilment> = {
  purchase: {
    paid: (_ctx, tx, t, paidWith) =>
      fulfilLines(tx, { transactionId: t.id, clientId: t.client_id }, t.lines, {
        source: t.payment_source === 'paypal' ? 'paypal' : 'stripe',
        methodId: paidWith.methodId,
      }),
  },
}
