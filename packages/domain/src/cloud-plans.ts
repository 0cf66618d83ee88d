import type { FaceMachinePlan, PlanLimit } from './subscriptions.ts'
import { groupDigits, type Cents } from './money.ts'
import { DEFAULT_FACE_MACHINE_CONFIGURATION } from './catalogue.ts'

/**
 * How the Face Machine info screen shows a plan (spec sections 3 and 9): a limit is a number or
 * "Unlimited" (null or 'infinite'); a time limit is months, days or "less than a day" (a month is 30
 * days); a plan the rates do not list shows the default configuration.
 */

export const SECONDS_PER_DAY = 86_400
/** Section 9: a month in time formatting is 30 days. */
export const DAYS_PER_MONTH = 30

export const isUnlimited = (v: PlanLimit | undefined): v is null | 'infinite' | undefined => v === null || v === undefined || v === 'infinite'

/** A count limit: "Unlimited", or the number with thousands separators ("10,000"). */
export function formatPlanLimit(v: PlanLimit | undefined): string {
  // up to three decimals, as Intl's default, and none written for a whole number
  return isUnlimited(v) ? 'Unlimited' : groupDigits(v, 3).replace(/\.?0+$/, '')
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

/**
 * A duration in seconds: whole months when it is at least 30 days, else whole days, else "less than
 * a day"; "Unlimited" for null or 'infinite'.
 */
export function formatRetention(seconds: PlanLimit | undefined): string {
  if (isUnlimited(seconds)) return 'Unlimited'
  const days = Math.floor(seconds / SECONDS_PER_DAY)
  if (days >= DAYS_PER_MONTH) return plural(Math.floor(days / DAYS_PER_MONTH), 'month')
  if (days >= 1) return plural(days, 'day')
  return 'less than a day'
}

/** A duration in minutes (the video processing limits), by the same rule. */
export const formatMinutes = (minutes: PlanLimit | undefined) => (isUnlimited(minutes) ? 'Unlimited' : formatRetention(minutes * 60))

/** One line of a plan as the screen lists it. */
export interface PlanLine {
  label: string
  value: string
}

/** The lines of a plan from GET /face-machine/rates/. */
export function planLines(plan: FaceMachinePlan): PlanLine[] {
  return [
    { label: 'Requests per second', value: formatPlanLimit(plan.transactions.per_second) },
    { label: 'Requests per month', value: formatPlanLimit(plan.transactions.per_month) },
    { label: 'Face storage', value: formatPlanLimit(plan.samples.per_workspace) },
    { label: 'Streaming video processing', value: formatMinutes(plan.streaming_video_processing_minutes) },
    { label: 'Archived video processing', value: formatMinutes(plan.archived_video_processing_minutes) },
    { label: 'Events retention', value: formatRetention(plan.events_retention_period_seconds) },
  ]
}

const videoText = (streaming: boolean, archived: boolean) =>
  streaming && archived ? 'Streaming and archived' : streaming ? 'Streaming' : archived ? 'Archived' : 'None'

/**
 * Section 9: the lines of the default configuration (the catalogue's DEFAULT_FACE_MACHINE_CONFIGURATION),
 * shown when the rates do not list a license's plan or the service does not answer.
 */
export function defaultConfigurationLines(): PlanLine[] {
  const d = DEFAULT_FACE_MACHINE_CONFIGURATION
  return [
    { label: 'Key', value: 'Online' },
    { label: 'Requests per second', value: formatPlanLimit(d.requests_per_second) },
    { label: 'Face storage', value: formatPlanLimit(d.face_storage) },
    { label: 'Channels', value: formatPlanLimit(d.channels) },
    { label: 'Processing functions', value: formatPlanLimit(d.processing_functions) },
    { label: 'Video', value: videoText(d.streaming_video, d.archived_video) },
  ]
}

/** The plan of a license (config.plan_id) among the rates; null when it is not listed. */
export const planOf = (plans: readonly FaceMachinePlan[], planId: number | null | undefined) =>
  planId === null || planId === undefined ? null : (plans.find((p) => p.plan_id === planId) ?? null)

/**
 * Section 9, the subscription price display: the base cost is per channel; the additional devices
 * cost (paid_channels − 1) × cost; the total is cost × paid_channels. A license without paid_channels
 * (or 0) has its one channel.
 */
export function channelPrice(
  costPerChannel: Cents,
  paidChannels: number | null | undefined,
): { channels: number; perChannel: Cents; additional: Cents; total: Cents } {
  const channels = Math.max(1, Math.floor(paidChannels ?? 1))
  return { channels, perChannel: costPerChannel, additional: (channels - 1) * costPerChannel, total: channels * costPerChannel }
}
