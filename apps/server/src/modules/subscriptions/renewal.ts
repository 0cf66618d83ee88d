import {
  centsToUsd,
  CUSTOM_FACE_PRODUCT,
  DAY_SECONDS,
  DEFAULT_OPTIONS,
  EXPIRY_WARNING_DAYS,
  TRANSACTION_STATUS,
  TRANSACTION_TYPE,
  autofillAmountCents,
  autofillChargeKey,
  authenticationPayBy,
  customFaceTierNote,
  defaultLicenseTitle,
  outagePastLimit,
  outageRetryAt,
  termMonths,
  termPeriod,
  nextRetryAt,
  renewalChargeKey,
  renewalPriceCents,
  renewalTermSeconds,
  type Cents,
  type PaymentProviderName,
} from '@portal/domain'
import type { AppContext } from '../../context.ts'
import type { Queryable } from '../../db/db.ts'
import { AUTHENTICATION_REQUIRED, PaymentRefused, PaymentUnavailable, type SavedPaymentMethod } from '../../platform/payments/port.ts'
import { findClientById, lockClient } from '../account/service.ts'
import { applyPaymentEvent, postLedgerEntry, settleWithReceipt, type Fulfilment } from '../billing/service.ts'
import { listPriceRows } from '../catalogue/service.ts'
import type { PaymentMethodRow } from '../payments/service.ts'
import { closeTransaction, setProviderSession, type TransactionRow } from '../transactions/service.ts'
import { emitWebhookEvent } from '../webhooks/service.ts'
import { expiringSoonMail, renewalAuthenticationMail, renewalFailedMail, renewalStoppedMail } from './mails.ts'
import {
  awaitAuthentication,
  claimExpiryWarning,
  deferAfterOutage,
  endSubscription,
  extendPeriod,
  findChargeByKey,
  insertCharge,
  latestCard,
  linksOfTransaction,
  listDueSubscriptions,
  listExpiringUnwarned,
  lockRenewalLicense,
  lockSubscription,
  paymentMethodById,
  pendingRenewalCharge,
  recordFailedRenewal,
  setDeclineReason,
  setLicensePaymentShown,
  setSubscriptionPayment,
  subscriptionOwner,
  type ChargeRow,
  type RenewalLicense,
  type SubscriptionRow,
} from './queries.ts'

/**
 * The renewal job: at the end of each paid period it charges the subscription the way it
 * was paid, extends the license by its term, and on failure retries 1, 3 and 7 days after the end
 * before it stops the license. Exactly once per period and attempt: every charge carries the key
 * renewal:{subscription}:{period end}:{attempt} under a unique index, and the subscription row is
 * locked (after the client's and the license's, the one lock order) while the job decides.
 */

export const RENEWAL_JOB = 'subscriptions.renew'
export const RENEWAL_EVERY_SECONDS = 5 * 60
export const EXPIRY_WARNING_JOB = 'subscriptions.expiry_warning'
export const EXPIRY_WARNING_EVERY_SECONDS = 60 * 60
/** subscriptions looked at per run; the next run takes the rest */
const BATCH = 500

export type RenewalCtx = Pick<AppContext, 'db' | 'jobs' | 'log' | 'mailer' | 'config' | 'payments' | 'clock' | 'fulfilments'>

/** awaiting: the card asked for the customer's authentication, who was mailed a link to pay on-session */
export type RenewalOutcome = 'renewed' | 'failed' | 'awaiting' | 'stopped' | 'ended' | 'unavailable' | 'skipped'

const addSeconds = (d: Date, s: number) => new Date(d.getTime() + s * 1000)
/** the same second: a charge key keeps a period's end to the second */
const sameSecond = (a: Date, b: Date) => Math.floor(a.getTime() / 1000) === Math.floor(b.getTime() / 1000)
const later = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b)
const licenseName = (l: Pick<RenewalLicense, 'id' | 'product' | 'title'>) => l.title ?? defaultLicenseTitle(l.product, l.id)
/**
 * A renewal's line on its invoice: the license, a custom subscription's database tier and the period
 * it pays for ("for 3 months").
 */
