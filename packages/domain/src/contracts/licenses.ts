import { z } from '../zod.ts'
import { contract, okSchema } from '../contract.ts'
import { licenseCountsSchema, licenseListQuery } from '../license-list.ts'
import { groupViewSchema, licenseViewSchema } from '../license-views.ts'
import { titleBody, trialBody } from '../license-schemas.ts'
import { text } from '../fields.ts'

export const idParams = z.object({ id: text() })
/** a title the rules refuse is the spec's bad-title answer, wherever the title is */
export const titleErrors = { title: 'bad_title' } as const
const tags = ['licenses']
export const licensesSchema = z.object({ licenses: z.array(licenseViewSchema) })
/** a page of the list: its rows, how many match the filters, and the counts of the tabs and filters */
export const licensePageSchema = z.object({ licenses: z.array(licenseViewSchema), total: z.number(), counts: licenseCountsSchema })

const pauseCall = (path: string, paused: boolean) =>
  contract({
    method: 'POST',
    path,
    auth: 'client',
    permission: 'money',
    tags,
    summary: paused ? 'Pause a cloud subscription' : 'Resume a cloud subscription',
    params: idParams,
    response: { 200: licenseViewSchema },
    errors: paused ? ['not_found', 'license_on_hold', 'action_unavailable'] : ['not_found', 'license_on_hold', 'action_unavailable', 'license_status'],
  })

export const licenseContracts = {
  licenseList: contract({
    method: 'GET',
    path: '/license/',
    auth: 'client',
    bearer: true,
    permission: 'read',
    tags,
    summary:
      "The client's licenses, newest first (of one platform with `type`, of one group with `group`): at most the newest 200 without paging. With status, product, offset, limit or sort: one page (`limit` 1-200), the number matching and the counts of the dashboard's tabs and filters. `Cache-Control: no-store`; a strong ETag, and If-None-Match answers 304 while nothing changed",
    query: licenseListQuery,
    response: { 200: z.union([licensePageSchema, licensesSchema]) },
    errors: [],
  }),
  license: contract({
    method: 'GET',
    path: '/license/:id/',
    auth: 'client',
    bearer: true,
    permission: 'read',
    tags,
    summary: 'One license',
    params: idParams,
    response: { 200: licenseViewSchema },
    errors: ['not_found'],
  }),
  licenseRename: contract({
    method: 'POST',
    path: '/license/:id/',
    auth: 'client',
    bearer: true,
    permission: 'licenses',
    tags,
    summary: 'Rename a license',
    params: idParams,
    body: titleBody,
    response: { 200: licenseViewSchema },
    errors: ['not_found', 'license_on_hold', 'bad_title'],
    fieldErrors: titleErrors,
  }),
  licenseRelease: contract({
    method: 'POST',
    path: '/license/:id/release/',
    auth: 'client',
    bearer: true,
    permission: 'licenses',
    tags,
    summary: 'Revoke a grouped license that was never activated; its group gets the license back',
    params: idParams,
    response: { 200: okSchema.extend({ group: groupViewSchema }) },
    errors: ['not_found', 'license_on_hold', 'action_unavailable'],
  }),
  licensePause: pauseCall('/license/:id/pause/', true),
  licenseResume: pauseCall('/license/:id/resume/', false),
  analyticsWorkspaceDeactivate: pauseCall('/nuitrack-analytics/:id/deactivate-workspace/', true),
  analyticsWorkspaceActivate: pauseCall('/nuitrack-analytics/:id/activate-workspace/', false),
  faceMachineWorkspaceDeactivate: pauseCall('/facemachine/:id/deactivate-workspace/', true),
  faceMachineWorkspaceActivate: pauseCall('/facemachine/:id/activate-workspace/', false),

  faceSdkVersions: contract({
    method: 'GET',
    path: '/versions/face/',
    auth: 'public',
    tags: ['catalogue'],
    summary: 'Face SDK versions',
    response: { 200: z.object({ facesdk_versions: z.array(z.object({ version: z.string(), is_default: z.boolean() })) }) },
    errors: [],
  }),
  faceComponents: contract({
    method: 'GET',
    path: '/components/face/',
    auth: 'public',
    tags: ['catalogue'],
    summary: 'Face SDK license components',
    response: { 200: z.object({ components: z.array(z.string()) }) },
    errors: [],
  }),

  trialCreate: contract({
    method: 'POST',
    path: '/resource/create/',
    auth: 'client',
    permission: 'licenses',
    tags,
    summary: 'Start a free trial: nuitrack_trial, or fmc_subscribe / na_subscribe with tag FMC Trial / NA Trial; one per product',
    body: trialBody,
    response: { 200: licensesSchema },
    errors: ['not_free', 'trial_taken', 'not_enough_licenses', 'unactivated_limit', 'not_found', 'bad_title'],
    fieldErrors: { ...titleErrors, count: 'not_free' },
  }),
} as const
