import { checkGroupResize, checkSplit, defaultGroupSize, freeLicenses, defaultGroupTitle, productTitle } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { fail } from '../../platform/errors.ts'
import type { Queryable } from '../../db/db.ts'
import { nowOf } from '../../platform/clock.ts'
import { activationKey } from '../../platform/crypto.ts'
import { parseId } from '../../platform/ids.ts'
import { lockClient } from '../account/service.ts'
import { recordActivity } from '../activity/service.ts'
import { addAvailable, findGroup, insertGroupKey, listGroups, moveCapacity, setAvailable, setGroupTitle, type GroupRow } from './queries.ts'
import { toGroupView } from './view.ts'

export {
  addAvailable,
  addPurchaseCapacity,
  capacityForNewLicense,
  findGroup,
  givePurchaseCapacityBack,
  groupPayment,
  insertCustomGroup,
  moveCapacity,
  setGroupPayment,
  takePurchaseCapacity,
  upsertDefaultGroup,
  type GroupRecord,
  type GroupRow,
} from './queries.ts'
export { toGroupView } from './view.ts'

/** Locks a client's group for a change (another's, or a missing one, is not found). */
export async function lockedGroup(tx: Queryable, clientId: number, id: number): Promise<GroupRow> {
  return (await findGroup(tx, clientId, id, true)) ?? fail('not_found', 'Group not found')
}

export async function groupView(db: Queryable, clientId: number, id: number, now = new Date()) {
  return toGroupView((await findGroup(db, clientId, id)) ?? fail('not_found', 'Group not found'), now)
}

export async function getGroups(ctx: AppContext, clientId: number) {
  const now = nowOf(ctx)
  return { groups: (await listGroups(ctx.db, clientId)).map((g) => toGroupView(g, now)) }
}

export async function renameGroup(ctx: AppContext, clientId: number, rawId: string, title: string) {
  const id = parseId(rawId)
  await ctx.db.transaction(async (tx) => {
    await lockedGroup(tx, clientId, id)
    await setGroupTitle(tx, id, title)
  })
  return { group: await groupView(ctx.db, clientId, id, nowOf(ctx)) }
}

/** Split: a new group key of `limit` licenses taken from a default Nuitrack group. */
export async function splitGroup(ctx: AppContext, clientId: number, rawId: string, title: string, requested: number | undefined) {
  const id = parseId(rawId)
  const now = nowOf(ctx)
  return ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    const source = await lockedGroup(tx, clientId, id)
    // the licenses an upgrade holds are not there to split off
    const free = freeLicenses(source, now)
    const limit = requested ?? defaultGroupSize(free)
    const problem = checkSplit({ ...source, limit: free }, limit)
    if (problem === 'not_splittable') fail('action_unavailable', 'Group keys are made only from default Nuitrack subscription or Nuitrack Unlimited groups')
    if (problem === 'source_empty') fail('group_limit', 'There are no licenses available to add')
    if (problem === 'group_size_is_zero' || problem === 'group_size_number_error') fail('group_size', 'Please enter the group size', 'limit')
    if (problem === 'group_min_size_error') fail('group_size', undefined, 'limit')
    if (problem === 'license_in_group_limit_error') fail('group_limit', `There are only ${free} licenses available to add`, 'limit')
    const destId = await insertGroupKey(tx, clientId, source, title, limit, activationKey())
    // the purchases whose units these are keep them in the group key (a refund takes them there)
    await moveCapacity(tx, { clientId, fromGroupId: source.id, available: source.available, toGroupId: destId, n: limit })
    await addAvailable(tx, source.id, -limit)
    const details = { title, size: limit, product: source.product, product_title: productTitle(source.product), source_group_id: source.id }
    await recordActivity(tx, { clientId, groupId: destId, kind: 'group_key_created', details, at: now })
    return { dest_group: await groupView(tx, clientId, destId, now), source_group: await groupView(tx, clientId, source.id, now) }
  })
}

/** Resize: 1 up to the group's own limit plus its source default group's; the difference moves between them. */
export async function resizeGroup(ctx: AppContext, clientId: number, rawId: string, limit: number) {
  const id = parseId(rawId)
  const now = nowOf(ctx)
  return ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    const group = await lockedGroup(tx, clientId, id)
    if (group.source_group_id === null) fail('action_unavailable', 'Only a group key made from a default group can be resized')
    const source = await lockedGroup(tx, clientId, group.source_group_id!)
    // held licenses stay where they are: neither group gives up more than it has free
    const held = group.available - freeLicenses(group, now)
    const { problem, max } = checkGroupResize(limit, { ...group, limit: group.available }, { ...source, limit: freeLicenses(source, now) })
    if (held > 0 && limit < held) fail('not_enough_licenses', `${held} licenses of this group are on hold under an upgrade`, 'limit')
    if (problem === 'no_source') fail('action_unavailable', 'Only a group key made from a default Nuitrack subscription or Unlimited group can be resized')
    if (problem === 'below_min') fail('group_size', 'The group must keep at least 1 available license', 'limit')
    if (problem === 'above_max') fail('source_group_limit_reached', `At most ${max} licenses can be available in this group`, 'limit')
    const delta = limit - group.available
    if (delta > 0) await moveCapacity(tx, { clientId, fromGroupId: source.id, available: source.available, toGroupId: group.id, n: delta })
    if (delta < 0) await moveCapacity(tx, { clientId, fromGroupId: group.id, available: group.available, toGroupId: source.id, n: -delta })
    await setAvailable(tx, group.id, limit)
    await addAvailable(tx, source.id, -delta)
    if (delta !== 0) {
      const details = {
        title: group.title ?? defaultGroupTitle(group.product, group.id),
        from: group.available,
        to: limit,
        product: group.product,
        product_title: productTitle(group.product),
      }
      await recordActivity(tx, { clientId, groupId: group.id, kind: 'group_key_resized', details, at: now })
    }
    return { group: await groupView(tx, clientId, group.id, now), default_group: await groupView(tx, clientId, source.id, now) }
  })
}