const renewalLine = (l: Pick<RenewalLicense, 'id' | 'product' | 'title' | 'config'>) => {
  const months = termMonths(l)
  const tier = l.product === CUSTOM_FACE_PRODUCT && l.config.license_content ? customFaceTierNote(l.config.license_content) : null
  return `Renewal of ${licenseName(l)}${tier ? ` (${tier})` : ''}${months ? ` for ${termPeriod(months)}` : ''}`
}

/**
 * The period a renewal charge was for, read back from its key: renewal:{id}:{epoch}:{attempt} (the
 * off-session charge), with :on_session:{n} for a checkout the customer pays on-session, or
 * autofill:… for the balance top-up before a balance renewal.
 */
function keyParts(key: string | null): { periodEnd: Date; attempt: number; onSession: boolean } | null {
  const m = key ? /^(?:renewal|autofill):\d+:(\d+):(\d+)(:on_session:\d+)?$/.exec(key) : null
  return m ? { periodEnd: new Date(Number(m[1]) * 1000), attempt: Number(m[2]), onSession: m[3] !== undefined } : null
}

/** When an attempt fell due: the period's end, or its retry day. */
function dueOf(key: string): Date | null {
  const parts = keyParts(key)
  if (!parts) return null
  return parts.attempt === 0 ? parts.periodEnd : (nextRetryAt(parts.periodEnd, parts.attempt) ?? parts.periodEnd)
}

export const savedMethodOf = (m: PaymentMethodRow): SavedPaymentMethod => ({
  provider: m.provider,
  source: m.source,
  token: m.token,
  customerRef: m.customer_ref,
  cardBrand: m.card_brand,
  cardLast4: m.card_last4,
  paypalEmail: m.paypal_email,
})

/** What the paid method looks like on an invoice: "Visa •••• 4242", "PayPal (a@b.c)". */
export const methodLabel = (m: PaymentMethodRow) =>
  m.source === 'paypal' ? `PayPal${m.paypal_email ? ` (${m.paypal_email})` : ''}` : `${m.card_brand ?? 'Card'}${m.card_last4 ? ` •••• ${m.card_last4}` : ''}`

/**
 * A failed renewal of the period ending `periodEnd`, in the caller's transaction: past due with the
 * next retry and a mail with a link to fix it, or after the last retry stopped (license status 1)
 * with a mail saying so. A cancelled subscription just ends.
 */
async function failRenewal(
  ctx: Pick<AppContext, 'mailer' | 'config' | 'log' | 'jobs' | 'clock'>,
  tx: Queryable,
  sub: SubscriptionRow,
  license: RenewalLicense,
  periodEnd: Date,
  amountCents: Cents,
  reason: string | null,
  opts: { last?: boolean } = {},
): Promise<RenewalOutcome> {
  if (sub.cancel_at_period_end) {
    await endSubscription(tx, sub.id)
    return 'ended'
  }
  const attempts = sub.failed_attempts + 1
  // a refusal no retry changes is the last attempt: the customer is told at once, never retried silently
  const next = opts.last || reason?.startsWith(REFUSED_PREFIX) ? null : nextRetryAt(periodEnd, attempts)
  await recordFailedRenewal(tx, { subscriptionId: sub.id, licenseId: license.id, attempts, next })
  const client = await findClientById(tx, sub.client_id)
  if (client) {
    const mail = next
      ? renewalFailedMail(ctx.config.PUBLIC_URL, client.email, license, { amountCents, reason, retryAt: next })
      : renewalStoppedMail(ctx.config.PUBLIC_URL, client.email, license, { amountCents })
    await ctx.mailer.enqueue(tx, mail)
  }
  // the account's webhooks: every failed attempt, and the suspension when it was the last
  const payment = {
    license_id: license.id,
    subscription_id: sub.id,
    amount: centsToUsd(amountCents),
    reason,
    attempts,
    next_attempt_at: next?.toISOString() ?? null,
  }
  await emitWebhookEvent(ctx, tx, sub.client_id, 'payment.failed', payment)
  if (!next) await emitWebhookEvent(ctx, tx, sub.client_id, 'license.suspended', { license_id: license.id, reason: 'renewal failed' })
  ctx.log.info({ subscription: sub.id, license: license.id, attempts, next }, next ? 'renewal failed; will retry' : 'renewal failed for good; license stopped')
  return next ? 'failed' : 'stopped'
}

