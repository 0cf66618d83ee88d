import { useMutation } from '@tanstack/react-query'
import { contractCalls, type ContractBody, type contracts } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

export type PayRenewalBody = ContractBody<typeof contracts.licensePayRenewal>

/** The refusals the renewal-payment page explains itself (no error modal for these). */
export const PAY_RENEWAL_HANDLED = ['action_unavailable', 'external_payments_unavailable'] as const

/**
 * POST /api/license/{id}/renewal-payment/: the checkout where the customer pays the renewal that
 * asked for authentication. The browser leaves for it, so nothing in the cache changes here; the
 * page is read again when the checkout sends the customer back.
 */
export const payRenewal = (id: number, body: PayRenewalBody) => call(contractCalls.licensePayRenewal, { params: { id }, body }, { handle: PAY_RENEWAL_HANDLED })
export const usePayRenewal = () => useMutation({ mutationFn: ({ id, body }: { id: number; body: PayRenewalBody }) => payRenewal(id, body) })
