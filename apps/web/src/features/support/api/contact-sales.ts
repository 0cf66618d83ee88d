import { useMutation } from '@tanstack/react-query'
import { contractCalls, type ContractBody, type contracts } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

export type SalesMessage = ContractBody<typeof contracts.salesContact>

/** POST /api/support/contacts-sales/; field errors, an unknown recipient and the rate limit land on the form. */
export const sendSalesMessage = (body: SalesMessage) =>
  call(contractCalls.salesContact, { body }, { handle: ['validation_failed', 'sales_recipient_unknown', 'rate_limited'] })

export const useSendSalesMessage = () => useMutation({ mutationFn: sendSalesMessage })
