import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { contractCalls, ACTIVITY_PAGE_DEFAULT } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** GET /account/history/: the client's history, newest first, a page at a time. */
export const getAccountHistory = (offset: number, limit = ACTIVITY_PAGE_DEFAULT) => call(contractCalls.accountHistory, { query: { offset, limit } })

/** Pages of ACTIVITY_PAGE_DEFAULT lines; the next page starts where the loaded ones end, until total. */
export const accountHistoryQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['activity', 'account'],
    queryFn: ({ pageParam }) => getAccountHistory(pageParam),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.offset + last.events.length < last.total && last.events.length > 0 ? last.offset + last.events.length : undefined),
  })
export const useAccountHistory = () => useInfiniteQuery(accountHistoryQueryOptions())
