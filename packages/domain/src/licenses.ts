import { DAY_SECONDS, MONTH_SECONDS, YEAR_SECONDS, platformOfProduct, productKind, productRecord, productTitle, type FaceComponent } from './catalogue.ts'
import type { CustomTags, LicenseConfig } from './license-schemas.ts'
import { LICENSE_TITLE_MAX } from './text-limits.ts'

// the product facts these rules read live in the catalogue; older importers of this module find them here too
export {
  DAY_SECONDS,
  MONTH_SECONDS,
  YEAR_SECONDS,
  ONLINE_DEFAULTS,
  OS_TYPES,
  FACE_COMPONENTS,
  PRODUCTS,
  PRODUCT_FACTS,
  PRODUCT_TITLES,
  SUBSCRIPTION_PRODUCTS,
  ONLINE_PRODUCTS,
  SOURCE_GROUP_PRODUCTS,
  TRIALS,
  isCustomProduct,
  platformOfProduct,
  productFacts,
  productKind,
  productTitle,
  upgradeableToAI,
  type FaceComponent,
  type OsType,
  type Product,
  type ProductFacts,
  type ProductKind,
} from './catalogue.ts'

/**
 * Licenses and groups: product codes, configs and the states of spec section 4, derived at read
 * time from stored timestamps by pure functions.
 */

export const LOCK_TYPES = ['sensor_id', 'android_app_id', 'ios_app_id', 'hardware_id', 'no_bound', 'fully_portable', 'usb_token'] as const
export type LockType = (typeof LOCK_TYPES)[number]

export const UNACTIVATED_LICENSE_LIMIT = 10
export const VALIDITY_UNITS = { day: DAY_SECONDS, month: MONTH_SECONDS, year: YEAR_SECONDS } as const
export type ValidityUnit = keyof typeof VALIDITY_UNITS
export const ON_HOLD_MINUTES = 15

/** What the staff form and any screen listing a license's content call each component. */
export const FACE_COMPONENT_NAMES: Record<FaceComponent, string> = {
  age_gender_estimator: 'Age and gender estimator',
  desktop_gpu_support: 'Desktop GPU acceleration',
  depth_liveness_estimator: 'Depth liveness estimator',
  liveness_2d_estimator: 'Liveness 2D estimator',
  detector: 'Face detector',
  emotions_estimator: 'Emotions estimator',
  matcher: 'Face matcher',
  processor: 'Processing block',
  video_client: 'Video client',
  video_client_ext: 'Video client extension',
  video_engine_light: 'Video engine light',
  age_gender_emotions_estimator: 'Age, gender and emotions estimator',
  database: 'Face database (search index size)',
}

/** The display name of a component; an unknown one (added on the server first) reads as words. */
export const faceComponentName = (c: string) => FACE_COMPONENT_NAMES[c as FaceComponent] ?? c.replace(/_/g, ' ')

export type LicenseStatusName = 'holded' | 'suspended' | 'active' | 'new'
/**
 * The state a person sees (badge, banner, filter tab): the spec's license_status, plus `paused`
 * for a paused cloud subscription that is neither on hold nor suspended. The API keeps
 * license_status to the spec's four values and answers this one beside it as `state`.
 */
export const LICENSE_STATES = ['new', 'active', 'suspended', 'holded', 'paused'] as const
export type LicenseState = (typeof LICENSE_STATES)[number]
export type SubscriptionStatus = 'none' | 'cancelled' | 'paused' | 'active'

/** What the derivations need of a stored license. */
export interface LicenseFacts {
  product: string
  config: LicenseConfig
  /** 1 suspended/stopped; 2 is never stored: on hold is derived from held_until */
  status: number
  held_until: Date | string | number | null
  expire_date: Date | string | number | null
  activation_date: Date | string | number | null
  activation_count: number
  group_key_used?: boolean
  /** the renewing subscription of the license (subscriptions row), when it has one */
  subscription?: { state: 'active' | 'past_due' | 'awaiting_authentication' | 'stopped' | 'ended'; cancel_at_period_end: boolean } | null
}

/** Times arrive as Dates, ISO strings or epoch milliseconds (the license list reads them as numbers). */
const time = (d: Date | string | number | null | undefined) =>
  d == null ? null : typeof d === 'number' ? d : d instanceof Date ? d.getTime() : new Date(d).getTime()

export const isOnHold = (l: Pick<LicenseFacts, 'held_until'>, now: Date) => {
  const t = time(l.held_until)
  return t !== null && t > now.getTime()
}
export const isExpired = (l: Pick<LicenseFacts, 'expire_date'>, now: Date) => {
  const t = time(l.expire_date)
  return t !== null && t <= now.getTime()
}

