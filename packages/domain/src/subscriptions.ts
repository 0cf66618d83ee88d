import { z } from './zod.ts'
import { basketKey, saleEntryById } from './basket.ts'
import { unitPriceCents, type PriceRow } from './prices.ts'
import { CUSTOM_FACE_PRODUCT, DAY_SECONDS, SALE_ENTRIES } from './catalogue.ts'
import { customFacePriceCents, selectionOf } from './face-custom.ts'
import { MIN_TOP_UP_USD, PAYMENT_SOURCES, appReturnPath, type Cents } from './money.ts'
import { canPause, isTrial, renewalTermSeconds, type RenewableLicense } from './licenses.ts'
import { type LicenseConfig } from './license-schemas.ts'
import { boundedInt } from './fields.ts'

/**
 * Subscriptions that renew, and upgrades (spec section 4). The constants every side reads;
 * the rules that derive a subscription's state from stored facts live beside licenseStatus in
 * licenses.ts.
 */

/** A failed renewal is tried again this many days after the period's end, then the license stops (status 1). */
export const RENEWAL_RETRY_DAYS = [1, 3, 7] as const
/** The expiring-soon mail goes this many days before a license that will not renew ends. */
export const EXPIRY_WARNING_DAYS = 7
/** A paused cloud trial's data is erased this many days after it was paused, unless resumed. */
export const ERASE_AFTER_DAYS = 30
/** The warning mail before the erasure goes this many days before it. */
export const ERASE_WARNING_DAYS = 5
/**
 * An upgrade's checkout holds the license or group until the payment completes, is cancelled or
 * expires: about 15 minutes (spec), at most 30 (Stripe's shortest checkout life).
 */
export const UPGRADE_HOLD_MINUTES = 30
/** Section 9: the analytics upgrade amount when the server has none, and the floor of what is shown. */
export const DEFAULT_UPGRADE_AMOUNT = 20
/** Section 4: an upgrade cost below this is shown as the default amount (20.00). */
export const UPGRADE_COST_EPSILON = 0.001

/**
 * The internal state of a subscription (subscriptions.state). awaiting_authentication: the card
 * asked for the customer's authentication on a renewal, which they pay on-session by the end of the
 * retry window.
 */
export const SUBSCRIPTION_STATES = ['active', 'past_due', 'awaiting_authentication', 'stopped', 'ended'] as const
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number]

const dateText = z.string().nullable()

/** What a license view tells of its subscription; null for a license that does not renew. */
export const subscriptionViewSchema = z.object({
  id: z.number(),
  state: z.enum(SUBSCRIPTION_STATES),
  /** how renewals are paid: the balance, a saved card, or a PayPal wallet (vault) */
  payment_source: z.enum(PAYMENT_SOURCES),
  /** paid from a wallet provider (PayPal): the spec's reactivation is not self-service for it */
  wallet: z.boolean(),
  /** cancelled by the customer: stays active to the end of the prepaid period, then ends */
  cancel_at_period_end: z.boolean(),
  /** renewals that failed in the current period (0 while all is well) */
  failed_attempts: z.number(),
  /** when the renewal job charges next: the period's end, or the next retry; awaiting_authentication: the pay-by date */
  next_attempt: dateText,
  /** USD a period, as the next renewal charges it; null when the product has no price */
  renewal_price: z.number().nullable(),
})
export type SubscriptionView = z.infer<typeof subscriptionViewSchema>

const returnUrls = { success_url: appReturnPath, cancel_url: appReturnPath }
export const returnUrlErrors = { success_url: 'return_url_invalid', cancel_url: 'return_url_invalid' } as const

/** POST /license/{id}/upgrade/ */
export const licenseUpgradeBody = z.object({ payment_source: z.enum(PAYMENT_SOURCES).default('stripe'), ...returnUrls })
/** POST /group/{id}/upgrade/: `limit` of the group's available licenses are upgraded */
export const groupUpgradeBody = z.object({ payment_source: z.enum(PAYMENT_SOURCES).default('stripe'), ...returnUrls, limit: boundedInt(1, 9999) })
/** POST /license/{id}/renewal-payment/: where the browser comes back from the checkout */
export const renewalPaymentBody = z.object({ ...returnUrls })

/**
 * GET /license/{id}/renewal-payment/: the renewal whose card asked for the customer's authentication,
 * as its page shows it. `due` false: nothing to pay (paid, or the subscription is not awaiting).
 */
