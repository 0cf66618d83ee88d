import { contractCalls, type ContractBody, type contracts } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

export type PurchaseBody = ContractBody<typeof contracts.resourceBuy>

/** A promo code the server refuses at purchase time (it ran out or expired since it was applied). */
export const PURCHASE_PROMO_ERRORS = ['promo_not_found', 'promo_expired', 'promo_wrong_platform', 'promo_used_up', 'promo_not_with_balance'] as const

/** The purchase failures the checkout explains itself (no error modal for these). */
const HANDLED = ['insufficient_funds', 'item_not_for_sale', 'external_payments_unavailable', ...PURCHASE_PROMO_ERRORS] as const

/** POST /api/resource/buy/: one-off licenses (perpetual, terms). */
export const buy = (body: PurchaseBody) => call(contractCalls.resourceBuy, { body }, { handle: HANDLED })

/** POST /api/resource/subscribe/: subscription products only (the first period is charged now). */
export const subscribe = (body: PurchaseBody) => call(contractCalls.resourceSubscribe, { body }, { handle: HANDLED })