/**
 * The card asked for the customer's authentication (SCA) on the renewal of the period ending
 * `periodEnd`, in the caller's transaction: no off-session retry can pass, so none is made; the
 * subscription awaits the customer's on-session payment until the end of the retry window, the
 * license stays active until then, and the customer gets one mail with the link to pay. A window
 * already over (the last retry day's charge asked for it) is the last failed attempt.
 */
async function awaitCustomer(
  ctx: Pick<AppContext, 'mailer' | 'config' | 'log' | 'jobs' | 'clock'>,
  tx: Queryable,
  sub: SubscriptionRow,
  license: RenewalLicense,
  periodEnd: Date,
  amountCents: Cents,
): Promise<RenewalOutcome> {
  const payBy = authenticationPayBy(periodEnd)
  if (sub.cancel_at_period_end || payBy <= ctx.clock.now())
    return failRenewal(ctx, tx, sub, license, periodEnd, amountCents, AUTHENTICATION_REQUIRED, { last: true })
  await awaitAuthentication(tx, { subscriptionId: sub.id, licenseId: license.id, periodEnd, payBy })
  const client = await findClientById(tx, sub.client_id)
  if (client) {
    const term = renewalTermSeconds(license)
    const period = { from: periodEnd, to: term === null ? null : addSeconds(periodEnd, term) }
    await ctx.mailer.enqueue(tx, renewalAuthenticationMail(ctx.config.PUBLIC_URL, client.email, license, { amountCents, period, payBy }))
  }
  ctx.log.info(
    { subscription: sub.id, license: license.id, pay_by: payBy },
    'renewal needs the customer to authenticate the card; mailed the link to pay on-session',
  )
  return 'awaiting'
}

/** A charge to make outside any database transaction (a provider call may take seconds). */
interface ProviderCharge {
  transactionId: number
  key: string
  amountCents: Cents
  method: PaymentMethodRow
  description: string
  email: string
}

type Plan = { done: RenewalOutcome } | { charge: ProviderCharge; autofill: boolean }
/** what a provider charge came to: `authentication` is a decline because the card asked for the customer's authentication */
type Charged = 'paid' | 'declined' | 'authentication' | 'unavailable' | 'settled'

/**
 * Charges a saved method for a pending transaction and applies the answer as a webhook would
 * (applyPaymentEvent: the 'renewal' or 'top_up' fulfilment). The provider de-duplicates by the
 * key, so a second process charging the same pending transaction gets the same answer, applied once.
 * A provider that cannot be reached is not a failed attempt: the transaction stays pending and the
 * next run asks again with the same key.
 */
