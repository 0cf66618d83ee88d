import { z } from './zod.ts'
import { DAY_SECONDS, PRODUCTS, PRODUCT_CATALOGUE, isCustomProduct, platformHasPausable, platformOfProduct, productKind, productRecord } from './catalogue.ts'
import { LICENSE_STATES, type LicenseState } from './licenses.ts'
import { DEFAULT_PLATFORM, PLATFORMS, type Platform } from './platforms.ts'

/**
 * The dashboard's license table as the server pages it: the status tabs and product
 * filters both sides use, the filter rule on a product, the query of GET /api/license/ and how long
 * a built list stays what the derivations would build (the ETag's time span).
 */

/** Section 2's tabs (holded for nuitrack only); a platform whose subscriptions can be paused adds a Paused tab. */
export const STATUS_TABS = (platform: Platform): LicenseState[] =>
  platform === 'nuitrack'
    ? ['new', 'active', 'suspended', 'holded']
    : platformHasPausable(platform)
      ? ['new', 'active', 'paused', 'suspended']
      : ['new', 'active', 'suspended']

export const PRODUCT_FILTERS: Partial<Record<Platform, readonly { value: string; label: string }[]>> = {
  nuitrack: [
    { value: 'all', label: 'All' },
    { value: 'nuitrack_trial', label: 'Trial' },
    { value: 'nuitrack_online', label: 'Pro and AI' },
    { value: 'old', label: 'Perpetual' },
  ],
  face: [
    { value: 'all', label: 'All' },
    { value: 'face_trial_tag', label: 'Trial' },
    { value: 'face_online_all_in_one', label: 'All-in-one' },
    { value: 'face_online_sub', label: 'Subscription' },
    { value: 'custom', label: 'Custom' },
  ],
}

/** The product filter values of a platform ('all' only where it has no filters); every platform's without one. */
export const productFilterValues = (platform?: Platform): string[] =>
  platform ? (PRODUCT_FILTERS[platform] ?? [{ value: 'all' }]).map((f) => f.value) : [...new Set(PLATFORMS.flatMap((p) => productFilterValues(p)))]

const ONE_PRODUCT_FILTERS = new Set(PRODUCTS.map((p) => PRODUCT_CATALOGUE[p].filter).filter(Boolean))

/** Which product filter a license or group product falls under, by the product's kind in the catalogue. */
export function productMatches(filter: string, product: string, isTrial: boolean): boolean {
  switch (filter) {
    case 'all':
      return true
    case 'nuitrack_trial':
      return productKind(product) === 'trial'
    case 'nuitrack_online':
      return productKind(product) !== 'trial' && productKind(product) !== 'perpetual'
    case 'old':
      return productKind(product) === 'perpetual'
    case 'face_trial_tag':
      return isTrial
    case 'custom':
      return isCustomProduct(product)
    default:
      // a filter that names one product (All-in-one, Subscription): the catalogue says which; another shows all
      return ONE_PRODUCT_FILTERS.has(filter) ? productRecord(product)?.filter === filter : true
  }
}

/** An unknown product code (a catalogue that moved on): how the rules above read it. */
const UNKNOWN_PRODUCT = '\u0000unknown'

/**
 * A product filter as a set of product codes a query can test: `in` the listed codes, or `not_in`
 * them where codes the catalogue does not know match too; `trial` is a license's trial flag
 * (isTrial: a trial product, or a tag not upgraded). Derived from productMatches, so the two agree.
 */
export type ProductFilterSpec = { kind: 'all' } | { kind: 'in' | 'not_in'; products: string[] } | { kind: 'trial'; trialProducts: string[] }
export function productFilterSpec(filter: string): ProductFilterSpec {
  if (filter === 'face_trial_tag') return { kind: 'trial', trialProducts: PRODUCTS.filter((p) => productKind(p) === 'trial') }
  if (productMatches(filter, UNKNOWN_PRODUCT, false) && PRODUCTS.every((p) => productMatches(filter, p, false))) return { kind: 'all' }
  return productMatches(filter, UNKNOWN_PRODUCT, false)
    ? { kind: 'not_in', products: PRODUCTS.filter((p) => !productMatches(filter, p, false)) }
    : { kind: 'in', products: PRODUCTS.filter((p) => productMatches(filter, p, false)) }
}

