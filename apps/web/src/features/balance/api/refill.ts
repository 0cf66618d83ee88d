import { useMutation } from '@tanstack/react-query'
import { contractCalls, type ContractBody, type contracts } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

export type RefillBody = ContractBody<typeof contracts.balanceRefill>

/**
 * POST /api/balance/refill/: answers the provider's checkout to send the browser to. A refused
 * amount lands on the amount field and a provider that is down is said in the modal; an error
 * answer without a code means the payment system failed (spec section 8).
 */
export const refillBalance = (body: RefillBody) =>
  call(contractCalls.balanceRefill, { body }, { handle: ['refill_amount', 'external_payments_unavailable'], codeless: 'external_payments_unavailable' })

export const useRefillBalance = () => useMutation({ mutationFn: refillBalance })
