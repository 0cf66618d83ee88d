import { z } from './zod.ts'

/**
 * The activity history: what happened to a client's licenses and groups, one
 * line per change, written in the transaction of the change.
 */
export const ACTIVITY_KINDS = [
  'created',
  'generated',
  'renamed',
  'activated',
  'released',
  'paused',
  'resumed',
  'upgraded',
  'paid',
  'renewed',
  'revoked',
  'cancelled',
  'reactivated',
  'suspended',
  'restored',
  'group_key_created',
  'group_key_resized',
] as const
export type ActivityKind = (typeof ACTIVITY_KINDS)[number]

/** What a line says beyond its kind: flat values only (old/new title, serial, product from/to, cents…). */
export const activityDetailsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
export type ActivityDetails = z.infer<typeof activityDetailsSchema>

export const activityEventSchema = z.object({
  id: z.number(),
  kind: z.enum(ACTIVITY_KINDS),
  license_id: z.number().nullable(),
  /** the license's title now (its default title when it has none), for the account's list */
  license_title: z.string().nullable(),
  group_id: z.number().nullable(),
  details: activityDetailsSchema,
  /** ISO time of the change (business time) */
  created_at: z.string(),
  /** the e-mail of the person who made the change; null for the system (renewals, payments, staff) */
  actor: z.string().nullable(),
})
export type ActivityEvent = z.infer<typeof activityEventSchema>

/** What each detail is called where a line is written out in words (the CSV export), in this order. */
const DETAIL_LABELS: Record<string, string> = {
  title: 'title',
  from_title: 'from',
  from: 'from',
  to_title: 'to',
  to: 'to',
  product_title: 'product',
  product: 'product',
  count: 'count',
  size: 'size',
  group_title: 'group',
  origin: 'made by',
  channel: 'channel',
  name: 'device name',
  serial: 'serial',
  sensor: 'sensor',
  device_id: 'device',
  by: 'by',
  seat_until: 'seat held until',
  amount_cents: 'amount',
  description: 'for',
  payment_method: 'paid by',
  transaction_id: 'transaction',
  transaction_kind: 'payment kind',
  until: 'until',
  reason: 'reason',
  trial: 'from a trial',
  undo_cancel: 'cancellation undone',
  source_group_id: 'source group',
}
/** A code shown only when its title is missing (the title says the same in words). */
const TITLE_OF: Record<string, string> = { product: 'product_title', from: 'from_title', to: 'to_title' }
const ORIGIN_WORDS: Record<string, string> = {
  trial: 'free trial',
  staff: 'our team',
  group: 'the customer',
  activation: 'offline activation',
  cli: 'our team',
  group_key: 'a device with the group key',
}

/**
 * A history line's details in words ("from: Old; to: New; serial: SN-1"), not JSON: labels for the
 * known details, amounts in dollars, yes/no, empty values left out, codes dropped beside their titles.
 */
export function activityDetailsText(details: ActivityDetails): string {
  const known = Object.keys(DETAIL_LABELS).filter((k) => k in details)
  const rest = Object.keys(details)
    .filter((k) => !(k in DETAIL_LABELS))
    .sort()
  const words: string[] = []
  for (const key of [...known, ...rest]) {
    const value = details[key]
    if (value === null || value === undefined || value === '') continue
    const title = TITLE_OF[key]
    if (title && typeof details[title] === 'string' && details[title] !== '') continue
    const label = DETAIL_LABELS[key] ?? key.replace(/_/g, ' ')
    const text =
      key === 'amount_cents' && typeof value === 'number'
        ? `${(value / 100).toFixed(2)} USD`
        : key === 'origin' && typeof value === 'string'
          ? (ORIGIN_WORDS[value] ?? value)
          : key === 'device_id' || key === 'transaction_id' || key === 'source_group_id'
            ? `#${value}`
            : typeof value === 'boolean'
              ? value
                ? 'yes'
                : 'no'
              : String(value)
    words.push(`${label}: ${text}`)
  }
  return words.join('; ')
}

/** A kind in words for the export ("group key created"). */
export const activityKindText = (kind: ActivityKind) => kind.replace(/_/g, ' ')

/** The account history's page: at most this many lines per call. */
export const ACTIVITY_PAGE_MAX = 200
export const ACTIVITY_PAGE_DEFAULT = 50

/**
 * One CSV cell (RFC 4180): quoted when it holds a quote, comma or line break, quotes doubled; a
 * cell a spreadsheet would run as a formula (starting with = + - @, or a tab or carriage return)
 * gets a leading apostrophe so it is read as text.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** Rows to CSV text: cells escaped, CRLF line ends (RFC 4180). */
export const toCsv = (rows: readonly (readonly (string | number | boolean | null | undefined)[])[]) =>
  rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n'