/** The numeric status the API shows: 2 on hold, 1 suspended/stopped, 0 otherwise. */
export const numericStatus = (l: Pick<LicenseFacts, 'status' | 'held_until'>, now: Date) => (isOnHold(l, now) ? 2 : l.status === 1 ? 1 : 0)

/** Section 4: holded if status 2; suspended if expired or status 1; active if activated; else new. */
export function licenseStatus(l: LicenseFacts, now: Date): LicenseStatusName {
  if (numericStatus(l, now) === 2) return 'holded'
  if (isExpired(l, now) || l.status === 1) return 'suspended'
  if (l.activation_count > 0 || l.group_key_used || l.activation_date) return 'active'
  return 'new'
}

/** Section 4's license status, with a paused subscription shown as paused (see LicenseState). */
export function licenseState(l: LicenseFacts, now: Date): LicenseState {
  const status = licenseStatus(l, now)
  if (status === 'holded' || status === 'suspended') return status
  return l.config.paused && isSubscription(l.product) ? 'paused' : status
}

export const isSubscription = (product: string) => productKind(product) === 'subscription'
/** A trial has a tag and is not upgraded; a trial product (the Nuitrack trial) is a trial by product. */
export const isTrial = (l: Pick<LicenseFacts, 'product' | 'config'>) => productKind(l.product) === 'trial' || (!!l.config.tag && !l.config.upgraded)

/**
 * The end of a trial license, whatever path makes it (the start, a revoke and generate again, a staff
 * or CLI order): the end the customer's trial was first given (the earliest of `ends`, the ends its
 * licenses were given while a trial), else its days from when it first started (`startedAt`; null
 * when this license starts it: `now`). Null only for a trial without days (the Nuitrack trial).
 */
export function trialEnd(days: number | null, history: { startedAt: Date | null; ends: readonly Date[] }, now: Date): Date | null {
  if (days === null) return null
  if (history.ends.length > 0) return new Date(Math.min(...history.ends.map((d) => d.getTime())))
  return new Date((history.startedAt ?? now).getTime() + days * DAY_SECONDS * 1000)
}

/**
 * A trial of a paid product (a tag on it: Face Machine, Analytics) lives in a group of its own:
 * never the default group that purchases of the product fill, so a paid seat never takes the
 * trial's tag, end or actions. The Nuitrack trial is a product of its own and needs none.
 */
export const trialHasOwnGroup = (trial: { tag: string | null }) => trial.tag !== null

/** Section 4, subscription status (subscription products only, else null). */
export function subscriptionStatus(l: LicenseFacts, now: Date): SubscriptionStatus | null {
  if (!isSubscription(l.product)) return null
  // the tagged trial of a paid product (Face Machine, Analytics) is no subscription until upgraded
  if (productRecord(l.product)?.trial?.tag && isTrial(l)) return 'none'
  const expired = isExpired(l, now)
  // a subscription the customer cancelled: active to the end of its paid period, then cancelled
  if (l.subscription?.state === 'ended') return 'cancelled'
  if (l.subscription?.cancel_at_period_end && expired) return 'cancelled'
  if (platformOfProduct(l.product) === 'nuitrack' && expired) return 'cancelled'
  if (l.config.paused && expired) return 'cancelled'
  if (l.config.paused) return 'paused'
  return 'active'
}

/** Lifetime label: year if the term is at least 11 months, else month. */
export function lifetime(config: Pick<LicenseConfig, 'license_expire_delta'>): 'year' | 'month' | null {
  const delta = config.license_expire_delta
  if (!delta) return null
  return delta >= 11 * MONTH_SECONDS ? 'year' : 'month'
}

/** What a renewal rule reads of a license. */
export interface RenewableLicense {
  product: string
  config: { license_expire_delta?: number | null; license_content?: Record<string, number> }
}

/** The length of one period: the license's own term (license_expire_delta), else its product's term; null when it has none. */
export function renewalTermSeconds(l: RenewableLicense): number | null {
  if (l.config.license_expire_delta) return l.config.license_expire_delta
  const term = productRecord(l.product)?.term
  return term === 'year' ? YEAR_SECONDS : term === 'month' ? MONTH_SECONDS : null
}

/**
 * A license's term in whole months (1, 3, 6 or 12 for what the catalogue sells: a face all-in-one
 * term, a monthly or yearly subscription), from renewalTermSeconds; null when it has none.
 */
