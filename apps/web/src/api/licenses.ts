import { infiniteQueryOptions, queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls, type LicenseCounts, type LicenseState, type LicenseView, type Platform } from '@portal/domain'
import { call } from '../lib/api-client.ts'

/** License calls shared by the dashboard, the info screens and group keys. */
export const getLicenses = () => call(contractCalls.licenseList, { query: {} }, { revalidate: true })
export const licensesQueryOptions = () => queryOptions({ queryKey: ['licenses'], queryFn: getLicenses, staleTime: 10_000 })
export const useLicenses = () => useQuery(licensesQueryOptions())

/**
 * One group's licenses, or (`keys`) those made from the client's group keys: the server filters, so
 * a group page never depends on the whole list fitting in its newest 200. Under the list's key, so
 * whatever invalidates the list invalidates these too.
 */
export const groupLicensesQueryOptions = (group: number | 'keys') =>
  queryOptions({
    queryKey: [...licensesQueryOptions().queryKey, 'group', group],
    queryFn: () => call(contractCalls.licenseList, { query: { group: String(group) } }, { revalidate: true }),
    staleTime: 10_000,
  })
export const useGroupLicenses = (group: number | 'keys', enabled = true) => useQuery({ ...groupLicensesQueryOptions(group), enabled })

/** A page of the list: its rows, how many match the filters, and the counts of the tabs and filters. */
export interface LicensePage {
  licenses: LicenseView[]
  total: number
  counts: LicenseCounts
}
export interface LicenseFilter {
  platform: Platform
  status: 'all' | LicenseState
  product: string
}

/** A platform's whole list, as the dashboard opens it. */
export const unfiltered = (platform: Platform): LicenseFilter => ({ platform, status: 'all', product: 'all' })

/** The dashboard shows 20 rows first and 50 more per click (section 2). */
export const FIRST_PAGE = 20
export const PAGE_STEP = 50

async function getLicensePage(query: Record<string, string | undefined>): Promise<LicensePage> {
  const answer = await call(contractCalls.licenseList, { query }, { revalidate: true })
  if (!('counts' in answer)) throw new Error('GET /api/license/ answered the whole list to a page request')
  return answer
}

/**
 * The pages of one platform's list under one status and product filter, each read when shown: the
 * first 20 rows, then 50 more a page. Its key sits under the list's, so whatever invalidates the
 * list invalidates the pages too.
 */
export const licensePagesQueryOptions = (filter: LicenseFilter) =>
  infiniteQueryOptions({
    queryKey: [...licensePagesKey(), filter],
    queryFn: ({ pageParam }) =>
      getLicensePage({
        type: filter.platform,
        status: filter.status,
        product: filter.product,
        offset: String(pageParam),
        limit: String(pageParam === 0 ? FIRST_PAGE : PAGE_STEP),
      }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.licenses.length, 0)
      return loaded < last.total ? loaded : undefined
    },
    staleTime: 10_000,
  })
/** The prefix of every page query (a mutation that changes a license invalidates them all). */
export const licensePagesKey = () => [...licensesQueryOptions().queryKey, 'pages'] as const

/** How many licenses the client has on any platform: one row read, for "is this a new client". */
export const licenseTotalQueryOptions = () =>
  queryOptions({ queryKey: [...licensePagesKey(), 'total'], queryFn: () => getLicensePage({ limit: '1' }), select: (p) => p.total, staleTime: 10_000 })

export const getLicense = (id: string) => call(contractCalls.license, { params: { id } }, { handle: ['not_found'] })
export const licenseQueryOptions = (id: string) => queryOptions({ queryKey: ['licenses', id], queryFn: () => getLicense(id), retry: false })
export const useLicense = (id: string) => useQuery(licenseQueryOptions(id))

export const renameLicense = (id: number, title: string) => call(contractCalls.licenseRename, { params: { id }, body: { title } }, { handle: ['bad_title'] })
export const releaseLicense = (id: number) => call(contractCalls.licenseRelease, { params: { id } })
export const pauseLicense = (id: number) => call(contractCalls.licensePause, { params: { id } })
export const resumeLicense = (id: number) => call(contractCalls.licenseResume, { params: { id } })
export const startTrial = (product: string, tag: string | null) => call(contractCalls.trialCreate, { body: { count: 1, config: { product, tag } } })
