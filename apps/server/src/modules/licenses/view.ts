import {
  daysToExpiry,
  defaultGroupTitle,
  defaultLicenseTitle,
  isSubscription,
  licenseState,
  isTrial,
  licenseStatus,
  lifetime,
  numericStatus,
  platformOfProduct,
  serialSensorText,
  subscriptionStatus,
  dataEraseDate,
  upgradeToAI,
  centsToUsd,
  subscriptionRenews,
  type LicenseView,
} from '@portal/domain'
import type { LicenseRow } from './queries.ts'
import { iso } from '../../platform/iso.ts'

/** A license as the API shows it (LicenseView): its state, expiry, devices and subscription, judged at `now`. */
export function toLicenseView(row: LicenseRow, now: Date): LicenseView {
  const activations = (row.activations ?? []).map((a) => ({ ...a, first_seen: iso(a.first_seen)!, last_seen: iso(a.last_seen) }))
  // the derivations read only these: a small object instead of a copy of the row (1,000 rows a list)
  const facts = {
    product: row.product,
    config: row.config,
    status: row.status,
    held_until: row.held_until,
    expire_date: row.expire_date,
    activation_date: row.activation_date,
    activation_count: activations.length,
    group_key_used: row.group_key_used,
    subscription: row.sub_id === null || row.sub_id === undefined ? null : { state: row.sub_state!, cancel_at_period_end: row.sub_cancel_at_period_end! },
  }
  const subscription = subscriptionStatus(facts, now)
  const renews = subscriptionRenews(facts.subscription, row.config.paused)
  const expire = iso(row.expire_date)
  const created = iso(row.created_at)!
  const activated = iso(row.activation_date)
  const trial = isTrial(row)
  return {
    id: row.id,
    type: platformOfProduct(row.product),
    title: row.title ?? defaultLicenseTitle(row.product, row.id),
    group: row.group_id === null ? null : (row.group_title ?? defaultGroupTitle(row.group_product ?? row.product, row.group_id)),
    group_id: row.group_id,
    config: row.config,
    created_date: created,
    expire_date: expire,
    activation_date: activated,
    dates: { createdDate: created, expireDate: expire, activationDate: activated, days: daysToExpiry(row.expire_date, now) },
    status: numericStatus(row, now),
    license_status: licenseStatus(facts, now),
    state: licenseState(facts, now),
    subscription_status: subscription,
    // only while it will be charged: not cancelled, paused or stopped (a license without a subscription is not charged)
    next_payment: renews && subscription === 'active' && !trial ? (iso(row.sub_next_attempt_at) ?? expire) : null,
    activations,
    locked_to: row.locked_to,
    token: row.token,
    serial_sensor: serialSensorText(activations.map((a) => a.signature_properties)),
    data: row.data,
    // what the subscription renews with; the license's own record (a reactivation's, an import's) otherwise
    card_brand: row.pm_source ? row.pm_card_brand : row.card_brand,
    card_last4: row.pm_source ? row.pm_card_last4 : row.card_last4,
    paypal_email: row.pm_source ? row.pm_paypal_email : row.paypal_email,
    is_fake: row.is_fake,
    is_trial: trial,
    is_subscription: isSubscription(row.product),
    // made from a group key; a staff order's own group is not one
    from_custom_group: row.group_id !== null && row.group_source_id != null,
    price: row.price_cents === null ? null : centsToUsd(row.price_cents),
    lifetime: lifetime(row.config),
    // a Pro license of a staff order's own group (custom price) is upgraded by support
    upgradeable: { toAI: upgradeToAI({ ...facts, custom: row.group_id !== null && row.group_is_default === false && row.group_source_id == null }, now) },
    subscription:
      row.sub_id === null || row.sub_id === undefined
        ? null
        : {
            id: row.sub_id,
            state: row.sub_state!,
            payment_source: row.sub_payment_source!,
            wallet: row.sub_payment_source === 'paypal',
            cancel_at_period_end: row.sub_cancel_at_period_end!,
            failed_attempts: row.sub_failed_attempts ?? 0,
            // awaiting the customer's authentication: the pay-by date (nothing is charged by itself)
            next_attempt: renews || row.sub_state === 'awaiting_authentication' ? iso(row.sub_next_attempt_at) : null,
            renewal_price: row.renewal_price_cents === null || row.renewal_price_cents === undefined ? null : centsToUsd(row.renewal_price_cents),
          },
    held_until: iso(row.held_until),
    paused_at: row.config.paused ? iso(row.paused_at) : null,
    data_erase_date: iso(dataEraseDate(row)),
    data_erased_at: iso(row.data_erased_at),
    suspended_reason: row.suspended_reason ?? null,
  }
}