export function termMonths(l: RenewableLicense): number | null {
  const seconds = renewalTermSeconds(l)
  return seconds ? Math.max(1, Math.round(seconds / MONTH_SECONDS)) : null
}

/** How a term of `months` reads on a document: "Monthly", "Annual", "3 months". */
export const termLabel = (months: number) => (months === 1 ? 'Monthly' : months === 12 ? 'Annual' : `${months} months`)
/** A price per term: "$50.00 a month", "$150.00 every 3 months", "$499.00 a year". */
export const pricePerTerm = (price: string, months: number) =>
  months === 1 ? `${price} a month` : months === 12 ? `${price} a year` : `${price} every ${months} months`
/** The length of one period: "1 month", "3 months", "12 months". */
export const termPeriod = (months: number) => (months === 1 ? '1 month' : `${months} months`)

/** Whole days until expiry (negative once expired); null without an expiry. */
export function daysToExpiry(expire: Date | string | number | null, now: Date): number | null {
  const t = time(expire)
  if (t === null) return null
  return Math.ceil((t - now.getTime()) / (DAY_SECONDS * 1000))
}

/** Trial days shown: at least 1 while not expired. */
export const trialDaysLeft = (expire: Date | string | number | null, now: Date) => {
  const d = daysToExpiry(expire, now)
  return d === null ? null : d <= 0 && !isExpired({ expire_date: expire }, now) ? 1 : d
}

export const defaultLicenseTitle = (product: string, id: number) => `${productTitle(product)} #${id}`
export const defaultGroupTitle = (product: string, id: number) => `${productTitle(product)} group #${id}`

/** "serial / sensor" text of the first activation. */
export function serialSensorText(activations: { serial?: string | null; sensor_name?: string | null }[]): string {
  const a = activations[0]
  if (!a) return ''
  return [a.serial, a.sensor_name].filter(Boolean).join(' / ')
}

/** Group available-license count: 1 up to own limit plus the source default group's limit. */
export function groupResizeBounds(ownLimit: number, sourceLimit: number) {
  return { min: 1, max: ownLimit + sourceLimit }
}

type GroupFacts = { is_default: boolean; product: string; os_type: number | null; source_group_id: number | null }

/** Section 5: a group key is split only from a default group of a product that gives group keys. */
export const canSplitFrom = (group: Pick<GroupFacts, 'is_default' | 'product'>) =>
  group.is_default && (productRecord(group.product)?.group_keys ?? null) !== null

/** The source of a key is the default group of a source product with the key's product and os_type. */
export const isSourceGroupOf = (source: Pick<GroupFacts, 'is_default' | 'product' | 'os_type'>, key: Pick<GroupFacts, 'product' | 'os_type'>) =>
  canSplitFrom(source) && source.product === key.product && (source.os_type ?? null) === (key.os_type ?? null)

/**
 * default: where bought capacity lands; key: split from a default group (it has a source);
 * custom: a staff order's own group, whose config is the custom one.
 */
export const groupKind = (group: Pick<GroupFacts, 'is_default' | 'source_group_id'>): 'default' | 'key' | 'custom' =>
  group.is_default ? 'default' : group.source_group_id !== null ? 'key' : 'custom'

export const GROUP_TITLE_MAX = 256
export const GROUP_SIZE_MAX = 9999

/** Title: trimmed, not empty, at most 256. */
export function checkTitle(raw: string): 'field_empty_error' | 'license_title_max_length_error' | null {
  const v = raw.trim()
  if (!v) return 'field_empty_error'
  if (v.length > LICENSE_TITLE_MAX) return 'license_title_max_length_error'
  return null
}

/** Create-group-key form: default size is the lesser of 2 and the source limit. */
export const defaultGroupSize = (sourceLimit: number) => Math.min(2, sourceLimit)

export type GroupSizeError = 'group_size_is_zero' | 'group_min_size_error' | 'license_in_group_limit_error' | 'group_size_number_error'
export function checkGroupSize(size: number, sourceLimit: number): GroupSizeError | null {
  if (!Number.isInteger(size)) return 'group_size_number_error'
  if (size <= 0) return 'group_size_is_zero'
  if (size < 2) return 'group_min_size_error'
  if (size > sourceLimit) return 'license_in_group_limit_error'
  return null
}

/*
 * The rules below are each the one statement of a rule of spec sections 4 and 5: the web's forms and
 * buttons and the server's services call the same function (rules.test.ts checks that both import
 * each). Where the server knows more than the screen (released devices, a used group key), the
 * function takes it as input.
 */

