import {
  ONLINE_DEFAULTS,
  canPause,
  canResume,
  checkGroupResize,
  checkSplit,
  checkStaffValidity,
  defaultGroupSize,
  grantedConfig,
  revokeProblem,
  staffCustomTags,
  trialOf,
  UNACTIVATED_LICENSE_LIMIT,
  DAY_SECONDS,
  isOnHold,
  platformOfProduct,
  type LicenseConfig,
} from '@portal/domain'
import type { AppContext } from '../../context.ts'
import type { Queryable } from '../../db/db.ts'
import { AppError, fail } from '../../platform/errors.ts'
import { findClientByEmail } from '../client/queries.ts'
import { activationKey, fulfil } from './fulfilment.ts'
import {
  addAvailable,
  countUnactivated,
  findGroup,
  hadTrial,
  hasDevices,
  insertGroupKey,
  insertLicense,
  lockClientRow,
  revokeLicense,
  setAvailable,
  setGroupTitle,
  setLicensePaused,
  setLicenseTitle,
  insertCustomGroup,
  findLicense,
  listGroups,
  listLicenses,
  lockLicense,
  toGroupView,
  toLicenseView,
  type GroupRow,
  type LicenseRecord,
} from './queries.ts'

/** A not-found, malformed or foreign id all answer 63f560db, never another client's data. */
export function parseId(raw: string | number): number {
  const text = String(raw)
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) throw new AppError('not_found')
  return Number(text)
}

/** Every change to a client's licenses and groups takes the client row first: one order, no deadlocks. */
export async function lockClient(tx: Queryable, clientId: number) {
  await lockClientRow(tx, clientId)
}

export async function lockedGroup(tx: Queryable, clientId: number, id: number): Promise<GroupRow> {
  return (await findGroup(tx, clientId, id, true)) ?? fail('not_found', 'Group not found')
}

export async function lockedLicense(tx: Queryable, clientId: number, id: number, now = new Date()): Promise<LicenseRecord> {
  const license = (await lockLicense(tx, clientId, id)) ?? fail('not_found')
  if (isOnHold(license, now)) fail('license_on_hold')
  return license
}

async function licenseView(ctx: AppContext | { db: Queryable }, clientId: number, id: number) {
  const row = await findLicense(ctx.db, clientId, id)
  return toLicenseView(row ?? fail('not_found'), new Date())
}

async function groupView(db: Queryable, clientId: number, id: number) {
  return toGroupView((await findGroup(db, clientId, id)) ?? fail('not_found', 'Group not found'))
}

export async function getLicenses(ctx: AppContext, clientId: number) {
  const now = new Date()
  return { licenses: (await listLicenses(ctx.db, clientId)).map((r) => toLicenseView(r, now)) }
}

export const getLicense = (ctx: AppContext, clientId: number, rawId: string) => licenseView(ctx, clientId, parseId(rawId))

export async function getGroups(ctx: AppContext, clientId: number) {
  return { groups: (await listGroups(ctx.db, clientId)).map(toGroupView) }
}

export async function renameLicense(ctx: AppContext, clientId: number, rawId: string, title: string) {
  const id = parseId(rawId)
  await ctx.db.transaction(async (tx) => {
    await lockedLicense(tx, clientId, id)
    await setLicenseTitle(tx, clientId, id, title)
  })
  return licenseView(ctx, clientId, id)
}

/** Revoke: a grouped license with no activation goes back to its group (limit +1). */
export async function releaseLicense(ctx: AppContext, clientId: number, rawId: string) {
  const id = parseId(rawId)
  return ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    const license = await lockedLicense(tx, clientId, id)
    // released devices count too: a license that was ever bound is not handed back
    const problem = revokeProblem({ ...license, has_devices: await hasDevices(tx, id) })
    if (problem === 'not_grouped') fail('action_unavailable', 'Only a license generated from a group can be revoked')
    if (problem === 'activated') fail('action_unavailable', 'An activated license cannot be revoked')
    await revokeLicense(tx, id, license.group_id!)
    return { status: 'ok' as const, group: await groupView(tx, clientId, license.group_id!) }
  })
}

