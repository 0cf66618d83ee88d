import {
  LIST_LIMIT_MAX,
  canPause,
  canResume,
  grantedConfig,
  revokeProblem,
  trialOf,
  trialEnd,
  trialHasOwnGroup,
  isTrial,
  UNACTIVATED_LICENSE_LIMIT,
  checkBulkGenerate,
  isOnHold,
  freeLicenses,
  platformOfProduct,
  defaultLicenseTitle,
  productTitle,
  type LicenseConfig,
  type Platform,
  ALWAYS,
  intersectSpans,
  licenseViewSpan,
  pageRequest,
  type LicenseCounts,
  type LicenseListQuery,
  type LicenseView,
  type TimeSpan,
} from '@portal/domain'
import type { AppContext } from '../../context.ts'
import type { Queryable } from '../../db/db.ts'
import { fail } from '../../platform/errors.ts'
import { parseIfNoneMatch } from '../../platform/etag.ts'
import { parseId } from '../../platform/ids.ts'
import type { SessionClient, SessionLookup } from '../../platform/session.ts'
import { nowOf } from '../../platform/clock.ts'
import { activationKey } from '../../platform/crypto.ts'
import { lockClient } from '../account/service.ts'
import { recordActivity } from '../activity/service.ts'
import { addAvailable, capacityForNewLicense, getGroups, groupView, lockedGroup, type GroupRow } from '../groups/service.ts'
import { fulfil, fulfilCustom } from './fulfilment.ts'
import {
  countUnactivated,
  hadTrial,
  trialHistory,
  hasDevices,
  insertLicense,
  revokeLicense,
  setLicensePaused,
  setLicenseTitle,
  findLicense,
  listLicenses,
  countLicenses,
  licenseListVersion,
  findSessionWithListVersion,
  type SessionWithListVersion,
  lockLicense,
  type LicenseRow,
  type LicenseRecord,
} from './queries.ts'
import { startSubscription } from './subscription-start.ts'
import { toLicenseView } from './view.ts'

export { parseId }
export { fulfil, fulfilCustom } from './fulfilment.ts'
export { LICENSE_COLUMNS, countLicenses, findLicense, insertSubscription, listLicenses, lockLicense, type LicenseRecord } from './queries.ts'
export { toLicenseView } from './view.ts'

/**
 * Locks a license for a change, refused while an upgrade holds it (license_on_hold, judged at `now`:
 * pass ctx.clock.now()). `platform`: a call of one platform's (the workspace calls) finds only its
 * own platform's licenses; another's is not found.
 */
export async function lockedLicense(tx: Queryable, clientId: number, id: number, now = new Date(), platform?: Platform): Promise<LicenseRecord> {
  const license = (await lockLicense(tx, clientId, id)) ?? fail('not_found')
  if (platform && platformOfProduct(license.product) !== platform) fail('not_found')
  if (isOnHold(license, now)) fail('license_on_hold')
  return license
}

export async function licenseView(ctx: AppContext | { db: Queryable }, clientId: number, id: number) {
  const row = await findLicense(ctx.db, clientId, id)
  return toLicenseView(row ?? fail('not_found'), nowOf(ctx))
}

/** The client's whole list, as the staff and CLI read it. */
export async function getLicenses(ctx: AppContext, clientId: number) {
  const now = nowOf(ctx)
  return { licenses: (await listLicenses(ctx.db, clientId)).map((r) => toLicenseView(r, now)) }
}

type ListAnswer =
  | { etag: string; notModified: true }
  | { etag: string; notModified: false; body: { licenses: LicenseView[] } | { licenses: LicenseView[]; total: number; counts: LicenseCounts } }

/**
 * GET /api/license/: the whole list (of a platform) or a page with its counts, under a strong ETag.
 * The tag names what was asked, the client's list version (bumped by triggers in the transaction of
 * every change the list shows) and the span of business time in which every time-derived field
 * stays as built. A tag the caller already holds that still names all three answers not-modified
 * after one small select, and no list is read (docs/adr/license-list-paging-and-strong-etag.md).
 */