/** Section 5: a group key can be made from this group (a default source group with a license left). */
export const canSplit = (group: Pick<GroupFacts, 'is_default' | 'product'> & { limit: number }) => canSplitFrom(group) && group.limit >= 1

export type SplitProblem = 'not_splittable' | 'source_empty' | GroupSizeError
/** Making a group key of `size` licenses from `source`: what is wrong, or null. */
export function checkSplit(source: Pick<GroupFacts, 'is_default' | 'product'> & { limit: number }, size: number): SplitProblem | null {
  if (!canSplitFrom(source)) return 'not_splittable'
  if (source.limit < 1) return 'source_empty'
  return checkGroupSize(size, source.limit)
}

export type ResizeProblem = 'no_source' | 'below_min' | 'above_max'
/**
 * Section 5: a group key's available count runs from 1 to its own limit plus its source's; only a key
 * with a source default group of its product and os_type can be resized. `source` is null when the
 * key has none. Answers the problem and the bounds.
 */
export function checkGroupResize(
  limit: number,
  key: Pick<GroupFacts, 'product' | 'os_type' | 'source_group_id'> & { limit: number },
  source: (Pick<GroupFacts, 'is_default' | 'product' | 'os_type'> & { limit: number }) | null,
): { problem: ResizeProblem | null; min: number; max: number } {
  const bounds = groupResizeBounds(key.limit, source?.limit ?? 0)
  if (key.source_group_id === null || !source || !isSourceGroupOf(source, key)) return { problem: 'no_source', ...bounds }
  if (!Number.isInteger(limit) || limit < bounds.min) return { problem: 'below_min', ...bounds }
  return { problem: limit > bounds.max ? 'above_max' : null, ...bounds }
}

export type RevokeProblem = 'not_grouped' | 'activated' | 'payment_taken_back'
/**
 * Section 4: a license made from a group that was never activated goes back to its group. The screen
 * knows the live devices; the server also counts released devices and a used group key. A license
 * suspended because its payment was taken back (it has a suspended_reason) does not: handing it back
 * would give the group the capacity the refund took.
 */
export function revokeProblem(l: {
  group_id: number | null
  activation_date: unknown
  has_devices: boolean
  group_key_used?: boolean
  suspended_reason?: string | null
}): RevokeProblem | null {
  if (l.group_id === null) return 'not_grouped'
  if (l.activation_date || l.group_key_used || l.has_devices) return 'activated'
  if (l.suspended_reason) return 'payment_taken_back'
  return null
}

/** Section 4: only a cloud subscription (Face Machine, Analytics; trials too) is paused and resumed. */
export const canPause = (product: string) => productRecord(product)?.pausable === true
/** A paused subscription whose period has ended cannot be resumed: it is cancelled. */
export const canResume = (l: Pick<LicenseFacts, 'product' | 'expire_date'>, now: Date) => canPause(l.product) && !isExpired(l, now)

/**
 * Section 4: the upgrade a license can take now, or null: none while on hold; a tagged trial
 * upgrades to its paid product; Nuitrack Pro to AI, self-service or through support. `sold_as` is
 * the sale entry whose price the upgrade costs. A license made by staff into a custom group
 * (`custom`) carries a price agreed with support: its Pro → AI upgrade is bySupport.
 */
export function canUpgrade(
  l: Pick<LicenseFacts, 'product' | 'config' | 'held_until'> & { custom?: boolean },
  now: Date,
): { kind: 'trial' | 'ai'; to: string; how: 'self' | 'bySupport'; sold_as: string } | null {
  if (isOnHold(l, now)) return null
  const record = productRecord(l.product)
  const trialTarget = record?.trial?.upgrades_to
  if (trialTarget && l.config.tag && !l.config.upgraded) return { kind: 'trial', to: trialTarget, how: 'self', sold_as: trialTarget }
  if (!record?.upgrade) return null
  return { kind: 'ai', to: record.upgrade.to, how: l.custom ? 'bySupport' : record.upgrade.how, sold_as: record.upgrade.sold_as }
}
/** upgradeable.toAI of a license: its Pro → AI upgrade, none while on hold. */
export const upgradeToAI = (l: Pick<LicenseFacts, 'product' | 'config' | 'held_until'> & { custom?: boolean }, now: Date) => {
  const u = canUpgrade(l, now)
  return u?.kind === 'ai' ? u.how : null
}