async function chargeSaved(ctx: RenewalCtx, c: ProviderCharge): Promise<Charged> {
  const provider = ctx.payments.byName(c.method.provider)
  if (!provider) {
    ctx.log.warn({ transaction: c.transactionId, provider: c.method.provider }, 'no adapter for a saved payment method; renewal left for later')
    return 'unavailable'
  }
  let result
  try {
    result = await provider.charge({
      transactionId: c.transactionId,
      idempotencyKey: c.key,
      method: savedMethodOf(c.method),
      amountCents: c.amountCents,
      description: c.description,
      customerEmail: c.email,
    })
  } catch (err) {
    if (err instanceof PaymentRefused) {
      // refused for good: no retry changes it; the attempt fails with its reason, the customer is told what to do
      ctx.log.error(
        { transaction: c.transactionId, provider: provider.name, reason: err.reason, detail: err.message },
        'payment provider refused a renewal charge for good; the renewal stops and the customer is mailed',
      )
      return failCharge(ctx, c, provider.name, `${REFUSED_PREFIX}${err.reason}`)
    }
    if (err instanceof PaymentUnavailable) {
      // the age of the attempt in business time: since it fell due (the period's end, or its retry day)
      const due = dueOf(c.key)
      if (due && outagePastLimit(due, ctx.clock.now())) {
        ctx.log.error({ transaction: c.transactionId, provider: provider.name }, 'payment provider unavailable past the age limit; the attempt fails')
        return failCharge(ctx, c, provider.name, 'provider_unavailable')
      }
      ctx.log.warn({ err, transaction: c.transactionId }, 'payment provider unavailable; charge left for the next run')
      return 'unavailable'
    }
    throw err
  }
  await ctx.db.transaction(async (tx) => {
    await setProviderSession(tx, c.transactionId, result.event.provider, result.event.sessionId)
    // the failed-payment mail tells the provider's reason; the renewal's closed fulfilment reads
    // authentication_required to send the customer to pay on-session instead of retrying
    const reason = result.authenticationRequired ? AUTHENTICATION_REQUIRED : result.declineReason
    if (reason) await setDeclineReason(tx, c.transactionId, reason)
  })
  const applied = await applyPaymentEvent(ctx, result.event)
  if (applied.status === 'pending') return 'unavailable'
  // the same answer applied by another process (same key, same charge): nothing more happened here
  if (!applied.applied) return 'settled'
  if (applied.status === 'ok') return 'paid'
  return result.authenticationRequired ? 'authentication' : 'declined'
}

/** a refusal that no retry changes: its attempt is the last (the reason on the transaction starts so) */
const REFUSED_PREFIX = 'refused: '

/**
 * The provider was unavailable for a due charge (connection error, 5xx, 429, lock timeout): the
 * subscription is asked again after its back-off (5 minutes, doubling, at most 6 hours apart), not at
 * every run of the job, until the attempt reaches the outage age limit and fails.
 */
async function deferOutage(ctx: RenewalCtx, subscriptionId: number, key: string, now: Date) {
  const due = dueOf(key) ?? now
  await ctx.db.transaction(async (tx) => {
    const sub = await lockSubscription(tx, subscriptionId)
    if (sub) await deferAfterOutage(tx, sub.id, outageRetryAt(now, sub.outage_retries, due))
  })
}

/** The balance renewal's failure when its autofill top-up asked for the customer's authentication: it says so. */
const AUTOFILL_NEEDS_AUTHENTICATION =
  'the balance is not enough, and the top-up from your saved card needs your authentication (3-D Secure): add funds to the balance on the portal'

/**
 * A charge that did not happen and will not by retrying it now: its transaction is declined with
 * the reason, through the payment event log like any decline, so the renewal's `closed` fulfilment
 * records the failed attempt and mails the customer, once.
 */
async function failCharge(ctx: RenewalCtx, c: ProviderCharge, provider: PaymentProviderName, reason: string): Promise<'declined' | 'settled'> {
  const sessionId = `failed:${c.key}`
  await ctx.db.transaction(async (tx) => {
    await setProviderSession(tx, c.transactionId, provider, sessionId)
    await setDeclineReason(tx, c.transactionId, reason)
  })
  const applied = await applyPaymentEvent(ctx, { provider, eventId: sessionId, sessionId, outcome: 'declined', amountCents: c.amountCents })
  return applied.applied ? 'declined' : 'settled'
}