export const renewalPaymentViewSchema = z.object({
  license_id: z.number(),
  title: z.string(),
  due: z.boolean(),
  /** USD, what the renewal costs; null when nothing is due */
  amount: z.number().nullable(),
  /** the period it pays for, ISO dates */
  period_from: dateText,
  period_to: dateText,
  /** pay by then: the license works until then; afterwards the subscription stops */
  pay_by: dateText,
  /** the license's end as it stands (after paying: the new period's end) */
  expire_date: dateText,
  subscription_state: z.enum(SUBSCRIPTION_STATES).nullable(),
})
export type RenewalPaymentView = z.infer<typeof renewalPaymentViewSchema>

/** POST /license/{id}/reactivate-subscription/: the payment source defaults to the subscription's own */
export const reactivateBody = z.object({ payment_source: z.enum(PAYMENT_SOURCES).optional(), ...returnUrls })

/**
 * A Face Machine plan (section 3): each limit a number, or null or 'infinite' for unlimited. Time
 * limits are seconds (events retention) or minutes (video processing).
 */
const planLimit = z.union([z.number(), z.literal('infinite')]).nullable()
export const faceMachinePlanSchema = z.object({
  plan_id: z.number(),
  title: z.string(),
  transactions: z.object({ per_second: planLimit, per_month: planLimit }),
  samples: z.object({ per_workspace: planLimit }),
  streaming_video_processing_minutes: planLimit,
  archived_video_processing_minutes: planLimit,
  events_retention_period_seconds: planLimit,
})
export type FaceMachinePlan = z.infer<typeof faceMachinePlanSchema>
export type PlanLimit = z.infer<typeof planLimit>

/**
 * What an upgrade costs: the price of the one sale entry of the product it upgrades to (a trial's
 * paid product; Pro → AI's upgrade_nuitrack_pro), times the licenses upgraded (a group's `limit`).
 * The server charges this and the upgrade checkout shows it. Null when the entry is not for sale.
 * Nuitrack Analytics' amount is its upgrade-cost (GET /nuitrack-analytics/{id}/upgrade-cost/), which
 * the server answers from the same rule.
 */
export function upgradePriceCents(soldAs: string, rows: readonly PriceRow[], count = 1): Cents | null {
  const entry = SALE_ENTRIES.find((e) => e.product === soldAs)
  if (!entry) return null
  const unit = unitPriceCents(entry, rows)
  return unit === null ? null : unit * count
}

/** Section 4: an upgrade cost below 0.001 is shown as 20.00. */
export const shownUpgradeCost = (amount: number | null | undefined) =>
  amount === null || amount === undefined || amount < UPGRADE_COST_EPSILON ? DEFAULT_UPGRADE_AMOUNT : amount

/*
 * Renewals: the pure rules the renewal job, the cancel and reactivate calls and the license
 * view share.
 */

/**
 * What one more period of a license costs now, from the price table: its sale entry's unit price (the
 * product and term it was sold as), or for a custom Face SDK subscription the builder's price of its
 * license_content. Null when nothing prices it (not for sale any more): it is not renewed.
 */
export function renewalPriceCents(l: RenewableLicense, rows: readonly PriceRow[]): Cents | null {
  if (l.product === CUSTOM_FACE_PRODUCT) {
    const content = l.config.license_content
    if (!content) return null
    const unit = customFacePriceCents(selectionOf(content), rows)
    return unit !== null && unit > 0 ? unit : null
  }
  const entry = saleEntryById(basketKey(l.product, renewalTermSeconds(l)))
  return entry ? unitPriceCents(entry, rows) : null
}

/** The unique key of one charge of a period: a run twice, or on two processes at once, charges once. */
export const renewalChargeKey = (subscriptionId: number, periodEnd: Date, attempt: number) =>
  `renewal:${subscriptionId}:${Math.floor(periodEnd.getTime() / 1000)}:${attempt}`
/** The key of the balance top-up a short balance-paid renewal makes first (balance_autofill). */
export const autofillChargeKey = (subscriptionId: number, periodEnd: Date, attempt: number) =>
  `autofill:${subscriptionId}:${Math.floor(periodEnd.getTime() / 1000)}:${attempt}`

/**
 * After the `failedAttempts`-th failed renewal of the period ending at `periodEnd`: when to try again
 * (1, 3, 7 days after the end), or null when the retries ran out and the license stops.
 */
export function nextRetryAt(periodEnd: Date, failedAttempts: number): Date | null {
  const days = RENEWAL_RETRY_DAYS[failedAttempts - 1]
  return days === undefined ? null : new Date(periodEnd.getTime() + days * DAY_SECONDS * 1000)
}