/** A group under upgrade: `holded_limit` of its available licenses are on hold until held_until. */
export interface GroupHoldFacts {
  available: number
  holded_limit: number
  held_until: Date | string | number | null
}
/** The group's licenses on hold now: holded_limit while held_until is ahead, else 0 (derived at read time). */
export const heldLicenses = (g: GroupHoldFacts, now: Date) => (isOnHold(g, now) ? Math.min(g.holded_limit, g.available) : 0)
/** The licenses that can be generated, split off or moved now: available minus those on hold. */
export const freeLicenses = (g: GroupHoldFacts, now: Date) => g.available - heldLicenses(g, now)

/**
 * Section 9's rule of at most 10 unactivated licenses, for "Generate all": how many keys one action
 * can make from a group with `free` licenses while the client has `unactivated` licenses waiting.
 */
export const generateAllCount = (free: number, unactivated: number) => Math.max(0, Math.min(free, UNACTIVATED_LICENSE_LIMIT - unactivated))

/**
 * "Generate all" over several groups (a purchase's): how many keys each group gives, in order, while
 * the room the 10-unactivated rule leaves lasts. Groups that give none are left out.
 */
export function planGenerateAll<G extends { free: number }>(groups: readonly G[], unactivated: number): { group: G; count: number }[] {
  const plan: { group: G; count: number }[] = []
  let waiting = unactivated
  for (const group of groups) {
    const count = generateAllCount(group.free, waiting)
    if (count > 0) plan.push({ group, count })
    waiting += count
  }
  return plan
}

/**
 * Generating `count` licenses at once: what is wrong, or null. All or none: a count the group cannot
 * give is not_enough_licenses; one that would leave more than 10 licenses unactivated is unactivated_limit.
 */
export function checkBulkGenerate(count: number, free: number, unactivated: number): 'not_enough_licenses' | 'unactivated_limit' | null {
  if (count > free) return 'not_enough_licenses'
  if (unactivated + count > UNACTIVATED_LICENSE_LIMIT) return 'unactivated_limit'
  return null
}

/** Section 2, staff form: the custom subscription tab's licenses need a validity; a perpetual one may have none. */
export const staffNeedsValidity = (product: string) => productRecord(product)?.staff_form?.variant === 'subscription'
export const checkStaffValidity = (config: { product: string; license_expire_delta: number | null }) =>
  staffNeedsValidity(config.product) && !config.license_expire_delta ? ('validity_required' as const) : null

/** Platform architectures a custom license can be locked to (section 9). */
export const PLATFORM_ARCHITECTURES = [
  'ios-arm64',
  'android-arm32',
  'android-arm64',
  'windows-x86_32',
  'windows-x86_64',
  'linux-arm32',
  'linux-arm64',
  'linux-x86_32',
  'linux-x86_64',
] as const

export type LockOption = 'hardware' | 'ios_app_id' | 'android_app_id' | 'usb_token' | 'platforms'
export const EXCLUSIVE_LOCKS: readonly LockOption[] = ['hardware', 'ios_app_id', 'android_app_id', 'usb_token']

/**
 * Section 4, custom-license form locks: hardware, iOS app id, Android app id or USB token disables
 * every other lock option; platforms leaves only platform options; nothing checked enables all.
 */
export function enabledLockOptions(checked: readonly LockOption[]): Set<LockOption> {
  const exclusive = checked.find((c) => EXCLUSIVE_LOCKS.includes(c))
  if (exclusive) return new Set([exclusive])
  if (checked.includes('platforms')) return new Set(['platforms'])
  return new Set([...EXCLUSIVE_LOCKS, 'platforms'])
}

export const lockOptionsValid = (checked: readonly LockOption[]) => checked.every((c) => enabledLockOptions(checked).has(c))

export const PLATFORMS_PATTERN = new RegExp(`^(${PLATFORM_ARCHITECTURES.join('|')})(,(${PLATFORM_ARCHITECTURES.join('|')}))*$`)

/** The custom tags that lock a license; whichever field of the staff call carries them. */
export const LOCK_TAG_KEYS = ['ios_app_id', 'android_app_id', 'hardware_key_serial', 'allowed_platforms'] as const

/** The lock options a license's device_bound flag and custom tags check. */
export function lockOptionsOf(deviceBound: boolean | undefined, tags: Partial<CustomTags>): LockOption[] {
  const checked: LockOption[] = []
  if (deviceBound) checked.push('hardware')
  if (tags.ios_app_id) checked.push('ios_app_id')
  if (tags.android_app_id) checked.push('android_app_id')
  if (tags.hardware_key_serial) checked.push('usb_token')
  if (tags.allowed_platforms) checked.push('platforms')
  return checked
}