export async function listLicensesAnswer(
  ctx: AppContext,
  clientId: number,
  query: LicenseListQuery,
  ifNoneMatch?: string,
  /** the version read with the session (listSessionLookup), when it was */
  knownVersion?: string,
): Promise<ListAnswer> {
  const now = nowOf(ctx)
  const page = pageRequest(query)
  // the client's id leads: a tag held from another account's list never names this one's
  const key = page
    ? [clientId, page.platform ?? 'any', page.status, page.product, page.offset, page.limit, page.sort].join('/')
    : [clientId, query.type ?? 'any', query.group ?? 'all'].join('/')
  // the version first: a list read after it is at least as new as the tag says (never older)
  const version = knownVersion ?? (await licenseListVersion(ctx.db, clientId))
  // `*` is not honoured: the tag a 304 answers with could not be named without reading the list
  const held = parseIfNoneMatch(ifNoneMatch).tags.find((tag) => tagStillNames(tag, key, version, now))
  if (held) return { etag: held, notModified: true }
  // the views, and the span in which they (and whatever else the answer holds, from `within`) stay as built
  const viewsOf = (rows: LicenseRow[], within: TimeSpan) => ({
    licenses: rows.map((r) => toLicenseView(r, now)),
    span: rows.reduce((acc, r) => intersectSpans(acc, licenseViewSpan(r, now)), within),
  })
  if (!page) {
    // the newest LIST_LIMIT_MAX: a client with thousands of licenses pages through them instead
    const rows = await listLicenses(ctx.db, clientId, { platform: query.type ?? null, group: query.group, cap: LIST_LIMIT_MAX, now })
    const { licenses, span } = viewsOf(rows, ALWAYS)
    return { etag: etagOf(key, version, span), notModified: false, body: { licenses } }
  }
  const [rows, counted] = await Promise.all([
    listLicenses(ctx.db, clientId, { platform: page.platform, page, now }),
    countLicenses(ctx.db, clientId, page.platform, page.product, now),
  ])
  const { counts } = counted
  const { licenses, span } = viewsOf(rows, counted.span)
  const total = page.status === 'all' ? counts.product[page.product]! : counts.status[page.status]
  return { etag: etagOf(key, version, span), notModified: false, body: { licenses, total, counts } }
}

/** The license list's session lookup: the session's client and, in the same statement, the list version. */
export const listSessionLookup: SessionLookup = findSessionWithListVersion

/** The list version listSessionLookup read with a request's session (undefined after another lookup). */
export const sessionListVersion = (client: SessionClient): string | undefined => (client as Partial<SessionWithListVersion>).list_version

const spanEnd = (n: number) => (Number.isFinite(n) ? String(n) : 'x')
const etagOf = (key: string, version: string, span: TimeSpan) => `"${key}:${version}:${spanEnd(span.from)}:${spanEnd(span.until)}"`

function tagStillNames(tag: string, key: string, version: string, now: Date): boolean {
  const m = /^"([^:",]*):([0-9.]+):(-?[0-9.e+]+|x):(-?[0-9.e+]+|x)"$/.exec(tag)
  if (!m || m[1] !== key || m[2] !== version) return false
  const from = m[3] === 'x' ? -Infinity : Number(m[3])
  const until = m[4] === 'x' ? Infinity : Number(m[4])
  return from <= now.getTime() && now.getTime() < until
}

export const getLicense = (ctx: AppContext, clientId: number, rawId: string) => licenseView(ctx, clientId, parseId(rawId))

export async function renameLicense(ctx: AppContext, clientId: number, rawId: string, title: string) {
  const id = parseId(rawId)
  const now = nowOf(ctx)
  await ctx.db.transaction(async (tx) => {
    const license = await lockedLicense(tx, clientId, id, now)
    await setLicenseTitle(tx, clientId, id, title)
    const from = license.title ?? defaultLicenseTitle(license.product, id)
    if (from !== title) await recordActivity(tx, { clientId, licenseId: id, kind: 'renamed', details: { from, to: title }, at: now })
  })
  return licenseView(ctx, clientId, id)
}