/** Pause and resume a cloud subscription (Face Machine, Analytics); a cancelled one cannot resume. */
export async function setPaused(ctx: AppContext, clientId: number, rawId: string, paused: boolean) {
  const id = parseId(rawId)
  await ctx.db.transaction(async (tx) => {
    const license = await lockedLicense(tx, clientId, id)
    if (!canPause(license.product)) fail('action_unavailable', 'Only Face Machine and Nuitrack Analytics subscriptions can be paused')
    if (!paused && !canResume(license, new Date())) fail('license_status')
    await setLicensePaused(tx, id, paused)
  })
  return licenseView(ctx, clientId, id)
}

export async function renameGroup(ctx: AppContext, clientId: number, rawId: string, title: string) {
  const id = parseId(rawId)
  await ctx.db.transaction(async (tx) => {
    await lockedGroup(tx, clientId, id)
    await setGroupTitle(tx, id, title)
  })
  return { group: await groupView(ctx.db, clientId, id) }
}

/** Split: a new group key of `limit` licenses taken from a default Nuitrack group. */
export async function splitGroup(ctx: AppContext, clientId: number, rawId: string, title: string, requested: number | undefined) {
  const id = parseId(rawId)
  return ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    const source = await lockedGroup(tx, clientId, id)
    const limit = requested ?? defaultGroupSize(source.available)
    const problem = checkSplit({ ...source, limit: source.available }, limit)
    if (problem === 'not_splittable') fail('action_unavailable', 'Group keys are made only from default Nuitrack subscription or Nuitrack Unlimited groups')
    if (problem === 'source_empty') fail('group_limit', 'There are no licenses available to add')
    if (problem === 'group_size_is_zero' || problem === 'group_size_number_error') fail('group_size', 'Please enter the group size', 'limit')
    if (problem === 'group_min_size_error') fail('group_size', undefined, 'limit')
    if (problem === 'license_in_group_limit_error') fail('group_limit', `There are only ${source.available} licenses available to add`, 'limit')
    const destId = await insertGroupKey(tx, clientId, source, title, limit, activationKey())
    await addAvailable(tx, source.id, -limit)
    return { dest_group: await groupView(tx, clientId, destId), source_group: await groupView(tx, clientId, source.id) }
  })
}

/** Resize: 1 up to the group's own limit plus its source default group's; the difference moves between them. */
export async function resizeGroup(ctx: AppContext, clientId: number, rawId: string, limit: number) {
  const id = parseId(rawId)
  return ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    const group = await lockedGroup(tx, clientId, id)
    if (group.source_group_id === null) fail('action_unavailable', 'Only a group key made from a default group can be resized')
    const source = await lockedGroup(tx, clientId, group.source_group_id!)
    const { problem, max } = checkGroupResize(limit, { ...group, limit: group.available }, { ...source, limit: source.available })
    if (problem === 'no_source') fail('action_unavailable', 'Only a group key made from a default Nuitrack subscription or Unlimited group can be resized')
    if (problem === 'below_min') fail('group_size', 'The group must keep at least 1 available license', 'limit')
    if (problem === 'above_max') fail('source_group_limit_reached', `At most ${max} licenses can be available in this group`, 'limit')
    const delta = limit - group.available
    await setAvailable(tx, group.id, limit)
    await addAvailable(tx, source.id, -delta)
    return { group: await groupView(tx, clientId, group.id), default_group: await groupView(tx, clientId, source.id) }
  })
}

