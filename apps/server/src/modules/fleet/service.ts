import { FLEET_ACTIVATION_DAYS, FLEET_EXPIRY_DAYS, FLEET_SPEND_MONTHS, LICENSE_STATES, type FleetSummary, type FleetView, type Platform } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { countLicenses } from '../licenses/service.ts'
import { activationsPerDay, expiringPerWeek, platformSummary, spendPerMonth } from './queries.ts'

const DAY_MS = 86_400_000

/** Midnight UTC of `at`'s day. */
const utcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()))
/** The first instant of `at`'s UTC month moved by `months`. */
const utcMonth = (at: Date, months: number) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1))

/**
 * GET /account/fleet/: the four pictures of what the client owns, at business time. Four aggregate
 * queries, sent together (each answers a few dozen rows at most).
 */
export async function getFleetView(ctx: Pick<AppContext, 'db' | 'clock'>, clientId: number): Promise<FleetView> {
  const now = ctx.clock.now()
  const tomorrow = new Date(utcDay(now).getTime() + DAY_MS)
  const [activations, counts, expiring, spend] = await Promise.all([
    activationsPerDay(ctx.db, clientId, new Date(tomorrow.getTime() - FLEET_ACTIVATION_DAYS * DAY_MS), tomorrow),
    countLicenses(ctx.db, clientId, null, 'all', now),
    expiringPerWeek(ctx.db, clientId, now, new Date(now.getTime() + FLEET_EXPIRY_DAYS * DAY_MS)),
    spendPerMonth(ctx.db, clientId, utcMonth(now, 1 - FLEET_SPEND_MONTHS), utcMonth(now, 1)),
  ])
  return {
    activations,
    license_status: LICENSE_STATES.map((status) => ({ status, count: counts.counts.status[status] })),
    expiring,
    spend,
  }
}

/** GET /account/fleet/{platform}/: the dashboard's strip, two counts. */
export async function getFleetSummary(ctx: Pick<AppContext, 'db' | 'clock'>, clientId: number, platform: Platform): Promise<FleetSummary> {
  const now = ctx.clock.now()
  return platformSummary(ctx.db, clientId, platform, now, new Date(now.getTime() + FLEET_EXPIRY_DAYS * DAY_MS))
}
