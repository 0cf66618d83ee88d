import { contractCalls, type ContractBody, type ContractResponse, type contracts } from '@portal/domain'
import { call } from '../lib/api-client.ts'

export type ReactivateBody = ContractBody<typeof contracts.licenseReactivateSubscription>
export type ReactivateAnswer = ContractResponse<typeof contracts.licenseReactivateSubscription>

/** The refusals the renew dialog explains itself, beside its buttons (no error modal for these). */
export const REACTIVATE_HANDLED = ['subscription_cancelled', 'wallet_renewal_unavailable', 'insufficient_funds', 'external_payments_unavailable'] as const

/**
 * POST /api/license/{id}/reactivate-subscription/: a cancellation within the paid period is undone
 * (`ok`); an ended, stopped or past-due subscription is paid for a new period (`paid` from the
 * balance, or `pending` with the provider's checkout).
 */
export const reactivateSubscription = (id: number, body: ReactivateBody) =>
  call(contractCalls.licenseReactivateSubscription, { params: { id }, body }, { handle: REACTIVATE_HANDLED })
