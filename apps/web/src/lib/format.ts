/*
 * How every screen writes dates and money: en-US (spec section 9: MMM DD, YYYY; $1,234.56), with
 * Intl. Dates are in the visitor's time zone unless said otherwise.
 */
export { formatCents, formatUsd } from '@portal/domain'

const DAY: Intl.DateTimeFormatOptions = { month: 'short', day: '2-digit', year: 'numeric' }
const DAY_TIME: Intl.DateTimeFormatOptions = { ...DAY, hour: 'numeric', minute: '2-digit' }

/** A date as Intl writes it, with a plain space before AM/PM; "Invalid Date" for what is no date, where Intl would throw. */
function write(d: string | number | Date, options: Intl.DateTimeFormatOptions): string {
  const date = new Date(d)
  // made at each call: a formatter takes the time zone in force as it is made
  return Number.isNaN(date.getTime()) ? 'Invalid Date' : new Intl.DateTimeFormat('en-US', options).format(date).replace(/\u202f/g, ' ')
}

/** "Nov 22, 2026" */
export const formatDay = (d: string | number | Date) => write(d, DAY)

/** "Nov 22, 2026", or "—" for a date the record does not have. */
export const formatDate = (d: string | null | undefined) => (d ? formatDay(d) : '—')

/** "Nov 25, 2026, 8:45 PM": the date and the time of day on a 12-hour clock. */
export const formatDayTime = (d: string | number | Date) => write(d, DAY_TIME)

/** "Nov 22, 2026" for the calendar day an ISO date names (a release date), whatever the visitor's zone; the text itself if it is no date. */
export const formatUtcDay = (iso: string) => (Number.isNaN(new Date(iso).getTime()) ? iso : write(iso, { ...DAY, timeZone: 'UTC' }))

/** "2026-11-22": the visitor's calendar day, as Mantine's date pickers name days. */
export function localIsoDay(d: string | number | Date): string {
  const parts = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(d))
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value
  return `${part('year')}-${part('month')}-${part('day')}`
}

/** A count with thousands separators: 10000 → "10,000". */
export const formatCount = (n: number) => new Intl.NumberFormat('en-US').format(n)