/**
 * Decides, under the locks, what one due subscription needs: nothing (not due any more, renewed by
 * another run), an end (cancelled, paused, revoked, no price), a balance renewal done right here, or
 * a provider charge whose pending transaction is committed first.
 */
async function plan(ctx: RenewalCtx, subscriptionId: number, now: Date, allowAutofill: boolean, shortReason: string | null): Promise<Plan> {
  const ids = await subscriptionOwner(ctx.db, subscriptionId)
  if (!ids) return { done: 'skipped' }
  const { client_id: clientId, license_id: licenseId } = ids
  return ctx.db.transaction(async (tx): Promise<Plan> => {
    await lockClient(tx, clientId)
    const license = await lockRenewalLicense(tx, licenseId)
    const sub = await lockSubscription(tx, subscriptionId)
    if (!license || !sub) return { done: 'skipped' }
    if (!sub.next_attempt_at || sub.next_attempt_at > now) return { done: 'skipped' }
    if (sub.state === 'awaiting_authentication') return { done: await closeWindow(ctx, tx, sub, license) }
    if (sub.state !== 'active' && sub.state !== 'past_due') return { done: 'skipped' }
    const client = (await findClientById(tx, clientId))!
    // a charge that was decided before (its pending transaction committed, then the provider was away
    // or the process died): finish it with the same key, whatever happened since (a cancel then
    // applies at the end of the period it pays for)
    const pending = await pendingRenewalCharge(tx, sub.id)
    if (pending && sub.payment_method_id !== null) {
      const method = await paymentMethodById(tx, sub.payment_method_id)
      if (method) {
        const charge = { transactionId: pending.id, key: pending.charge_key, amountCents: pending.amount_cents, method, description: '', email: client.email }
        return { charge: { ...charge, description: renewalLine(license) }, autofill: false }
      }
    }
    if (license.revoked || sub.cancel_at_period_end || license.config.paused || !license.expire_date) {
      await endSubscription(tx, sub.id)
      return { done: 'ended' }
    }
    const periodEnd = license.expire_date
    const price = renewalPriceCents(license, await listPriceRows(tx))
    const term = renewalTermSeconds(license)
    if (price === null || term === null) {
      ctx.log.warn({ subscription: sub.id, license: license.id, product: license.product }, 'no price for the renewal; the subscription ends')
      await endSubscription(tx, sub.id)
      return { done: 'ended' }
    }
    const key = renewalChargeKey(sub.id, periodEnd, sub.failed_attempts)
    // written by another run of this attempt and settled in its transaction: nothing left to do
    if (await findChargeByKey(tx, key)) return { done: 'skipped' }
    const description = renewalLine(license)
    // the period this renewal pays for, printed on its invoice
    const period = { from: periodEnd.toISOString(), to: new Date(periodEnd.getTime() + term * 1000).toISOString() }
    const lines = [{ description, quantity: 1, amount_cents: price, period }]
    const base = { clientId, subscriptionId: sub.id, licenseId: license.id }

    if (sub.payment_source !== 'balance') {
      const method = sub.payment_method_id === null ? null : await paymentMethodById(tx, sub.payment_method_id)
      const id = await insertCharge(tx, {
        ...base,
        type: TRANSACTION_TYPE.debit,
        kind: 'renewal',
        amountCents: price,
        description,
        lines,
        paymentSource: sub.payment_source,
        paymentMethod: method ? methodLabel(method) : null,
        chargeKey: key,
      })
      if (id === null) return { done: 'skipped' }
      if (!method) {
        // nothing to charge (the method was removed): a failed attempt like a decline
        await closeTransaction(tx, id, TRANSACTION_STATUS.declined)
        return { done: await failRenewal(ctx, tx, sub, license, periodEnd, price, 'no saved payment method') }
      }
      return { charge: { transactionId: id, key, amountCents: price, method, description, email: client.email }, autofill: false }
    }

    // balance_autofill: a short balance is first topped up from the latest saved card
    const options = { ...DEFAULT_OPTIONS, ...client.options }
    const balance = Number(client.balance_cents)
    if (balance < price && options.balance_autofill && allowAutofill) {
      const card = await latestCard(tx, clientId)
      const akey = autofillChargeKey(sub.id, periodEnd, sub.failed_attempts)
      const existing = await findChargeByKey(tx, akey)
      if (card && (!existing || existing.status === TRANSACTION_STATUS.pending)) {
        const amount = existing?.amount_cents ?? autofillAmountCents(price - balance)
        const topUp = `Balance top-up for the renewal of ${licenseName(license)}`
        const id =
          existing?.id ??
          (await insertCharge(tx, {
            ...base,
            type: TRANSACTION_TYPE.credit,
            kind: 'top_up',
            amountCents: amount,
            description: topUp,
            lines: [{ description: topUp, quantity: 1, amount_cents: amount }],
            paymentSource: 'stripe',
            paymentMethod: methodLabel(card),
            chargeKey: akey,
          }))
        if (id !== null)
          return { charge: { transactionId: id, key: akey, amountCents: amount, method: card, description: topUp, email: client.email }, autofill: true }
      }
    }
    const id = await insertCharge(tx, {
      ...base,
      type: TRANSACTION_TYPE.debit,
      kind: 'renewal',
      amountCents: price,
      description,
      lines,
      paymentSource: 'balance',
      paymentMethod: 'Balance',
      chargeKey: key,
    })
    if (id === null) return { done: 'skipped' }
    if ((await postLedgerEntry(tx, clientId, id, -price)) === null) {
      await closeTransaction(tx, id, TRANSACTION_STATUS.declined)
      return { done: await failRenewal(ctx, tx, sub, license, periodEnd, price, shortReason ?? 'the balance is not enough') }
    }
    await extendPeriod(tx, { subscriptionId: sub.id, licenseId: license.id, end: addSeconds(periodEnd, term), keepCancel: true })
    await settleWithReceipt(ctx, tx, id, { paymentMethod: 'Balance', now })
    return { done: 'renewed' }
  })
}