/** Revoke: a grouped license with no activation goes back to its group (limit +1). */
export async function releaseLicense(ctx: AppContext, clientId: number, rawId: string) {
  const id = parseId(rawId)
  return ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    const license = await lockedLicense(tx, clientId, id, nowOf(ctx))
    // released devices count too: a license that was ever bound is not handed back
    const problem = revokeProblem({ ...license, has_devices: await hasDevices(tx, id) })
    if (problem === 'not_grouped') fail('action_unavailable', 'Only a license generated from a group can be revoked')
    if (problem === 'activated') fail('action_unavailable', 'An activated license cannot be revoked')
    if (problem === 'payment_taken_back') fail('action_unavailable', 'A license whose payment was taken back cannot be revoked')
    await revokeLicense(tx, id)
    await addAvailable(tx, license.group_id!, 1)
    await recordActivity(tx, { clientId, licenseId: id, groupId: license.group_id, kind: 'revoked', at: nowOf(ctx) })
    return { status: 'ok' as const, group: await groupView(tx, clientId, license.group_id!, nowOf(ctx)) }
  })
}

/**
 * Pause and resume a cloud subscription (Face Machine, Analytics); a cancelled one cannot resume.
 * `platform`: the workspace calls under /facemachine/ and /nuitrack-analytics/ find only their own
 * platform's licenses. A pause records paused_at (a paused trial's data is erased 30 days later).
 */
export async function setPaused(ctx: AppContext, clientId: number, rawId: string, paused: boolean, platform?: Platform) {
  const id = parseId(rawId)
  const now = nowOf(ctx)
  await ctx.db.transaction(async (tx) => {
    const license = await lockedLicense(tx, clientId, id, now, platform)
    if (!canPause(license.product)) fail('action_unavailable', 'Only Face Machine and Nuitrack Analytics subscriptions can be paused')
    if (!paused && !canResume(license, now)) fail('license_status')
    await setLicensePaused(tx, id, paused, now)
    if (Boolean(license.config.paused) !== paused) await recordActivity(tx, { clientId, licenseId: id, kind: paused ? 'paused' : 'resumed', at: now })
  })
  return licenseView(ctx, clientId, id)
}

/** A license's config: what its product grants (the catalogue), then its group's, then the order's. */
export function licenseConfigFor(group: Pick<GroupRow, 'product' | 'os_type' | 'config'>, extra: Partial<LicenseConfig> = {}): LicenseConfig {
  return {
    ...grantedConfig(group.product),
    ...group.config,
    ...extra,
    product: group.product,
    os_type: group.os_type,
  }
}

/**
 * Generates one license from a locked group (limit -1). The caller holds the client lock and has
 * checked the group belongs to the client.
 */
export async function generateFromGroup(
  tx: Queryable,
  clientId: number,
  group: GroupRow,
  opts: {
    title?: string | null
    config?: Partial<LicenseConfig>
    checkUnactivated: boolean
    expiresInSeconds?: number | null
    staffId?: number
    /** business time: the licenses an upgrade holds cannot be generated while held */
    now?: Date
    /**
     * what the history says: a trial or a staff order is `created`, a license made from a group
     * `generated` (group_key: for a device that activated with a group key)
     */
    origin: 'trial' | 'staff' | 'group' | 'activation' | 'group_key'
  },
): Promise<number> {
  if (freeLicenses(group, opts.now ?? new Date()) < 1) fail('not_enough_licenses')
  if (opts.checkUnactivated && (await countUnactivated(tx, clientId)) >= UNACTIVATED_LICENSE_LIMIT) fail('unactivated_limit')
  const config = licenseConfigFor(group, opts.config)
  const delta = opts.expiresInSeconds ?? config.license_expire_delta ?? null
  // a trial ends when the customer's trial, as first started, ends: whichever path makes the license
  const trial = isTrial({ product: group.product, config }) ? trialOf(group.product) : null
  const expireAt =
    trial && trial.tag === (config.tag ?? null)
      ? trialEnd(trial.days, await trialHistory(tx, clientId, trial.product, trial.tag), opts.now ?? new Date())
      : undefined
  // the purchase whose capacity it uses: a refund of that purchase suspends it
  const purchaseCapacityId = await capacityForNewLicense(tx, group.id, group.available)
  const { id, expire_date } = await insertLicense(tx, {
    clientId,
    groupId: group.id,
    type: platformOfProduct(group.product),
    product: group.product,
    title: opts.title ?? null,
    config,
    token: activationKey(),
    expiresInSeconds: expireAt === undefined ? delta : null,
    expireAt,
    staffId: opts.staffId ?? null,
    now: opts.now,
    purchaseCapacityId,
  })
  await addAvailable(tx, group.id, -1)
  group.available -= 1
  const kind = opts.origin === 'trial' || opts.origin === 'staff' ? 'created' : 'generated'
  const details = {
    product: group.product,
    product_title: productTitle(group.product),
    title: opts.title ?? null,
    origin: opts.origin,
    group_title: group.title,
  }
  await recordActivity(tx, { clientId, licenseId: id, groupId: group.id, kind, details, at: opts.now })
  // a subscription product from a paid group renews the way the group was paid (a staff order's does not)
  if (opts.staffId === undefined)
    await startSubscription(tx, { clientId, groupId: group.id, licenseId: id, product: group.product, config, expireDate: expire_date })
  return id
}

