export * from './errors.ts'
export * from './validation.ts'
export * from './fields.ts'
export * from './platforms.ts'
export * from './auth.ts'
export * from './session.ts'
export * from './client.ts'
export * from './money.ts'
export * from './basket.ts'
export * from './prices.ts'
export * from './face-custom.ts'
export * from './navigation.ts'
export * from './messages.ts'
export * from './text-limits.ts'
export * from './catalogue.ts'
export * from './licenses.ts'
export * from './license-schemas.ts'
export * from './license-views.ts'
export * from './license-list.ts'
export * from './license-file.ts'
export * from './locks.ts'
export * from './seats.ts'
export * from './analytics.ts'
export * from './promo.ts'
export * from './onboarding.ts'
export * from './support.ts'
export * from './sales-message.ts'
export * from './subscriptions.ts'
export * from './cloud-plans.ts'
export * from './feedback.ts'
export * from './activity.ts'
export * from './tokens.ts'
export * from './webhooks.ts'
export * from './orgs.ts'
export * from './fleet.ts'
export * from './contract.ts'
export { contracts, type ContractCalls } from './contracts/index.ts'
export { contractCalls } from './contract-calls.ts'
export { offlineActivationBody, usbActivationBody } from './contracts/activation.ts'
export {
  creditNoteSchema,
  paymentSchema,
  refillBody,
  sandboxSessionSchema,
  transactionSchema,
  transactionListQuery,
  TRANSACTION_PAGE_MAX,
  type CreditNoteView,
  type TransactionListQuery,
  type TransactionView,
} from './contracts/money.ts'