/**
 * The pay-by date of a renewal awaiting the customer's authentication has passed unpaid: the last
 * attempt failed, the license stops (status 1) and the customer gets the usual mail, once (the
 * subscription leaves the awaiting state under its lock).
 */
async function closeWindow(ctx: RenewalCtx, tx: Queryable, sub: SubscriptionRow, license: RenewalLicense): Promise<RenewalOutcome> {
  const periodEnd = sub.awaiting_period_end ?? license.expire_date ?? ctx.clock.now()
  const declined: ChargeRow | null = await findChargeByKey(tx, renewalChargeKey(sub.id, periodEnd, sub.failed_attempts))
  const amount = declined?.amount_cents ?? renewalPriceCents(license, await listPriceRows(tx)) ?? 0
  ctx.log.info({ subscription: sub.id, license: license.id }, 'renewal awaiting authentication was not paid by its date; it fails')
  return failRenewal(ctx, tx, sub, license, periodEnd, amount, AUTHENTICATION_REQUIRED, { last: true })
}

/** Renews one due subscription (or ends it, or records its failure); safe to run any number of times, anywhere. */
export async function renewSubscription(ctx: RenewalCtx, subscriptionId: number, now = ctx.clock.now()): Promise<RenewalOutcome> {
  let allowAutofill = true
  let shortReason: string | null = null
  // at most: a top-up, then the balance renewal it paid for
  for (let round = 0; round < 3; round++) {
    const p = await plan(ctx, subscriptionId, now, allowAutofill, shortReason)
    if ('done' in p) return p.done
    const charged = await chargeSaved(ctx, p.charge)
    if (charged === 'unavailable') {
      await deferOutage(ctx, subscriptionId, p.charge.key, now)
      return 'unavailable'
    }
    if (!p.autofill) {
      if (charged === 'settled') return 'skipped'
      if (charged === 'paid') return 'renewed'
      const sub = await subscriptionOwner(ctx.db, subscriptionId)
      if (sub?.state === 'awaiting_authentication') return 'awaiting'
      return sub?.state === 'stopped' ? 'stopped' : sub?.state === 'ended' ? 'ended' : 'failed'
    }
    // topped up: the balance pays now; declined: the balance renewal fails as it stands, saying why
    allowAutofill = false
    if (charged === 'authentication') shortReason = AUTOFILL_NEEDS_AUTHENTICATION
  }
  return 'skipped'
}