/** Free trials only: the Nuitrack trial and the Face Machine and Analytics trials, one each per client. */
export async function createTrial(
  ctx: AppContext,
  clientId: number,
  body: { title?: string; count: number; config: { product: string; tag?: string | null } },
) {
  const trial = trialOf(body.config.product)
  if (!trial || (trial.tag !== null && body.config.tag !== trial.tag)) return fail('not_free')
  if (body.count !== 1) return fail('not_free', 'A trial is one license', 'count')
  const licenseId = await ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    if (await hadTrial(tx, clientId, trial.product, trial.tag)) fail('trial_taken')
    const config: Partial<LicenseConfig> = trial.tag ? { tag: trial.tag, upgraded: false, plan_id: trial.plan_id } : {}
    const order = { clientId, product: trial.product, count: 1, config }
    const { groupId } = trialHasOwnGroup(trial) ? await fulfilCustom(tx, { ...order, title: `${productTitle(trial.product)} trial` }) : await fulfil(tx, order)
    const group = await lockedGroup(tx, clientId, groupId)
    // its end: trialEnd, in generateFromGroup
    return generateFromGroup(tx, clientId, group, {
      title: body.title?.trim() || null,
      config,
      checkUnactivated: true,
      now: ctx.clock.now(),
      origin: 'trial',
    })
  })
  return { licenses: [await licenseView(ctx, clientId, licenseId)] }
}

/** Generate a key from a group (the pre-info screen). */
export async function newLicenseFromGroup(ctx: AppContext, clientId: number, rawId: string, title: string | undefined) {
  const id = parseId(rawId)
  const licenseId = await ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    const group = await lockedGroup(tx, clientId, id)
    return generateFromGroup(tx, clientId, group, { title, checkUnactivated: true, now: nowOf(ctx), origin: 'group' })
  })
  return licenseView(ctx, clientId, licenseId)
}

/** GET /group/: the groups and the client's unactivated licenses (the rule of at most 10 counts them). */
export async function groupsWithRoom(ctx: AppContext, clientId: number) {
  const [{ groups }, unactivated] = await Promise.all([getGroups(ctx, clientId), countUnactivated(ctx.db, clientId)])
  return { groups, unactivated_licenses: unactivated }
}

/**
 * "Generate all": `count` licenses from one group in one transaction, under the client lock and the
 * group's, all or none (checkBulkGenerate), each with its default title and its own history line.
 */
export async function newLicensesFromGroup(ctx: AppContext, clientId: number, rawId: string, count: number) {
  const id = parseId(rawId)
  const now = nowOf(ctx)
  const ids = await ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    const group = await lockedGroup(tx, clientId, id)
    const problem = checkBulkGenerate(count, freeLicenses(group, now), await countUnactivated(tx, clientId))
    if (problem) fail(problem)
    const made: number[] = []
    // the rule was checked for all of them at once above
    for (let i = 0; i < count; i++) made.push(await generateFromGroup(tx, clientId, group, { checkUnactivated: false, now, origin: 'group' }))
    return made
  })
  const rows = await Promise.all(ids.map((licenseId) => findLicense(ctx.db, clientId, licenseId)))
  return { licenses: rows.map((r) => toLicenseView(r!, now)), group: await groupView(ctx.db, clientId, id, now) }
}
