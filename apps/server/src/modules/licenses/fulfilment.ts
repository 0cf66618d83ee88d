import { platformOfProduct, type LicenseConfig } from '@portal/domain'
import type { Queryable } from '../../db/db.ts'
import { randomToken } from '../../platform/crypto.ts'
import { insertCustomGroup, upsertDefaultGroup } from '../groups/service.ts'

export interface FulfilmentOrder {
  clientId: number
  product: string
  count: number
  osType?: number | null
  /** face all-in-one terms live in their own default group per term */
  months?: number | null
  config?: Partial<LicenseConfig>
}

/**
 * The one path by which paid-for capacity reaches a client: it adds `count` to the client's default
 * group for the product and os_type, creating the group when it is missing. Runs in the caller's
 * transaction; the upsert makes parallel fulfilments of one product add up instead of colliding.
 */
export async function fulfil(tx: Queryable, order: FulfilmentOrder): Promise<{ groupId: number; available: number }> {
  if (!Number.isInteger(order.count) || order.count < 1) throw new Error(`fulfil: bad count ${order.count}`)
  const config: LicenseConfig = { product: order.product, os_type: order.osType ?? null, ...order.config }
  const row = await upsertDefaultGroup(tx, {
    clientId: order.clientId,
    type: platformOfProduct(order.product),
    product: order.product,
    osType: order.osType ?? null,
    months: order.months ?? null,
    count: order.count,
    config,
    token: randomToken(16),
  })
  return { groupId: row.id, available: row.available }
}

/**
 * Paid-for capacity made to the customer's own configuration (the custom Face SDK subscription):
 * a group of its own holding that config, so two different configurations never share a group and
 * a revoked license goes back to it (as a staff order does).
 */
export async function fulfilCustom(tx: Queryable, order: { clientId: number; product: string; title: string; count: number; config: Partial<LicenseConfig> }) {
  if (!Number.isInteger(order.count) || order.count < 1) throw new Error(`fulfilCustom: bad count ${order.count}`)
  const config: LicenseConfig = { product: order.product, os_type: null, ...order.config }
  const id = await insertCustomGroup(tx, {
    clientId: order.clientId,
    product: order.product,
    title: order.title,
    count: order.count,
    config,
    token: randomToken(16),
  })
  return { groupId: id, available: order.count }
}
