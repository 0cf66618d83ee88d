import { contractCalls } from '@portal/domain'
import { call } from '../lib/api-client.ts'

/** The calls that change licenses (apart from their reads, in api/licenses.ts, which the entry loads). */
export const renameLicense = (id: number, title: string) => call(contractCalls.licenseRename, { params: { id }, body: { title } }, { handle: ['bad_title'] })
export const releaseLicense = (id: number) => call(contractCalls.licenseRelease, { params: { id } })
export const pauseLicense = (id: number) => call(contractCalls.licensePause, { params: { id } })
export const resumeLicense = (id: number) => call(contractCalls.licenseResume, { params: { id } })
export const startTrial = (product: string, tag: string | null) => call(contractCalls.trialCreate, { body: { count: 1, config: { product, tag } } })
