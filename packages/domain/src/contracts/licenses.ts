import { z } from 'zod'
import { contract, okSchema } from '../contract.ts'
import { groupViewSchema, licenseViewSchema } from '../license-views.ts'
import { newLicenseBody, resizeBody, splitBody, staffLicenseBody, titleBody, trialBody } from '../licenses.ts'
import { text } from '../validation.ts'

export const idParams = z.object({ id: text() })
/** a title the rules refuse is the spec's bad-title answer, wherever the title is */
const titleErrors = { title: 'bad_title' } as const
const tags = ['licenses']
const groupTags = ['groups']
const licensesSchema = z.object({ licenses: z.array(licenseViewSchema) })

const pauseCall = (path: string, paused: boolean) =>
  contract({
    method: 'POST',
    path,
    auth: 'client',
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
    tags,
    summary: "The client's licenses, newest first",
    response: { 200: licensesSchema },
    errors: [],
  }),
  license: contract({
    method: 'GET',
    path: '/license/:id/',
    auth: 'client',
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

  groupList: contract({
    method: 'GET',
    path: '/group/',
    auth: 'client',
    tags: groupTags,
    summary: "The client's license groups",
    response: { 200: z.object({ groups: z.array(groupViewSchema) }) },
    errors: [],
  }),
  groupRename: contract({
    method: 'POST',
    path: '/group/:id/',
    auth: 'client',
    tags: groupTags,
    summary: 'Rename a group',
    params: idParams,
    body: titleBody,
    response: { 200: z.object({ group: groupViewSchema }) },
    errors: ['not_found', 'bad_title'],
    fieldErrors: titleErrors,
  }),
  groupSplit: contract({
    method: 'POST',
    path: '/group/:id/split/',
    auth: 'client',
    tags: groupTags,
    summary:
      'Make a group key of `limit` licenses (default: the lesser of 2 and what the source has) from a default nuitrack_subscribe or nuitrack_unlimited group',
    params: idParams,
    body: splitBody,
    response: { 200: z.object({ dest_group: groupViewSchema, source_group: groupViewSchema }) },
    errors: ['not_found', 'action_unavailable', 'group_limit', 'group_size', 'bad_title'],
    fieldErrors: titleErrors,
  }),
  groupResize: contract({
    method: 'POST',
    path: '/group/:id/resize/',
    auth: 'client',
    tags: groupTags,
    summary: "Set a group key's available licenses; the difference moves to or from its default group",
    params: idParams,
    body: resizeBody,
    response: { 200: z.object({ group: groupViewSchema, default_group: groupViewSchema }) },
    errors: ['not_found', 'action_unavailable', 'group_size', 'source_group_limit_reached'],
  }),
  groupNewLicense: contract({
    method: 'POST',
    path: '/group/:id/new-license/',
    auth: 'client',
    tags: groupTags,
    summary: 'Generate a license from a group (limit -1)',
    params: idParams,
    body: newLicenseBody,
    response: { 200: licenseViewSchema },
    errors: ['not_found', 'not_enough_licenses', 'unactivated_limit', 'bad_title'],
    fieldErrors: titleErrors,
  }),

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
    tags,
    summary: 'Start a free trial: nuitrack_trial, or fmc_subscribe / na_subscribe with tag FMC Trial / NA Trial; one per product',
    body: trialBody,
    response: { 200: licensesSchema },
    errors: ['not_free', 'trial_taken', 'not_enough_licenses', 'unactivated_limit', 'not_found', 'bad_title'],
    fieldErrors: titleErrors,
  }),
  staffLicenseCreate: contract({
    method: 'POST',
    path: '/resource/custom/create/',
    auth: 'staff',
    tags: ['staff'],
    summary: 'Staff: create custom licenses for a client by e-mail',
    body: staffLicenseBody,
    response: { 200: licensesSchema },
    errors: ['client_not_found_by_email', 'not_enough_licenses', 'not_found', 'bad_title'],
    fieldErrors: titleErrors,
  }),
} as const
