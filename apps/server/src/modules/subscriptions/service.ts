import {
  TRANSACTION_TYPE,
  centsToUsd,
  defaultLicenseTitle,
  isExpired,
  reactivationKind,
  renewalPriceCents,
  renewalTermSeconds,
  type PaymentSource,
} from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { fail } from '../../platform/errors.ts'
import type { DbFigure } from '../../platform/metrics.ts'
import { recordActivity } from '../activity/service.ts'
import { settleFromBalance } from '../billing/service.ts'
import { listPriceRows } from '../catalogue/service.ts'
import { licenseView, lockedLicense, parseId } from '../licenses/service.ts'
import { openCheckout } from '../payments/service.ts'
import {
  extendPeriod,
  linkTransaction,
  lockSubscriptionOfLicense,
  setCancelAtPeriodEnd,
  setSubscriptionPayment,
  subscriptionFigures,
  dueRenewalCount,
} from './queries.ts'
import { lockClient } from '../account/service.ts'

/**
 * Cancel and reactivate (spec section 4). Both take the client's lock, then the license's
 * (refused while on hold), then the subscription's: the renewal job takes them in the same order, so
 * a cancel and a renewal racing each other serialise on the subscription row and the job re-checks
 * the cancellation under the lock before it charges.
 */

/** POST /license/{id}/cancel-subscription/: it stays active to the end of its paid period, then ends. */
export async function cancelSubscription(ctx: AppContext, clientId: number, rawId: string) {
  const id = parseId(rawId)
  const now = ctx.clock.now()
  await ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    const license = await lockedLicense(tx, clientId, id, now)
    const sub = await lockSubscriptionOfLicense(tx, id)
    if (!sub || (sub.state !== 'active' && sub.state !== 'past_due')) return fail('action_unavailable', 'This license has no subscription to cancel')
    if (sub.cancel_at_period_end) return
    await setCancelAtPeriodEnd(tx, sub.id, true, now)
    await recordActivity(tx, {
      clientId,
      licenseId: id,
      kind: 'cancelled',
      details: { until: license.expire_date ? new Date(license.expire_date).toISOString() : null },
      at: now,
    })
  })
  return licenseView(ctx, clientId, id)
}

interface ReactivateBody {
  payment_source?: PaymentSource
  success_url: string
  cancel_url: string
}

/**
 * POST /license/{id}/reactivate-subscription/: inside the paid period a cancellation is undone (no
 * payment); an ended, stopped or past-due subscription (or one past its end) pays one period now:
 * from the balance at once (it runs from now), or through a checkout whose payment extends it from
 * the later of now and the old end and keeps the new card for the renewals.
 */
export async function reactivateSubscription(ctx: AppContext, clientId: number, rawId: string, body: ReactivateBody) {
  const id = parseId(rawId)
  const now = ctx.clock.now()
  const decided = await ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    const license = await lockedLicense(tx, clientId, id, now)
    const sub = (await lockSubscriptionOfLicense(tx, id)) ?? fail('action_unavailable', 'This license has no subscription')
    // its renewal is paid on-session from the renewal-payment page, for the period it was due
    if (sub.state === 'awaiting_authentication') return fail('action_unavailable', 'Confirm the waiting renewal payment instead')
    // its payment was refunded or disputed: paying again would lift a suspension only billing may lift
    if (license.suspended_reason) return fail('action_unavailable', 'Its payment was taken back: contact us to use it again')
    const kind = reactivationKind(sub, isExpired(license, now))
    if (kind === null) return fail('action_unavailable', 'The subscription is active and renews by itself')
    if (kind === 'undo_cancel') {
      await setCancelAtPeriodEnd(tx, sub.id, false, now)
      await recordActivity(tx, { clientId, licenseId: id, kind: 'reactivated', details: { undo_cancel: true }, at: now })
      return { status: 'ok' as const }
    }
    const source = body.payment_source ?? sub.payment_source
    // section 8: a wallet subscription is not renewed from the portal (the unimplemented-renewal message)
    if (sub.payment_source === 'paypal' || source === 'paypal') return fail('wallet_renewal_unavailable')
    const price = renewalPriceCents(license, await listPriceRows(tx))
    const term = renewalTermSeconds(license)
    if (price === null || term === null) return fail('subscription_cancelled')
    const title = license.title ?? defaultLicenseTitle(license.product, license.id)
    const description = `Reactivation of ${title}`
    const lines = [{ description, quantity: 1, amount_cents: price }]
    if (source !== 'balance') return { status: 'checkout' as const, sub, price, description, lines, source }

    const transactionId = await settleFromBalance(ctx, tx, { clientId, kind: 'reactivation', amountCents: price, description, lines, now }, async (t) => {
      await linkTransaction(tx, t.id, sub.id, license.id)
      await extendPeriod(tx, { subscriptionId: sub.id, licenseId: license.id, end: new Date(now.getTime() + term * 1000), keepCancel: false })
      if (sub.payment_source !== 'balance') await setSubscriptionPayment(tx, sub.id, 'balance', null)
    })
    return { status: 'paid' as const, transactionId, price }
  })

  if (decided.status === 'ok')
    return { status: 'ok' as const, transaction_id: null, amount: null, payment: null, license: await licenseView(ctx, clientId, id) }
  if (decided.status === 'paid') {
    return {
      status: 'paid' as const,
      transaction_id: decided.transactionId,
      amount: centsToUsd(decided.price),
      payment: null,
      license: await licenseView(ctx, clientId, id),
    }
  }
  const opened = await openCheckout(ctx, {
    clientId,
    kind: 'reactivation',
    type: TRANSACTION_TYPE.debit,
    description: decided.description,
    lines: decided.lines,
    amountCents: decided.price,
    source: decided.source,
    // the provider keeps the card: the renewals charge it from now on
    mode: 'subscription',
    successPath: body.success_url,
    cancelPath: body.cancel_url,
    reserve: (tx, transactionId) => linkTransaction(tx, transactionId, decided.sub.id, id),
  })
  return {
    status: 'pending' as const,
    transaction_id: opened.transaction_id,
    amount: centsToUsd(decided.price),
    payment: opened.payment,
    license: await licenseView(ctx, clientId, id),
  }
}

/** For the metrics: subscriptions by state, and renewals due and not yet charged (a growing figure means the renewal job is stuck). */
export const subscriptionMetrics: DbFigure[] = [
  {
    name: 'portal_subscriptions',
    help: 'Subscriptions by state (active, past_due after a failed renewal, stopped, ended), counted at most once a minute',
    labelNames: ['state'],
    read: async (db) => (await subscriptionFigures(db)).map((r) => ({ labels: { state: r.state }, value: r.n })),
    // a count of the whole table: read at most once a minute, whatever the scrapers' number and pace
    maxAgeMs: 60_000,
  },
  {
    name: 'portal_renewals_due',
    help: 'Renewals and retries whose time has come and that are not charged yet',
    labelNames: [],
    read: async (db) => [{ labels: {}, value: await dueRenewalCount(db) }],
  },
]
