import { ONLINE_DEFAULTS, staffCustomTags, type LicenseConfig } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { fail } from '../../platform/errors.ts'
import { findClientByEmail, lockClient } from '../account/service.ts'
import { listLicenses, toLicenseView } from '../licenses/service.ts'
import { generateFromGroup, licenseConfigFor } from '../licenses/service.ts'
import { insertCustomGroup, lockedGroup } from '../groups/service.ts'
import { nowOf } from '../../platform/clock.ts'
import { activationKey } from '../../platform/crypto.ts'

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
      created.push(await generateFromGroup(tx, client.id, group, { title: order.title, checkUnactivated: false, staffId, now: nowOf(ctx), origin: 'staff' }))
    }
    return created
  })
  const now = new Date()
  const rows = await listLicenses(ctx.db, client.id)
  const wanted = new Set(ids)
  return { licenses: rows.filter((r) => wanted.has(r.id)).map((r) => toLicenseView(r, now)) }
}
