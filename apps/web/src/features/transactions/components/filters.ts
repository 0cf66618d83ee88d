import type { TransactionStatus, TransactionView } from '@portal/domain'
import { localIsoDay } from '../../../lib/format.ts'

export const TRANSACTION_FILTERS = ['all', 'ok', 'pending', 'declined', 'expired'] as const satisfies readonly ('all' | TransactionStatus)[]
export type StatusFilter = (typeof TRANSACTION_FILTERS)[number]

/** A creation-date range of local calendar days, 'YYYY-MM-DD', either end open (a range being picked has only its start). */
export type DayRange = [string | null, string | null]

/** The local calendar day a transaction was created on. */
export const creationDay = (t: Pick<TransactionView, 'creation_date'>) => localIsoDay(t.creation_date)

/** The transactions of a status created within the days (both ends included). */
export function filterTransactions<T extends Pick<TransactionView, 'status' | 'creation_date'>>(
  list: readonly T[],
  status: StatusFilter,
  [from, to]: DayRange,
): T[] {
  return list.filter((t) => {
    if (status !== 'all' && t.status !== status) return false
    const day = creationDay(t)
    return (!from || day >= from) && (!to || day <= to)
  })
}
