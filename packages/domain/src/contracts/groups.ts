import { z } from '../zod.ts'
import { contract } from '../contract.ts'
import { groupViewSchema, licenseViewSchema } from '../license-views.ts'
import { newLicenseBody, newLicensesBody, resizeBody, splitBody, titleBody } from '../license-schemas.ts'
import { idParams, titleErrors } from './licenses.ts'

const groupTags = ['groups']

export const groupContracts = {
  groupList: contract({
    method: 'GET',
    path: '/group/',
    auth: 'client',
    bearer: true,
    permission: 'read',
    tags: groupTags,
    summary: "The client's license groups",
    response: {
      200: z.object({
        groups: z.array(groupViewSchema),
        /** the client's licenses waiting unactivated, which the rule of at most 10 counts (all platforms) */
        unactivated_licenses: z.number().int().nonnegative(),
      }),
    },
    errors: [],
  }),
  groupRename: contract({
    method: 'POST',
    path: '/group/:id/',
    auth: 'client',
    bearer: true,
    permission: 'licenses',
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
    bearer: true,
    permission: 'licenses',
    tags: groupTags,
    summary:
      'Make a group key of `limit` licenses (default: the lesser of 2 and what the source has) from a default nuitrack_subscribe or nuitrack_unlimited group',
    params: idParams,
    body: splitBody,
    response: { 200: z.object({ dest_group: groupViewSchema, source_group: groupViewSchema }) },
    errors: ['not_found', 'action_unavailable', 'group_limit', 'group_size', 'bad_title'],
    fieldErrors: { ...titleErrors, limit: 'group_size' },
  }),
  groupResize: contract({
    method: 'POST',
    path: '/group/:id/resize/',
    auth: 'client',
    bearer: true,
    permission: 'licenses',
    tags: groupTags,
    summary: "Set a group key's available licenses; the difference moves to or from its default group",
    params: idParams,
    body: resizeBody,
    response: { 200: z.object({ group: groupViewSchema, default_group: groupViewSchema }) },
    errors: ['not_found', 'action_unavailable', 'group_size', 'source_group_limit_reached', 'not_enough_licenses'],
    fieldErrors: { limit: 'group_size' },
  }),
  groupNewLicense: contract({
    method: 'POST',
    path: '/group/:id/new-license/',
    auth: 'client',
    bearer: true,
    permission: 'licenses',
    tags: groupTags,
    summary: 'Generate a license from a group (limit -1)',
    params: idParams,
    body: newLicenseBody,
    response: { 200: licenseViewSchema },
    errors: ['not_found', 'not_enough_licenses', 'unactivated_limit', 'bad_title'],
    fieldErrors: titleErrors,
  }),
  groupNewLicenses: contract({
    method: 'POST',
    path: '/group/:id/new-licenses/',
    auth: 'client',
    bearer: true,
    permission: 'licenses',
    tags: groupTags,
    summary:
      'Generate `count` licenses from a group at once (limit -count), with default titles: all or none, within the free licenses and the rule of at most 10 unactivated licenses',
    params: idParams,
    body: newLicensesBody,
    response: { 200: z.object({ licenses: z.array(licenseViewSchema), group: groupViewSchema }) },
    errors: ['not_found', 'not_enough_licenses', 'unactivated_limit'],
  }),
} as const
