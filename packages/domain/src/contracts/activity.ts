import { z } from '../zod.ts'
import { contract } from '../contract.ts'
import { ACTIVITY_PAGE_DEFAULT, ACTIVITY_PAGE_MAX, activityEventSchema } from '../activity.ts'
import { idParams } from './licenses.ts'

const tags = ['activity']
export const activityListSchema = z.object({ events: z.array(activityEventSchema) })

export const activityPageQuery = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(ACTIVITY_PAGE_MAX).default(ACTIVITY_PAGE_DEFAULT),
})

/** The activity history: a license's, the account's, and the account's as a CSV file. */
export const activityContracts = {
  licenseHistory: contract({
    method: 'GET',
    path: '/license/:id/history/',
    auth: 'client',
    bearer: true,
    permission: 'read',
    tags,
    summary: "What happened to one of the client's licenses and when, newest first",
    params: idParams,
    response: { 200: activityListSchema },
    errors: ['not_found'],
  }),
  accountHistory: contract({
    method: 'GET',
    path: '/account/history/',
    auth: 'client',
    permission: 'read',
    tags,
    summary: `The client's whole activity history, newest first, a page at a time (offset, limit up to ${ACTIVITY_PAGE_MAX}); total counts every line`,
    query: activityPageQuery,
    response: { 200: activityListSchema.extend({ total: z.number(), offset: z.number(), limit: z.number() }) },
    errors: [],
  }),
  accountHistoryExport: contract({
    method: 'GET',
    path: '/account/history/export/',
    auth: 'client',
    permission: 'read',
    tags,
    summary: 'The whole activity history as a CSV attachment (activity-history.csv); corporate accounts only',
    // text/csv, not JSON
    response: {},
    rawAnswers: { 200: { description: 'activity-history.csv, an attachment', mediaType: 'text/csv' } },
    errors: ['history_export_corporate'],
  }),
} as const
