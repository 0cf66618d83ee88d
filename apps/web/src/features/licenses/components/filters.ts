import {
  PRODUCTS,
  PRODUCT_CATALOGUE,
  groupKind,
  isCustomProduct,
  platformHasPausable,
  productKind,
  productRecord,
  type GroupView,
  type LicenseState,
  type LicenseView,
  type Platform,
} from '@portal/domain'

/** One row of the dashboard table: a real license, or the not-yet-generated slots of a group. */
export type Row = { kind: 'license'; license: LicenseView; status: LicenseState } | { kind: 'slot'; group: GroupView; status: LicenseState }

/** Section 2's tabs (holded for nuitrack only); a platform whose subscriptions can be paused adds a Paused tab. */
export const STATUS_TABS = (platform: Platform): LicenseState[] =>
  platform === 'nuitrack'
    ? ['new', 'active', 'suspended', 'holded']
    : platformHasPausable(platform)
      ? ['new', 'active', 'paused', 'suspended']
      : ['new', 'active', 'suspended']

export const PRODUCT_FILTERS: Partial<Record<Platform, { value: string; label: string }[]>> = {
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

export const FIRST_PAGE = 20
export const PAGE_STEP = 50
