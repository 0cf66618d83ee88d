import { setTimeout as sleep } from 'node:timers/promises'
import {
  PAYMENT_SESSION_HOURS,
  TRANSACTION_STATUS,
  TRANSACTION_TYPE,
  centsToUsd,
  defaultLicenseTitle,
  onSessionChargeKey,
  renewalChargeKey,
  renewalTermSeconds,
  termMonths,
  termPeriod,
  type RenewalPaymentView,
} from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { fail } from '../../platform/errors.ts'
import { lockClient } from '../account/service.ts'
import { licenseView, lockedLicense, parseId } from '../licenses/service.ts'
import { openCheckout } from '../payments/service.ts'
import {
  checkoutClaim,
  claimCheckout,
  currentCheckout,
  findChargeByKey,
  linkTransaction,
  lockSubscriptionOfLicense,
  setCheckoutUrl,
  subscriptionOfLicense,
} from './queries.ts'

/**
 * A renewal whose card asked for the customer's authentication (the subscription awaits it, see
 * renewal.ts) is paid on-session from its page: a checkout of the provider for the amount due
 * (Stripe Checkout, the sandbox's checkout), whose paid event renews through the `renewal`
 * fulfilment like the off-session charge would have.
 *
 * One checkout per renewal, whoever asks at once: the subscription row names the checkout's
 * transaction (claimed by a conditional UPDATE in the transaction that writes it, before the
 * provider is asked) and, once the provider answered, where it is paid. A request that finds a claim
 * without an address waits for the request that holds it; one that finds the checkout closed unpaid
 * (cancelled, declined, expired) opens the next.
 */

/** a checkout that expires sooner than this is not handed out again: the next one is opened */
const CHECKOUT_MARGIN_MS = 10 * 60_000
/** a claim without an address older than this was left by a request that died: it is taken over */
const CLAIM_LEASE_MS = 2 * 60_000
/** how often, and how many times, a request waiting for another's checkout looks again */
const WAIT_STEP_MS = 100
const WAIT_STEPS = 300

interface Answer {
  transaction_id: number
  amount: number
  payment: { provider: 'sandbox' | 'stripe' | 'paypal'; provider_data: { session_id: string; url: string } }
}

class CheckoutTaken extends Error {}

/** GET /license/{id}/renewal-payment/: what the page shows. */
export async function renewalPaymentView(ctx: AppContext, clientId: number, rawId: string): Promise<RenewalPaymentView> {
  const id = parseId(rawId)
  const license = await licenseView(ctx, clientId, id)
  const sub = await subscriptionOfLicense(ctx.db, id)
  const base = {
    license_id: license.id,
    title: license.title,
    expire_date: license.expire_date,
    subscription_state: sub?.state ?? null,
  }
  const periodEnd = sub?.state === 'awaiting_authentication' ? sub.awaiting_period_end : null
  if (!sub || !periodEnd) return { ...base, due: false, amount: null, period_from: null, period_to: null, pay_by: null }
  const declined = await findChargeByKey(ctx.db, renewalChargeKey(sub.id, periodEnd, sub.failed_attempts))
  const term = renewalTermSeconds({ product: sub.product, config: sub.config })
  return {
    ...base,
    due: true,
    amount: declined ? centsToUsd(declined.amount_cents) : null,
    period_from: periodEnd.toISOString(),
    period_to: term === null ? null : new Date(periodEnd.getTime() + term * 1000).toISOString(),
    pay_by: sub.next_attempt_at?.toISOString() ?? null,
  }
}

