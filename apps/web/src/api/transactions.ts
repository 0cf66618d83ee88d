import { queryOptions } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../lib/api-client.ts'

/** GET /api/transaction/: the client's transactions, newest first; read by the payment documents and the top-up's success modal. */
export const getTransactions = (signal?: AbortSignal) => call(contractCalls.transactionList, {}, { signal })

export const transactionsQueryOptions = () =>
  queryOptions({
    queryKey: ['transactions'] as const,
    queryFn: ({ signal }) => getTransactions(signal),
  })