/**
 * The pay-by date of a renewal whose card asked for authentication: the end of the retry window (the
 * last retry day after the period's end). The license stays active until then.
 */
export const authenticationPayBy = (periodEnd: Date): Date =>
  new Date(periodEnd.getTime() + RENEWAL_RETRY_DAYS[RENEWAL_RETRY_DAYS.length - 1]! * DAY_SECONDS * 1000)

/** The key of the n-th on-session checkout of a renewal that asked for authentication (one period, one attempt). */
export const onSessionChargeKey = (subscriptionId: number, periodEnd: Date, attempt: number, n: number) =>
  `${renewalChargeKey(subscriptionId, periodEnd, attempt)}:on_session:${n}`

/** A renewal charge the provider could not take (an outage) is asked again after 5 minutes, then twice as long each time… */
export const OUTAGE_FIRST_RETRY_SECONDS = 5 * 60
/** …at most this far apart… */
export const OUTAGE_MAX_RETRY_SECONDS = 6 * 3600
/** …until the attempt has been due this long: then it is a failed attempt, with its mail. */
export const OUTAGE_LIMIT_HOURS = 48

/** Whether an attempt due at `due` has waited on an outage past the age limit at `now`. */
export const outagePastLimit = (due: Date, now: Date) => now.getTime() - due.getTime() >= OUTAGE_LIMIT_HOURS * 3600_000

/**
 * When a renewal charge that found the provider unavailable `retries` times before (0 the first
 * time) is asked again: 5 minutes after now, doubling each time, at most 6 hours apart, and never
 * later than the moment the attempt (due at `due`) reaches the age limit.
 */
export function outageRetryAt(now: Date, retries: number, due: Date): Date {
  const delay = Math.min(OUTAGE_FIRST_RETRY_SECONDS * 2 ** Math.min(retries, 30), OUTAGE_MAX_RETRY_SECONDS)
  const limit = due.getTime() + OUTAGE_LIMIT_HOURS * 3600_000
  return new Date(Math.max(now.getTime(), Math.min(now.getTime() + delay * 1000, limit)))
}

/** A balance_autofill top-up: the shortfall, at least the 20 USD minimum top-up. */
export const autofillAmountCents = (shortfall: Cents): Cents => Math.max(shortfall, MIN_TOP_UP_USD * 100)

/** What the rules read of a subscription row. */
export interface SubscriptionFacts {
  state: SubscriptionState
  cancel_at_period_end: boolean
}

/** It will be charged again: active or past due, not cancelled, the license not paused. */
export const subscriptionRenews = (s: SubscriptionFacts | null | undefined, paused: boolean | undefined) =>
  !!s && (s.state === 'active' || s.state === 'past_due') && !s.cancel_at_period_end && !paused

/**
 * The reactivate call's path: undo a cancellation inside the paid period (no payment), pay a new
 * period (ended, stopped, past due, or past its end), or nothing to do (it renews as it is).
 */
export function reactivationKind(s: SubscriptionFacts, expired: boolean): 'undo_cancel' | 'pay' | null {
  if (s.state === 'active' && !expired) return s.cancel_at_period_end ? 'undo_cancel' : null
  return 'pay'
}

const DAY_MS = 86_400_000
const ms = (d: Date | string | number | null | undefined) =>
  d == null ? null : d instanceof Date ? d.getTime() : typeof d === 'number' ? d : new Date(d).getTime()

/** What the erasure rules read of a cloud license. */
export interface ErasureFacts {
  product: string
  config: LicenseConfig
  paused_at: Date | string | number | null
  data_erased_at: Date | string | number | null
}

/**
 * Section 4: a paused cloud trial's workspace data is erased ERASE_AFTER_DAYS after it was paused
 * unless it is resumed first. Answers that date while it is ahead or due; null for a license that is
 * no paused cloud trial, or whose data was already erased during this pause (once per pause).
 */
export function dataEraseDate(l: ErasureFacts): Date | null {
  const paused = ms(l.paused_at)
  if (paused === null || !l.config.paused || !canPause(l.product) || !isTrial(l)) return null
  const erased = ms(l.data_erased_at)
  if (erased !== null && erased >= paused) return null
  return new Date(paused + ERASE_AFTER_DAYS * DAY_MS)
}

/** When the erasure warning goes out: ERASE_WARNING_DAYS before the erasure. */
export const eraseWarningDate = (l: ErasureFacts) => {
  const erase = dataEraseDate(l)
  return erase === null ? null : new Date(erase.getTime() - ERASE_WARNING_DAYS * DAY_MS)
}
