import { defaultGroupTitle, platformOfProduct, heldLicenses, freeLicenses, upgradeableToAI, type GroupView } from '@portal/domain'
import type { GroupRow } from './queries.ts'
import { iso } from '../../platform/iso.ts'

/** A group as the API shows it: its limit, what is held by an upgrade and what is free, at `now`. */
export function toGroupView(row: GroupRow, now = new Date()): GroupView {
  const held = heldLicenses(row, now)
  return {
    id: row.id,
    type: platformOfProduct(row.product),
    product: row.product,
    os_type: row.os_type,
    title: row.title ?? defaultGroupTitle(row.product, row.id),
    is_default: row.is_default,
    is_fake: row.is_fake,
    limit: row.available,
    holded_limit: held,
    used_licenses: row.used_licenses,
    total: row.used_licenses + row.available,
    config: row.config,
    token: row.token,
    months: row.months,
    source_group_id: row.source_group_id,
    // a staff order's own group has a custom price: its upgrade is by support
    upgradeable: { toAI: !row.is_default && row.source_group_id === null && upgradeableToAI(row.product) ? 'bySupport' : upgradeableToAI(row.product) },
    has_available_license: freeLicenses(row, now) > 0,
    created_date: iso(row.created_at)!,
    held_until: held > 0 ? iso(row.held_until) : null,
  }
}
