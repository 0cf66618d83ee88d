import { z } from 'zod'

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
})
export type ActivityEvent = z.infer<typeof activityEventSchema>

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
