import { z } from '../zod.ts'
import { contract } from '../contract.ts'
import { purchaseItemSchema } from '../basket.ts'
import { PAYMENT_SOURCES, appReturnPath } from '../money.ts'
import { text } from '../fields.ts'
import { paymentSchema } from './money.ts'

export const purchaseBody = z.object({
  payment_source: z.enum(PAYMENT_SOURCES).default('stripe'),
  success_url: appReturnPath,
  cancel_url: appReturnPath,
  items: z.array(purchaseItemSchema).min(1).max(20),
  promocode: text().max(64).nullable().optional().describe('a promo code of the catalogue; none with payment_source balance (else promo_not_with_balance)'),
})

/**
 * A purchase paid from the balance is done at once (`status: 'paid'`, the order's licenses are in
 * the client's groups); one paid by card or PayPal answers the checkout to send the customer to
 * (`status: 'pending'`) and is fulfilled when the provider confirms the payment.
 */
const purchaseResponse = z.object({
  status: z.enum(['paid', 'pending']),
  order_id: z.number(),
  transaction_id: z.number(),
  /** a subscription's order (POST /resource/subscribe/): the id its renewals will carry */
  subscription_id: z.number().optional(),
  /** USD, 2 decimals: what was charged */
  amount: z.number(),
  payment: paymentSchema.nullable(),
})

const purchaseErrors = [
  'item_not_for_sale',
  'insufficient_funds',
  'external_payments_unavailable',
  'promo_not_found',
  'promo_expired',
  'promo_wrong_platform',
  'promo_used_up',
  'promo_not_with_balance',
] as const

export const basketContracts = {
  resourceBuy: contract({
    method: 'POST',
    path: '/resource/buy/',
    auth: 'client',
    permission: 'money',
    tags: ['basket'],
    summary: 'Buy licenses: the server prices every item from the catalogue and the price table; pay from the balance, by card or by PayPal',
    body: purchaseBody,
    response: { 200: purchaseResponse },
    errors: [...purchaseErrors],
    fieldErrors: { success_url: 'return_url_invalid', cancel_url: 'return_url_invalid' },
  }),
  resourceSubscribe: contract({
    method: 'POST',
    path: '/resource/subscribe/',
    auth: 'client',
    permission: 'money',
    tags: ['basket'],
    summary: 'Subscribe: as /resource/buy/, for subscription products only (the first period is charged now)',
    body: purchaseBody,
    response: { 200: purchaseResponse },
    errors: [...purchaseErrors],
    fieldErrors: { success_url: 'return_url_invalid', cancel_url: 'return_url_invalid' },
  }),
} as const
