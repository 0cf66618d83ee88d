/*
 * The portal's date formats (spec section 9: MMM DD, YYYY), in the visitor's time zone, written by
 * hand as money.ts's groupDigits writes numbers. An Intl.DateTimeFormat costs 10–20 ms of main
 * thread to construct the first time a page does it (Chromium loads the locale's data then), and
 * these were made as the entry loaded, on every page; Date#toLocaleString builds one per call
 * (a dashboard of 70 rows spent 12 ms of its first render on that). dates.test.ts holds both
 * formats to Intl's en-US output.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const

const twoDigits = (n: number) => (n < 10 ? `0${n}` : String(n))

const day = (date: Date) => `${MONTHS[date.getMonth()]} ${twoDigits(date.getDate())}, ${date.getFullYear()}`

/** "Nov 22, 2026"; "Invalid Date" for what is no date, as Date itself writes it. */
export function formatDay(d: string | number | Date): string {
  const date = new Date(d)
  return Number.isNaN(date.getTime()) ? 'Invalid Date' : day(date)
}

/** "Nov 25, 2026, 8:45 PM": the date and the time of day on a 12-hour clock. */
export function formatDayTime(d: string | number | Date): string {
  const date = new Date(d)
  if (Number.isNaN(date.getTime())) return 'Invalid Date'
  const hours = date.getHours()
  return `${day(date)}, ${hours % 12 === 0 ? 12 : hours % 12}:${twoDigits(date.getMinutes())} ${hours < 12 ? 'AM' : 'PM'}`
}
