import { z } from './zod.ts'
import { LICENSE_STATES } from './licenses.ts'
import { PLATFORMS, type Platform } from './platforms.ts'

/**
 * The fleet and spend view: what a customer owns and pays for, in four pictures, each aggregated in
 * the database for the signed-in account. Days, weeks and months are UTC calendar units.
 */

/** Device activations: the last this many days, today included. */
export const FLEET_ACTIVATION_DAYS = 90
/** Expiring licenses: those whose expiry falls within this many days from now. */
export const FLEET_EXPIRY_DAYS = 90
/** Spend: the last this many calendar months, this one included. */
export const FLEET_SPEND_MONTHS = 12

const count = z.number().int().min(0)
const perPlatform = <T extends z.ZodType>(value: T) => z.object(Object.fromEntries(PLATFORMS.map((p) => [p, value])) as { [K in Platform]: T })

export const fleetActivationDaySchema = perPlatform(count).extend({
  /** YYYY-MM-DD (UTC); every day of the window is present, a day without activations with zeros */
  day: z.string(),
})
export const fleetStatusSchema = z.object({ status: z.enum(LICENSE_STATES), count })
export const fleetExpiryWeekSchema = z.object({
  /** the Monday (YYYY-MM-DD, UTC) starting the ISO week; every week of the window is present */
  week: z.string(),
  count,
})
export const fleetSpendMonthSchema = perPlatform(z.number().int()).extend({
  /** YYYY-MM (UTC); every month of the window is present */
  month: z.string(),
})

/**
 * GET /api/account/fleet/'s answer. Spend is integer cents per platform: purchases, renewals,
 * reactivations and upgrades paid (by card, PayPal or from the balance) in the month, minus what a
 * credit note (refund, dispute, reversal) gave back of them in the month it was issued; a dispute
 * the merchant won counts as never taken back. Top-ups and staff adjustments are not spend (the
 * purchase paid from the balance is).
 */
export const fleetViewSchema = z.object({
  activations: z.array(fleetActivationDaySchema),
  license_status: z.array(fleetStatusSchema),
  expiring: z.array(fleetExpiryWeekSchema),
  spend: z.array(fleetSpendMonthSchema),
})
export type FleetView = z.infer<typeof fleetViewSchema>
export type FleetActivationDay = z.infer<typeof fleetActivationDaySchema>
export type FleetSpendMonth = z.infer<typeof fleetSpendMonthSchema>

/** The dashboard's strip for one platform: two counts, no series. */
export const fleetSummarySchema = z.object({
  /** devices bound now (not released) to the platform's live licenses */
  active_devices: count,
  /** the platform's live licenses whose expiry falls within FLEET_EXPIRY_DAYS from now */
  expiring_soon: count,
})
export type FleetSummary = z.infer<typeof fleetSummarySchema>

/** True when a view holds nothing to draw: no activation, no license, no spend. */
export function fleetIsEmpty(view: FleetView): boolean {
  const sum = (row: Record<Platform, number>) => PLATFORMS.reduce((s, p) => s + Math.abs(row[p]), 0)
  return (
    view.activations.every((d) => sum(d) === 0) &&
    view.license_status.every((s) => s.count === 0) &&
    view.expiring.every((w) => w.count === 0) &&
    view.spend.every((m) => sum(m) === 0)
  )
}
