import { groupKind, type GroupView, type LicenseState, type LicenseView, type Platform } from '@portal/domain'

/** One row of the dashboard table: a real license, or the not-yet-generated slots of a group. */
export type Row = { kind: 'license'; license: LicenseView; status: LicenseState } | { kind: 'slot'; group: GroupView; status: LicenseState }

// the tabs, the product filters and their rule are the domain's: the server pages with the same ones
export { PRODUCT_FILTERS, STATUS_TABS, productMatches } from '@portal/domain'

export function buildRows(platform: Platform, licenses: LicenseView[], groups: GroupView[]): Row[] {
  const slots: Row[] = groups
    // a staff order's own group shows its revoked slots too; group keys live on the group-keys page
    .filter((g) => g.type === platform && groupKind(g) !== 'key' && (g.limit > 0 || g.holded_limit > 0))
    .map((g) => ({ kind: 'slot', group: g, status: g.holded_limit > 0 ? 'holded' : 'new' }))
  const real: Row[] = licenses.filter((l) => l.type === platform).map((l) => ({ kind: 'license', license: l, status: l.state }))
  return [...slots, ...real]
}

export const rowProduct = (r: Row) => (r.kind === 'license' ? r.license.config.product : r.group.product)
export const rowIsTrial = (r: Row) => (r.kind === 'license' ? r.license.is_trial : false)
