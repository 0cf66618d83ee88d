import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { contractCalls, type TransactionListQuery } from '@portal/domain'
import { call } from '../lib/api-client.ts'

/** Transactions in one page of the payment documents. */
export const TRANSACTIONS_PAGE = 50

/** GET /api/transaction/: the client's transactions that match, newest first, with the total that matches. */
export const getTransactions = ({ offset, limit, ...selection }: TransactionSelection & { offset?: number; limit: number }, signal?: AbortSignal) =>
  call(contractCalls.transactionList, { query: { ...selection, ...(offset ? { offset: String(offset) } : {}), limit: String(limit) } }, { signal })

/** The newest transaction alone: the top-up's success modal reads its state. */
export const newestTransactionQueryOptions = () =>
  queryOptions({
    queryKey: ['transactions', 'newest'] as const,
    queryFn: ({ signal }) => getTransactions({ limit: 1 }, signal),
  })

/** Which transactions the payment documents show: a status and a creation window [from, to) of ISO instants. */
export type TransactionSelection = Pick<TransactionListQuery, 'status' | 'from' | 'to'>

/** The payment documents a page at a time: the next page starts where the loaded ones end, until the total. */
export const transactionPagesQueryOptions = (selection: TransactionSelection) =>
  infiniteQueryOptions({
    queryKey: ['transactions', 'pages', selection] as const,
    queryFn: ({ pageParam, signal }) => getTransactions({ ...selection, offset: pageParam, limit: TRANSACTIONS_PAGE }, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.transactions.length, 0)
      return last.transactions.length > 0 && loaded < last.total ? loaded : undefined
    },
  })
