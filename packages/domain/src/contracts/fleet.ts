import { z } from '../zod.ts'
import { contract } from '../contract.ts'
import { FLEET_ACTIVATION_DAYS, FLEET_EXPIRY_DAYS, FLEET_SPEND_MONTHS, fleetSummarySchema, fleetViewSchema } from '../fleet.ts'
import { platformSchema } from '../platforms.ts'

const tags = ['fleet']

/** The fleet and spend view of the signed-in account, and one platform's strip of it. */
export const fleetContracts = {
  fleetView: contract({
    method: 'GET',
    path: '/account/fleet/',
    auth: 'client',
    // it shows spend: the roles that read payment documents
    permission: 'documents',
    tags,
    summary: `The account's devices activated per day and platform (last ${FLEET_ACTIVATION_DAYS} days), licenses by status, licenses expiring per week (next ${FLEET_EXPIRY_DAYS} days) and spend in cents per month and platform (last ${FLEET_SPEND_MONTHS} months)`,
    response: { 200: fleetViewSchema },
    errors: [],
  }),
  fleetSummary: contract({
    method: 'GET',
    path: '/account/fleet/:platform/',
    auth: 'client',
    permission: 'read',
    tags,
    summary: `One platform's active devices and licenses expiring in the next ${FLEET_EXPIRY_DAYS} days (the dashboard's strip)`,
    params: z.object({ platform: platformSchema }),
    response: { 200: fleetSummarySchema },
    errors: [],
  }),
} as const
