import { contracts, type ContractBody } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

export type PurchaseBody = ContractBody<typeof contracts.resourceBuy>

/** The purchase failures the checkout explains itself (no error modal for these). */
const HANDLED = ['insufficient_funds', 'item_not_for_sale', 'external_payments_unavailable'] as const

/** POST /api/resource/buy/: one-off licenses (perpetual, terms). */
export const buy = (body: PurchaseBody) => call(contracts.resourceBuy, { body }, { handle: HANDLED })

/** POST /api/resource/subscribe/: subscription products only (the first period is charged now). */
export const subscribe = (body: PurchaseBody) => call(contracts.resourceSubscribe, { body }, { handle: HANDLED })
