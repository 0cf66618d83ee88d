import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** GET /api/license/{id}/renewal-payment/: the renewal waiting for the customer (amount, period, pay-by date). */
export const getRenewalPayment = (id: number) => call(contractCalls.licenseRenewalPayment, { params: { id } }, { handle: ['not_found'] })
export const renewalPaymentQueryOptions = (id: number) =>
  queryOptions({ queryKey: ['licenses', id, 'renewal-payment'] as const, queryFn: () => getRenewalPayment(id), retry: false })
/** `confirming`: the customer is back from the checkout, so it is read again until the payment system confirms it (nothing due any more). */
export const useRenewalPayment = (id: number, opts: { enabled: boolean; confirming: boolean; everyMs: number }) =>
  useQuery({
    ...renewalPaymentQueryOptions(id),
    enabled: opts.enabled,
    refetchInterval: (query) => (opts.confirming && query.state.data?.due ? opts.everyMs : false),
  })
