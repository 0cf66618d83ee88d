import { queryOptions, useQuery } from '@tanstack/react-query'
import { contracts } from '@portal/domain'
import { call } from '../lib/api-client.ts'

/** License calls shared by the dashboard, the info screens and group keys. */
export const getLicenses = () => call(contracts.licenseList, {})
export const licensesQueryOptions = () => queryOptions({ queryKey: ['licenses'], queryFn: getLicenses, staleTime: 10_000 })
export const useLicenses = () => useQuery(licensesQueryOptions())

export const getLicense = (id: string) => call(contracts.license, { params: { id } }, { handle: ['not_found'] })
export const licenseQueryOptions = (id: string) => queryOptions({ queryKey: ['licenses', id], queryFn: () => getLicense(id), retry: false })
export const useLicense = (id: string) => useQuery(licenseQueryOptions(id))

export const renameLicense = (id: number, title: string) => call(contracts.licenseRename, { params: { id }, body: { title } }, { handle: ['bad_title'] })
export const releaseLicense = (id: number) => call(contracts.licenseRelease, { params: { id } })
export const pauseLicense = (id: number) => call(contracts.licensePause, { params: { id } })
export const resumeLicense = (id: number) => call(contracts.licenseResume, { params: { id } })
export const startTrial = (product: string, tag: string | null) => call(contracts.trialCreate, { body: { count: 1, config: { product, tag } } })