/** The platform's licenses as product codes (the view's `type` is platformOfProduct: an unknown code is the default platform's). */
export function platformProductSpec(platform: Platform): { kind: 'in' | 'not_in'; products: string[] } {
  return platform === DEFAULT_PLATFORM
    ? { kind: 'not_in', products: PRODUCTS.filter((p) => platformOfProduct(p) !== platform) }
    : { kind: 'in', products: PRODUCTS.filter((p) => platformOfProduct(p) === platform) }
}

export const LIST_SORTS = ['-id', 'id'] as const
export type ListSort = (typeof LIST_SORTS)[number]
export const LIST_LIMIT_MAX = 200
export const LIST_LIMIT_DEFAULT = 50

/**
 * A whole number in a query string: digits only (no sign, no exponent, no blank that coerces to 0).
 * The document states it as the integer it is read as, with its range (the digits-only text before
 * the transform would hide the range from it).
 */
/** A whole number in a query string, stated in the API document with its bounds. */
export const queryInt = (min: number, max: number) =>
  z
    .string()
    // ten digits: the largest offset, 1_000_000_000, has ten
    .regex(/^\d{1,10}$/, 'integer_error')
    .transform(Number)
    .pipe(z.number().int().min(min, 'number_range_error').max(max, 'number_range_error'))
    .meta({ type: 'integer', minimum: min, maximum: max, pattern: undefined })

/**
 * GET /api/license/'s query. With none of status, product, offset, limit or sort it is the list, the
 * newest LIST_LIMIT_MAX (of `type`'s platform when given, of one group with `group`); with any, one
 * page and the counts of the tabs and filters.
 */
export const licenseListQuery = z
  .object({
    type: z.enum(PLATFORMS).optional(),
    status: z.enum(['all', ...LICENSE_STATES]).optional(),
    product: z
      .enum(productFilterValues(), 'product_filter_error')
      .optional()
      .describe("one of the product filters of `type`'s platform (of any platform without `type`)"),
    offset: queryInt(0, 1_000_000_000).optional(),
    limit: queryInt(1, LIST_LIMIT_MAX)
      .optional()
      .describe(`rows in the page, 1-${LIST_LIMIT_MAX} (default ${LIST_LIMIT_DEFAULT}); without any paging field the list is the newest ${LIST_LIMIT_MAX}`),
    sort: z.enum(LIST_SORTS).optional(),
    /** one group's licenses (its id), or `keys`: those made from the client's group keys */
    group: z
      .union([z.literal('keys'), queryInt(1, 999_999_999)])
      .optional()
      .describe("one group's licenses (its id), or `keys` for those made from group keys; not with a page"),
  })
  .superRefine((q, ctx) => {
    if (q.group !== undefined && pageRequest(q) !== null) ctx.addIssue({ code: 'custom', message: 'list_group_with_page_error', path: ['group'] })
    if (q.product !== undefined && !productFilterValues(q.type).includes(q.product)) {
      ctx.addIssue({ code: 'custom', message: 'product_filter_error', path: ['product'] })
    }
  })
export type LicenseListQuery = z.output<typeof licenseListQuery>

/** A page of the list: what the query asks, with its defaults filled in; null for the whole list. */
export interface LicensePageRequest {
  platform: Platform | null
  status: 'all' | LicenseState
  product: string
  offset: number
  limit: number
  sort: ListSort
}
export function pageRequest(q: LicenseListQuery): LicensePageRequest | null {
  const paged = q.status !== undefined || q.product !== undefined || q.offset !== undefined || q.limit !== undefined || q.sort !== undefined
  if (!paged) return null
  return {
    platform: q.type ?? null,
    status: q.status ?? 'all',
    product: q.product ?? 'all',
    offset: q.offset ?? 0,
    limit: q.limit ?? LIST_LIMIT_DEFAULT,
    sort: q.sort ?? '-id',
  }
}

