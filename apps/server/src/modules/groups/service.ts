import { checkGroupResize, checkSplit, defaultGroupSize } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { fail } from '../../platform/errors.ts'
import { activationKey } from '../licenses/fulfilment.ts'
import { addAvailable, insertGroupKey, listGroups, setAvailable, setGroupTitle, toGroupView } from '../licenses/queries.ts'
import { generateFromGroup, groupView, licenseView, lockClient, lockedGroup, parseId } from '../licenses/service.ts'

export async function getGroups(ctx: AppContext, clientId: number) {
  return { groups: (await listGroups(ctx.db, clientId)).map(toGroupView) }
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

/** Generate a key from a group (the pre-info screen). */
export async function newLicenseFromGroup(ctx: AppContext, clientId: number, rawId: string, title: string | undefined) {
  const id = parseId(rawId)
  const licenseId = await ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    const group = await lockedGroup(tx, clientId, id)
    return generateFromGroup(tx, clientId, group, { title, checkUnactivated: true, now: ctx.clock.now() })
  })
  return licenseView(ctx, clientId, licenseId)
}