/** One run of the job: every subscription due at `now` (only the license's with `licenseId`). Answers how each went. */
export async function runRenewals(
  ctx: RenewalCtx,
  now = ctx.clock.now(),
  { licenseId = null }: { licenseId?: number | null } = {},
): Promise<Partial<Record<RenewalOutcome | 'error', number>>> {
  const counts: Partial<Record<RenewalOutcome | 'error', number>> = {}
  // the longest-due first, taken in a shuffled order: two runs at once (a run that outlived its
  // lease, a second process) share the work instead of queueing on the same locks
  const due = await listDueSubscriptions(ctx.db, now, BATCH, licenseId)
  for (let i = due.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[due[i], due[j]] = [due[j]!, due[i]!]
  }
  for (const id of due) {
    let outcome: RenewalOutcome | 'error'
    try {
      outcome = await renewSubscription(ctx, id, now)
    } catch (err) {
      // one subscription's fault does not hold up the others; it is due again at the next run
      ctx.log.error({ err, subscription: id }, 'renewal failed with an error')
      outcome = 'error'
    }
    counts[outcome] = (counts[outcome] ?? 0) + 1
  }
  if (Object.keys(counts).some((k) => k !== 'skipped')) ctx.log.info({ renewals: counts }, 'renewal run')
  return counts
}

/** The expiring-soon mail, once per period, EXPIRY_WARNING_DAYS before a license that will not renew ends. */
export async function sendExpiryWarnings(ctx: Pick<AppContext, 'db' | 'mailer' | 'config' | 'log' | 'jobs' | 'clock'>, now: Date): Promise<number> {
  const until = addSeconds(now, EXPIRY_WARNING_DAYS * DAY_SECONDS)
  let sent = 0
  for (const l of await listExpiringUnwarned(ctx.db, now, until, BATCH)) {
    const claimed = await ctx.db.transaction(async (tx) => {
      if (!(await claimExpiryWarning(tx, l.id, l.expire_date))) return false
      await ctx.mailer.enqueue(tx, expiringSoonMail(ctx.config.PUBLIC_URL, l.email, l))
      await emitWebhookEvent(ctx, tx, l.client_id, 'license.expiring', { license_id: l.id, expire_date: l.expire_date.toISOString() })
      return true
    })
    if (claimed) sent++
  }
  if (sent > 0) ctx.log.info({ sent }, 'expiring-soon mails')
  return sent
}

/** The subscription a renewal or reactivation transaction pays for, locked in the one order (client, license, subscription). */
const locked = async (tx: Queryable, t: TransactionRow) => {
  const links = await linksOfTransaction(tx, t.id)
  if (!links?.subscription_id) return null
  const ids = await subscriptionOwner(tx, links.subscription_id)
  if (!ids) return null
  await lockClient(tx, t.client_id)
  const license = await lockRenewalLicense(tx, ids.license_id)
  const sub = await lockSubscription(tx, links.subscription_id)
  return license && sub ? { license, sub, key: links.charge_key } : null
}

/**
 * What a paid renewal or reactivation does, inside the transaction billing settles it in. A renewal
 * extends from the end of the period it paid for (keeping a cancellation made while it was being
 * charged: it ends at the new period's end); a reactivation from the later of now and the old end,
 * and the method it was paid with is the subscription's from now on.
 */
