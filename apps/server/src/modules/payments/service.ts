/**
 * The payments module as the others use it: the provider checkout a purchase opens, the payment
 * methods kept for renewals, the sandbox. Settling what a checkout paid is modules/billing's.
 */
export { openCheckout, type CheckoutOrder } from './checkout.ts'
export type { PaymentMethodRow } from './queries.ts'
export { isSandboxProvider, settleSandboxCheckout } from './sandbox.ts'
export { reconcilePayments, RECONCILE_DEFAULT_HOURS, type ReconcileReport } from './reconcile.ts'
export { RefundRefused, disputeSandboxTransaction, refundTransaction } from './refunds.ts'