/** A license's config: what its product grants (the catalogue), then its group's, then the order's. */
function licenseConfigFor(group: Pick<GroupRow, 'product' | 'os_type' | 'config'>, extra: Partial<LicenseConfig> = {}): LicenseConfig {
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
  opts: { title?: string | null; config?: Partial<LicenseConfig>; checkUnactivated: boolean; expiresInSeconds?: number | null; staffId?: number },
): Promise<number> {
  if (group.available < 1) fail('not_enough_licenses')
  if (opts.checkUnactivated && (await countUnactivated(tx, clientId)) >= UNACTIVATED_LICENSE_LIMIT) fail('unactivated_limit')
  const config = licenseConfigFor(group, opts.config)
  const delta = opts.expiresInSeconds ?? config.license_expire_delta ?? null
  const id = await insertLicense(tx, {
    clientId,
    groupId: group.id,
    type: platformOfProduct(group.product),
    product: group.product,
    title: opts.title ?? null,
    config,
    token: activationKey(),
    expiresInSeconds: delta,
    staffId: opts.staffId ?? null,
  })
  await addAvailable(tx, group.id, -1)
  group.available -= 1
  return id
}

/** Generate a key from a group (the pre-info screen). */
export async function newLicenseFromGroup(ctx: AppContext, clientId: number, rawId: string, title: string | undefined) {
  const id = parseId(rawId)
  const licenseId = await ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    const group = await lockedGroup(tx, clientId, id)
    return generateFromGroup(tx, clientId, group, { title, checkUnactivated: true })
  })
  return licenseView(ctx, clientId, licenseId)
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
    const { groupId } = await fulfil(tx, { clientId, product: trial.product, count: 1, config })
    const group = await lockedGroup(tx, clientId, groupId)
    return generateFromGroup(tx, clientId, group, {
      title: body.title?.trim() || null,
      config,
      checkUnactivated: true,
      expiresInSeconds: trial.days ? trial.days * DAY_SECONDS : null,
    })
  })
  return { licenses: [await licenseView(ctx, clientId, licenseId)] }
}

export interface StaffLicenseOrder {
  title: string
  count: number
  client_email: string
  config: {
    product: string
    license_expire_delta: number | null
    device_bound: boolean
    max_version: string | null
    license_content: Record<string, number>
    online?: boolean
    desktop_gpu_support?: boolean
    xml_config?: string
  }
  custom_tags: Record<string, unknown>
  custom_tags_extra?: Record<string, unknown>
}

/**
 * Staff hand out custom licenses. Each order gets a group of its own holding the custom config, so a
 * revoked license goes back to it and the license generated in its place is the same custom license
 * (a default group's config is the product's, not this order's).
 */
export async function staffCreateLicenses(ctx: AppContext, staffId: number, order: StaffLicenseOrder) {
  const tags = staffCustomTags(order)
  // the body schema refuses the same; this guards callers that skip it
  if (!tags.ok) return fail('validation_failed', 'A license takes one lock: hardware, iOS app, Android app or USB token', tags.field)
  if (checkStaffValidity(order.config)) return fail('validation_failed', 'A subscription needs a validity period', 'license_expire_delta')
  const client = (await findClientByEmail(ctx.db, order.client_email)) ?? fail('client_not_found_by_email', undefined, 'client_email')
  const { online, ...rest } = order.config
  const custom: LicenseConfig = {
    ...licenseConfigFor({ product: order.config.product, os_type: null, config: { product: order.config.product } }),
    ...rest,
    custom_tags: tags.tags,
    online: online ? { offline_timeout: ONLINE_DEFAULTS.offline_timeout } : null,
  }
  const ids = await ctx.db.transaction(async (tx) => {
    await lockClient(tx, client.id)
    const groupId = await insertCustomGroup(tx, {
      clientId: client.id,
      product: order.config.product,
      title: order.title,
      count: order.count,
      config: custom,
      token: activationKey(),
    })
    const group = await lockedGroup(tx, client.id, groupId)
    const created: number[] = []
    for (let i = 0; i < order.count; i++) {
      created.push(await generateFromGroup(tx, client.id, group, { title: order.title, checkUnactivated: false, staffId }))
    }
    return created
  })
  const now = new Date()
  const rows = await listLicenses(ctx.db, client.id)
  const wanted = new Set(ids)
  return { licenses: rows.filter((r) => wanted.has(r.id)).map((r) => toLicenseView(r, now)) }
}