/** POST /license/{id}/renewal-payment/: the checkout where the customer pays the awaiting renewal. */
export async function payRenewal(ctx: AppContext, clientId: number, rawId: string, body: { success_url: string; cancel_url: string }): Promise<Answer> {
  const id = parseId(rawId)
  // a second round only after losing a claim race to a request whose checkout then failed
  for (let round = 0; round < 2; round++) {
    const now = ctx.clock.now()
    const decided = await ctx.db.transaction(async (tx) => {
      await lockClient(tx, clientId)
      const license = await lockedLicense(tx, clientId, id, now)
      const sub = await lockSubscriptionOfLicense(tx, id)
      if (!sub || sub.state !== 'awaiting_authentication' || !sub.awaiting_period_end)
        return fail('action_unavailable', 'No renewal payment is waiting for this license')
      if (!sub.next_attempt_at || sub.next_attempt_at <= now) return fail('action_unavailable', 'The time to pay this renewal has passed')
      const declined = await findChargeByKey(tx, renewalChargeKey(sub.id, sub.awaiting_period_end, sub.failed_attempts))
      if (!declined) return fail('action_unavailable', 'No renewal payment is waiting for this license')
      const seen = sub.checkout_transaction_id
      if (seen !== null) {
        const c = await currentCheckout(tx, seen)
        const open = c?.status === TRANSACTION_STATUS.pending && (!c.expires_at || c.expires_at.getTime() > now.getTime() + CHECKOUT_MARGIN_MS)
        if (open && sub.checkout_url && c.provider && c.provider_session_id) {
          return { kind: 'open' as const, answer: answerOf(seen, declined.amount_cents, c.provider, c.provider_session_id, sub.checkout_url) }
        }
        if (open && !sub.checkout_url && c.created_at.getTime() > Date.now() - CLAIM_LEASE_MS) return { kind: 'wait' as const, subscriptionId: sub.id }
      }
      const title = license.title ?? defaultLicenseTitle(license.product, license.id)
      const months = termMonths(license)
      const description = `Renewal of ${title}${months ? ` for ${termPeriod(months)}` : ''}`
      const term = renewalTermSeconds(license)
      const from = sub.awaiting_period_end
      const period = term === null ? undefined : { from: from.toISOString(), to: new Date(from.getTime() + term * 1000).toISOString() }
      return {
        kind: 'new' as const,
        sub,
        licenseId: license.id,
        amountCents: declined.amount_cents,
        description,
        lines: [{ description, quantity: 1, amount_cents: declined.amount_cents, ...(period ? { period } : {}) }],
        seen,
        payBy: sub.next_attempt_at,
      }
    })
    if (decided.kind === 'open') return decided.answer
    if (decided.kind === 'wait') return waitForCheckout(ctx, decided.subscriptionId)

    const { sub } = decided
    const periodEnd = sub.awaiting_period_end!
    let opened
    try {
      opened = await openCheckout(ctx, {
        clientId,
        kind: 'renewal',
        type: TRANSACTION_TYPE.debit,
        description: decided.description,
        lines: decided.lines,
        amountCents: decided.amountCents,
        source: sub.payment_source === 'paypal' ? 'paypal' : 'stripe',
        // the card authenticated now is kept for the next renewals (setup_future_usage off_session)
        mode: 'subscription',
        successPath: body.success_url,
        cancelPath: body.cancel_url,
        expiresAt: new Date(Math.min(decided.payBy.getTime(), now.getTime() + PAYMENT_SESSION_HOURS * 3600_000)),
        // the conditional UPDATE of the subscription row decides who opens the checkout (no client
        // lock here: the new transaction's row already holds a key share of it)
        reserve: async (tx, transactionId) => {
          if (!(await claimCheckout(tx, sub.id, transactionId, decided.seen))) throw new CheckoutTaken()
          await linkTransaction(tx, transactionId, sub.id, decided.licenseId, onSessionChargeKey(sub.id, periodEnd, sub.failed_attempts, transactionId))
        },
      })
    } catch (err) {
      if (err instanceof CheckoutTaken) return waitForCheckout(ctx, sub.id)
      throw err
    }
    const { session_id: sessionId, url } = opened.payment.provider_data
    await setCheckoutUrl(ctx.db, opened.transaction_id, url)
    return answerOf(opened.transaction_id, decided.amountCents, opened.payment.provider, sessionId, url)
  }
  return fail('external_payments_unavailable')
}

const answerOf = (transactionId: number, amountCents: number, provider: string, sessionId: string, url: string): Answer => ({
  transaction_id: transactionId,
  amount: centsToUsd(amountCents),
  payment: { provider: provider as Answer['payment']['provider'], provider_data: { session_id: sessionId, url } },
})

/**
 * Another request holds the claim and is asking the provider: its checkout, once it has an address.
 * A claim that goes away (the provider refused that request's checkout) answers unavailable, as the
 * request that held it did.
 */
async function waitForCheckout(ctx: AppContext, subscriptionId: number): Promise<Answer> {
  for (let step = 0; step < WAIT_STEPS; step++) {
    const claim = await checkoutClaim(ctx.db, subscriptionId)
    if (!claim?.checkout_transaction_id) break
    if (claim.checkout_url) {
      const c = await currentCheckout(ctx.db, claim.checkout_transaction_id)
      if (c?.provider && c.provider_session_id) {
        return answerOf(c.transaction_id, c.amount_cents, c.provider, c.provider_session_id, claim.checkout_url)
      }
    }
    await sleep(WAIT_STEP_MS)
  }
  return fail('external_payments_unavailable')
}
