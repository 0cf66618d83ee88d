import { z } from './zod.ts'
import { PLATFORMS } from './platforms.ts'
import { subscriptionViewSchema } from './subscriptions.ts'
import { LICENSE_STATES, canPause, isOnHold, termMonths, type LicenseState } from './licenses.ts'
import { licenseConfigSchema } from './license-schemas.ts'
import { productRecord } from './catalogue.ts'

/** License and group as the API answers them (spec section 3). */

const dateText = z.string().nullable()

export const activationSchema = z.object({
  id: z.number(),
  kind: z.string(),
  name: z.string().nullable(),
  signature_properties: z.object({ serial: z.string().nullable(), sensor_name: z.string().nullable(), reg: z.string().nullable() }),
  fingerprint: z.string().nullable(),
  first_seen: z.string(),
  last_seen: z.string().nullable(),
})
export type Activation = z.infer<typeof activationSchema>

export const licenseViewSchema = z.object({
  id: z.number(),
  type: z.enum(PLATFORMS),
  title: z.string(),
  group: z.string().nullable(),
  group_id: z.number().nullable(),
  config: licenseConfigSchema,
  created_date: z.string(),
  expire_date: dateText,
  activation_date: dateText,
  dates: z.object({ createdDate: z.string(), expireDate: dateText, activationDate: dateText, days: z.number().nullable() }),
  status: z.number(),
  license_status: z.enum(['holded', 'suspended', 'active', 'new']),
  /** what the badge, banner and filter tabs show: license_status, or paused (licenseState) */
  state: z.enum(LICENSE_STATES),
  subscription_status: z.enum(['none', 'cancelled', 'paused', 'active']).nullable(),
  next_payment: dateText,
  activations: z.array(activationSchema),
  locked_to: z.string().nullable(),
  token: z.string(),
  serial_sensor: z.string(),
  data: z.string().nullable(),
  card_brand: z.string().nullable(),
  card_last4: z.string().nullable(),
  paypal_email: z.string().nullable(),
  is_fake: z.boolean(),
  is_trial: z.boolean(),
  is_subscription: z.boolean(),
  from_custom_group: z.boolean(),
  price: z.number().nullable(),
  lifetime: z.enum(['year', 'month']).nullable(),
  upgradeable: z.object({ toAI: z.enum(['self', 'bySupport']).nullable() }),
  /** the renewing subscription of this license (how it is paid, cancelled, failed renewals); null if it does not renew */
  subscription: subscriptionViewSchema.nullable(),
  /** on hold under an upgrade until then (status 2 while it lasts) */
  held_until: dateText,
  /** a paused cloud license: when it was paused, and when its data is (or was) erased unless resumed */
  paused_at: dateText,
  data_erase_date: dateText,
  data_erased_at: dateText,
  /** suspended because the payment for it was refunded or disputed: why (its credit note); null otherwise */
  suspended_reason: z.string().nullable().default(null),
})
export type LicenseView = z.infer<typeof licenseViewSchema>

export const groupViewSchema = z.object({
  id: z.number(),
  type: z.enum(PLATFORMS),
  product: z.string(),
  os_type: z.number().nullable(),
  title: z.string(),
  is_default: z.boolean(),
  is_fake: z.boolean(),
  limit: z.number(),
  holded_limit: z.number(),
  used_licenses: z.number(),
  total: z.number(),
  config: licenseConfigSchema,
  token: z.string(),
  months: z.number().nullable(),
  source_group_id: z.number().nullable(),
  upgradeable: z.object({ toAI: z.enum(['self', 'bySupport']).nullable() }),
  has_available_license: z.boolean(),
  created_date: z.string(),
  /** holded_limit of its licenses are on hold under an upgrade until then */
  held_until: dateText,
})
export type GroupView = z.infer<typeof groupViewSchema>

/**
 * A group is on hold while an upgrade's pending payment holds some of its licenses: until
 * held_until, or (a view without the date) while holded_limit counts held licenses.
 */
export const groupOnHold = (g: Pick<GroupView, 'held_until' | 'holded_limit'>, now: Date) => isOnHold(g, now) || (g.held_until === null && g.holded_limit > 0)

/**
 * What a license's "Expires" shows: its date; for a subscription without one, that it renews (its
 * term from the license, else from the product); "never" only for a license that does not end.
 */