export const subscriptionFulfilments: Record<string, Fulfilment> = {
  renewal: {
    async paid(ctx, tx, t, paidWith) {
      const got = await locked(tx, t)
      if (!got) return
      const parts = keyParts(got.key)
      const periodEnd = parts?.periodEnd ?? got.license.expire_date ?? ctx.clock.now()
      // the on-session payment of the renewal awaiting authentication: the period it pays for starts
      // at its end, not at the pay-by date the license ran to meanwhile
      const awaited = got.sub.awaiting_period_end
      const from =
        parts?.onSession && got.sub.state === 'awaiting_authentication' && awaited && sameSecond(awaited, periodEnd)
          ? awaited
          : got.license.expire_date
            ? later(got.license.expire_date, periodEnd)
            : periodEnd
      const term = renewalTermSeconds(got.license)
      if (term === null) return
      await extendPeriod(tx, { subscriptionId: got.sub.id, licenseId: got.license.id, end: addSeconds(from, term), keepCancel: true })
      if (parts?.onSession && paidWith.methodId !== null) {
        // the card just authenticated on-session is the one the next renewals charge
        await setSubscriptionPayment(tx, got.sub.id, t.payment_source === 'paypal' ? 'paypal' : 'stripe', paidWith.methodId)
        await setLicensePaymentShown(tx, got.license.id, await paymentMethodById(tx, paidWith.methodId))
      }
    },
    async closed(ctx, tx, t) {
      const got = await locked(tx, t)
      const parts = keyParts(got?.key ?? null)
      if (!got || !parts) return
      // an on-session checkout left unpaid (cancelled, declined, expired): the customer may open another until the pay-by date
      if (parts.onSession) return
      // only the failure of the attempt the subscription is at counts (a stale answer changes nothing)
      if ((got.sub.state !== 'active' && got.sub.state !== 'past_due') || got.sub.failed_attempts !== parts.attempt) return
      if (t.reason === AUTHENTICATION_REQUIRED) {
        // the period's end as the license has it (the key keeps it to the second)
        const end = got.license.expire_date && sameSecond(got.license.expire_date, parts.periodEnd) ? got.license.expire_date : parts.periodEnd
        await awaitCustomer(ctx, tx, got.sub, got.license, end, t.amount_cents)
        return
      }
      await failRenewal(ctx, tx, got.sub, got.license, parts.periodEnd, t.amount_cents, t.reason)
    },
  },
  reactivation: {
    async paid(ctx, tx, t, paidWith) {
      const got = await locked(tx, t)
      if (!got) return
      const term = renewalTermSeconds(got.license)
      if (term === null) return
      const now = ctx.clock.now()
      const from = got.license.expire_date ? later(got.license.expire_date, now) : now
      await extendPeriod(tx, { subscriptionId: got.sub.id, licenseId: got.license.id, end: addSeconds(from, term), keepCancel: false })
      const methodId = paidWith.methodId ?? got.sub.payment_method_id
      const source = t.payment_source === 'paypal' ? 'paypal' : 'stripe'
      await setSubscriptionPayment(tx, got.sub.id, source, methodId)
      await setLicensePaymentShown(tx, got.license.id, methodId === null ? null : await paymentMethodById(tx, methodId))
    },
  },
}

/** Registers the renewal and expiring-soon jobs on the queue. */
export function scheduleRenewals(ctx: RenewalCtx) {
  ctx.jobs.register(RENEWAL_JOB, async () => void (await runRenewals(ctx)), { leaseSeconds: 15 * 60 })
  ctx.jobs.schedule(RENEWAL_JOB, RENEWAL_EVERY_SECONDS)
  ctx.jobs.register(EXPIRY_WARNING_JOB, async () => void (await sendExpiryWarnings(ctx, ctx.clock.now())))
  ctx.jobs.schedule(EXPIRY_WARNING_JOB, EXPIRY_WARNING_EVERY_SECONDS)
}