/**
 * The numbers the tabs and filters show. `status`: licenses of the platform under the chosen
 * product filter, per state (the status filter ignored: a tab counts what choosing it shows).
 * `product`: licenses of the platform per product filter, every status (choosing a product resets
 * the status tab to All, so this is what choosing it shows).
 */
export const licenseCountsSchema = z.object({
  status: z.record(z.enum(LICENSE_STATES), z.number()),
  product: z.record(z.string(), z.number()),
})
export type LicenseCounts = z.infer<typeof licenseCountsSchema>

/** What a row needs for the filters: its platform, state, product and trial flag (a LicenseView has them). */
export interface FilterableLicense {
  type: Platform
  state: LicenseState
  config: { product: string }
  is_trial: boolean
}

/**
 * The page and counts computed from a whole list (newest first, as GET /api/license/ answers it), in memory: the rule the server's SQL must agree
 * with (the paging tests compare the two) and what a test double of the API answers.
 */
export function pageOfList<L extends FilterableLicense & { id: number }>(all: readonly L[], req: LicensePageRequest) {
  const mine = all.filter((l) => req.platform === null || l.type === req.platform)
  const byProduct = mine.filter((l) => productMatches(req.product, l.config.product, l.is_trial))
  // `all` is in the list's own order, newest first
  const filtered = byProduct.filter((l) => req.status === 'all' || l.state === req.status)
  const matching = req.sort === 'id' ? filtered.reverse() : filtered
  const counts: LicenseCounts = {
    status: Object.fromEntries(LICENSE_STATES.map((s) => [s, byProduct.filter((l) => l.state === s).length])) as LicenseCounts['status'],
    product: Object.fromEntries(
      productFilterValues(req.platform ?? undefined).map((f) => [f, mine.filter((l) => productMatches(f, l.config.product, l.is_trial)).length]),
    ),
  }
  return { licenses: matching.slice(req.offset, req.offset + req.limit), total: matching.length, counts }
}

const DAY_MS = DAY_SECONDS * 1000
const ms = (d: Date | string | number | null | undefined) => (d == null ? null : typeof d === 'number' ? d : new Date(d).getTime())

/** A span of business time [from, until) in epoch ms; ±Infinity where nothing bounds it. */
export interface TimeSpan {
  from: number
  until: number
}
export const ALWAYS: TimeSpan = { from: -Infinity, until: Infinity }
export const intersectSpans = (a: TimeSpan, b: TimeSpan): TimeSpan => ({ from: Math.max(a.from, b.from), until: Math.min(a.until, b.until) })

/**
 * The span around `now` in which every time-derived field of a license's view stays as it is at
 * `now`: on hold flips at held_until; expired, the subscription status and suspended at
 * expire_date; days to expiry (a ceiling of whole days) at expire_date ± whole days. Everything else
 * the view shows is stored data, which the client's list version covers.
 */
export function licenseViewSpan(l: { held_until: Date | string | number | null; expire_date: Date | string | number | null }, now: Date): TimeSpan {
  const t = now.getTime()
  let span = ALWAYS
  const held = ms(l.held_until)
  if (held !== null) span = intersectSpans(span, held > t ? { from: -Infinity, until: held } : { from: held, until: Infinity })
  const expire = ms(l.expire_date)
  if (expire !== null) {
    // daysToExpiry = ceil((expire - now) / day) is constant on [expire - k·day, expire - (k-1)·day)
    const from = expire - Math.ceil((expire - t) / DAY_MS) * DAY_MS
    span = intersectSpans(span, { from, until: from + DAY_MS })
  }
  return span
}