export type ExpiryText = { kind: 'date'; date: string } | { kind: 'renews'; term: 'month' | 'year'; months: number } | { kind: 'never' }
export function expiryText(l: Pick<LicenseView, 'expire_date' | 'next_payment' | 'is_subscription' | 'lifetime' | 'config'>): ExpiryText {
  const date = l.expire_date ?? l.next_payment
  if (date) return { kind: 'date', date }
  if (l.is_subscription) {
    const months = termMonths({ product: l.config.product, config: l.config }) ?? 1
    return { kind: 'renews', term: months >= 12 ? 'year' : 'month', months }
  }
  return { kind: 'never' }
}

/**
 * Whether a screen shows a license as a trial (its copy, "Upgrade now", "Pause the trial"): a trial
 * that nothing pays for. A license with a paid subscription never reads as a trial.
 */
export const showsAsTrial = (l: Pick<LicenseView, 'is_trial' | 'subscription'>) => l.is_trial && l.subscription === null

/** The names of the states, for badges and filter tabs. */
export const STATE_LABELS: Record<LicenseState, string> = { new: 'New', active: 'Active', suspended: 'Suspended', holded: 'On hold', paused: 'Paused' }

/**
 * Section 4, what the subscription block of an info screen shows, in order of precedence: on hold (no
 * action), taken back (suspended because its payment was refunded or disputed: no action, it is
 * not a renewal to pay), stopped (status 1: renewals failed, resume by paying), cancelled (ended:
 * renew), paused (resume), awaiting authentication (the card asked the customer to confirm the
 * renewal: pay it on-session), past due (a renewal failed, retried), cancel pending (cancelled within
 * the paid period: reactivate undoes it), active. Null for a license that does not renew (a perpetual
 * one, a trial).
 */
export type SubscriptionPhase =
  'on_hold' | 'taken_back' | 'stopped' | 'cancelled' | 'paused' | 'awaiting_authentication' | 'past_due' | 'cancel_pending' | 'active'
export function subscriptionPhase(
  l: Pick<LicenseView, 'status' | 'state' | 'subscription' | 'subscription_status' | 'is_trial' | 'is_subscription'> &
    Partial<Pick<LicenseView, 'suspended_reason'>>,
): SubscriptionPhase | null {
  const s = l.subscription
  const renews = s !== null || (l.is_subscription && !l.is_trial && l.subscription_status !== null && l.subscription_status !== 'none')
  if (!renews) return null
  if (l.status === 2) return 'on_hold'
  if (l.status === 1 && l.suspended_reason) return 'taken_back'
  if (l.status === 1 || s?.state === 'stopped') return 'stopped'
  if (l.subscription_status === 'cancelled' || s?.state === 'ended') return 'cancelled'
  if (l.state === 'paused' || l.subscription_status === 'paused') return 'paused'
  if (s?.state === 'awaiting_authentication') return 'awaiting_authentication'
  if (s?.state === 'past_due') return 'past_due'
  if (s?.cancel_at_period_end) return 'cancel_pending'
  return 'active'
}

/** A cloud subscription (Face Machine, Analytics; not a trial) is managed by pause and workspace calls. */
export const isCloudSubscription = (l: Pick<LicenseView, 'config' | 'is_trial'>) => canPause(l.config.product) && !l.is_trial

const CARD_BRANDS: Record<string, string> = { visa: 'Visa', mastercard: 'MasterCard', amex: 'American Express', 'american express': 'American Express' }

/**
 * How a subscription is paid, as the screen names it: "Visa •••• 4242", the PayPal e-mail, or
 * "Balance"; null when the license tells nothing of it.
 */
export function paymentMethodText(
  l: Pick<LicenseView, 'card_brand' | 'card_last4' | 'paypal_email'> & {
    subscription: Pick<NonNullable<LicenseView['subscription']>, 'payment_source'> | null
  },
): string | null {
  const source = l.subscription?.payment_source
  if (source === 'balance') return 'Balance'
  if (l.card_last4 && source !== 'paypal') {
    const raw = l.card_brand?.trim() ?? ''
    const brand = CARD_BRANDS[raw.toLowerCase()] ?? (raw ? raw[0]!.toUpperCase() + raw.slice(1) : 'Card')
    return `${brand} •••• ${l.card_last4}`
  }
  if (l.paypal_email) return `PayPal (${l.paypal_email})`
  if (source === 'paypal') return 'PayPal'
  if (source === 'stripe') return 'Card'
  return null
}

/** What a Pro → AI upgrade is sold as (its price row): the catalogue's, never a spelled code. */
export const aiUpgradeSoldAs = (product: string) => productRecord(product)?.upgrade?.sold_as ?? null
