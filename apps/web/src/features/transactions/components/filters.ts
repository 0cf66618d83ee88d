import type { TransactionStatus } from '@portal/domain'
import type { TransactionSelection } from '../../../api/transactions.ts'

export const TRANSACTION_FILTERS = ['all', 'ok', 'pending', 'declined', 'expired'] as const satisfies readonly ('all' | TransactionStatus)[]
export type StatusFilter = (typeof TRANSACTION_FILTERS)[number]

/** A creation-date range of local calendar days, 'YYYY-MM-DD', either end open (a range being picked has only its start). */
export type DayRange = [string | null, string | null]

/** The start of a local calendar day, `days` after the one named ('YYYY-MM-DD'), as an ISO instant. */
function localDayStart(day: string, days = 0): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  return new Date(y, m - 1, d + days).toISOString()
}

/**
 * What the server is asked for: the status, and the local days as the window [first day's start,
 * the day after the last one's start), so both ends' days are whole in the reader's time zone.
 */
export function transactionSelection(status: StatusFilter, [from, to]: DayRange): TransactionSelection {
  return {
    ...(status === 'all' ? {} : { status }),
    ...(from ? { from: localDayStart(from) } : {}),
    ...(to ? { to: localDayStart(to, 1) } : {}),
  }
}
