import Stripe from 'stripe'
import type { Config } from '../config.ts'
import { prefixedKey } from './idempotency.ts'
import {
  AUTHENTICATION_REQUIRED,
  PaymentUnavailable,
  WebhookSignatureError,
  type ChargeRequest,
  type ChargeResult,
  type CheckoutRequest,
  type CheckoutSession,
  type PaymentEvent,
  type PaymentProvider,
  type ProviderNotice,
  type SavedPaymentMethod,
  type RefundRequest,
  type WebhookRequest,
  PaymentRefused,
} from './port.ts'

/**
 * The card source through Stripe Checkout (the official `stripe` package). A checkout is a Checkout
 * Session carrying our transaction id (client_reference_id and metadata); Stripe reports the outcome
 * by webhook (`/api/payments/webhook/stripe/`), verified with STRIPE_WEBHOOK_SECRET, and the event's
 * id makes applying it idempotent.
 *
 * A subscription checkout is a one-off payment that also saves the card: Checkout in `payment` mode
 * with a Customer created and `setup_future_usage: off_session`; its completed webhook makes the
 * adapter read the PaymentIntent's card (brand, last 4, pm_… and cus_…) into the event's savedMethod.
 * The portal charges that card later itself (`charge`: an off-session PaymentIntent); no Stripe
 * Subscription or Price exists.
 *
 * `lookup` reads a Checkout Session or an off-session PaymentIntent back for the reconcile job, and
 * `readWebhook` also reads Stripe's refund and dispute events (charge.refunded, charge.dispute.*),
 * which name the PaymentIntent (docs/adr/stripe-refunds-and-disputes.md).
 */

export type StripeConfig = Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_BASE'>

export interface StripeOptions {
  /** the Stripe client's own retries of a failed call (with an idempotency key); default 1 */
  maxNetworkRetries?: number
  /** per call, in ms: the customer waits on it; default 20 s */
  timeoutMs?: number
  /** the installation's prefix of every idempotency key (platform/payments/idempotency.ts) */
  keyPrefix: () => Promise<string>
}

/** metadata marking a Checkout Session whose card is saved (its webhook fetches the card) */
const MODE_KEY = 'portal_mode'

/** Stripe refuses an expires_at outside 30 minutes to 24 hours from the session's creation. */
const MIN_EXPIRY_S = 31 * 60
const MAX_EXPIRY_S = 24 * 3600 - 5 * 60

/** The Checkout Session events the portal acts on; every other type is acknowledged and ignored. */
const HANDLED = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
])

/** The charge events the portal acts on: money Stripe gave back or took back of a payment. */
const HANDLED_CHARGE = new Set(['charge.refunded', 'charge.dispute.created', 'charge.dispute.closed'])

/** host, port and protocol of STRIPE_API_BASE (a local fake in the tests); Stripe's own when unset */
function apiAddress(base: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!base) return {}
  const url = new URL(base)
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol }
}

/**
 * Stripe fills `{CHECKOUT_SESSION_ID}` in on the way back, so the return page can name the session.
 * The placeholder must stay unencoded, so it is appended as text (before any #fragment).
 */
export function withSessionIdParam(url: string): string {
  const hash = url.indexOf('#')
  const [head, fragment] = hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)]
  const sep = head.includes('?') ? (head.endsWith('?') || head.endsWith('&') ? '' : '&') : '?'
  return `${head}${sep}session_id={CHECKOUT_SESSION_ID}${fragment}`
}

/**
 * Checkout lines as Stripe line items in USD cents. A line's amount is its total: when it does not
 * divide by the quantity into whole cents, the line goes as one item named with its quantity, so
 * the session's total is always the transaction's.
 */
function lineItems(req: CheckoutRequest): Stripe.Checkout.SessionCreateParams.LineItem[] {
  return req.lines.map((line) => {
    const even = line.quantity > 0 && line.amount_cents % line.quantity === 0
    const quantity = even ? line.quantity : 1
    const name = even || line.quantity === 1 ? line.description : `${line.quantity} × ${line.description}`
    return {
      quantity,
      price_data: {
        currency: 'usd',
        unit_amount: line.amount_cents / quantity,
        product_data: { name: name.slice(0, 250) },
      },
    }
  })
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  diners: 'Diners Club',
}

/** Stripe's card brand code as people write it: visa → Visa, amex → American Express */
export function cardBrandName(brand: string | null | undefined): string {
  if (!brand || brand === 'unknown') return 'Card'
  return BRANDS[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1)
}

const cardText = (brand: string | null | undefined, last4: string | null | undefined) => (last4 ? `${brand ?? 'Card'} •••• ${last4}` : 'Card')

/** "Visa •••• 4242" when the event carries the card (an expanded payment intent), else "Card". */
function cardLabel(session: Stripe.Checkout.Session): string {
  const intent = session.payment_intent
  if (intent && typeof intent === 'object') {
    const charge = intent.latest_charge
    const card = charge && typeof charge === 'object' ? charge.payment_method_details?.card : undefined
    if (card?.last4) return cardText(cardBrandName(card.brand), card.last4)
  }
  return 'Card'
}

const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : (v?.id ?? null))

/** the card a PaymentIntent (its payment_method expanded) was paid with, as the portal keeps it */
function savedCardOf(intent: Stripe.PaymentIntent): SavedPaymentMethod | null {
  const pm = intent.payment_method
  if (!pm) return null
  const card = typeof pm === 'object' ? pm.card : null
  return {
    provider: 'stripe',
    source: 'stripe',
    token: idOf(pm)!,
    customerRef: idOf(intent.customer) ?? (typeof pm === 'object' ? idOf(pm.customer) : null),
    cardBrand: card ? cardBrandName(card.brand) : null,
    cardLast4: card?.last4 ?? null,
  }
}

/** a paid event of a subscription-mode session: its PaymentIntent is fetched for the saved card */
const savesCard = (event: Stripe.Event, payment: PaymentEvent | null): boolean =>
  payment?.outcome === 'paid' && (event.data?.object as Stripe.Checkout.Session).metadata?.[MODE_KEY] === 'subscription'

/**
 * A paid event always carries the amount, as the payments service credits only what matches the
 * transaction; an amount the event lacks is -1, which matches nothing and so is never credited.
 */
function paid(base: Pick<PaymentEvent, 'provider' | 'eventId' | 'sessionId'>, session: Stripe.Checkout.Session): PaymentEvent {
  const amount = Number.isSafeInteger(session.amount_total) ? (session.amount_total as number) : -1
  const event: PaymentEvent = { ...base, outcome: 'paid', amountCents: amount, paymentMethod: cardLabel(session) }
  // kept on the transaction: Stripe's refund and dispute events name the PaymentIntent, not the session
  const intent = idOf(session.payment_intent)
  if (intent) event.paymentRef = intent
  return event
}

/**
 * A Checkout Session as Stripe has it now (read back, its PaymentIntent expanded): paid, declined
 * (an asynchronous method failed), expired, or null while the customer is still at it (an open
 * session, 3-D Secure included) or an asynchronous payment is processing. Its event ids are the
 * session's own: the webhook's event for the same outcome has another id, and whichever comes
 * first settles the transaction, the other finds it settled.
 */
export function stripeSessionOutcome(session: Stripe.Checkout.Session): PaymentEvent | null {
  const base = { provider: 'stripe' as const, sessionId: session.id }
  if (session.status === 'expired') return { ...base, eventId: `${session.id}.expired`, outcome: 'expired' }
  if (session.status !== 'complete') return null
  if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') return paid({ ...base, eventId: `${session.id}.paid` }, session)
  // complete and unpaid: an asynchronous method, settled when its PaymentIntent is
  const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null
  if (intent?.status === 'requires_payment_method' || intent?.status === 'canceled') return { ...base, eventId: `${session.id}.declined`, outcome: 'declined' }
  return null
}

/**
 * An off-session PaymentIntent as Stripe has it now: paid when it succeeded, declined when its
 * attempt failed or it was canceled, null while it is processing or waits for the customer
 * (requires_action). The event ids are the ones `charge` answers, so the charge's answer, a retry
 * and the reconcile apply once.
 */
export function stripeIntentOutcome(intent: Stripe.PaymentIntent): PaymentEvent | null {
  const pm = typeof intent.payment_method === 'object' ? intent.payment_method : null
  const base = {
    provider: 'stripe' as const,
    sessionId: intent.id,
    paymentMethod: pm?.card ? cardText(cardBrandName(pm.card.brand), pm.card.last4) : 'Card',
  }
  if (intent.status === 'succeeded') {
    const amount = Number.isSafeInteger(intent.amount_received) && intent.amount_received > 0 ? intent.amount_received : intent.amount
    return { ...base, eventId: `${intent.id}.paid`, outcome: 'paid', amountCents: amount }
  }
  const failed = intent.status === 'canceled' || (intent.status === 'requires_payment_method' && intent.last_payment_error)
  return failed ? { ...base, eventId: `${intent.id}.declined`, outcome: 'declined', amountCents: intent.amount } : null
}

/** Stripe's disputes that moved no money: an inquiry (a retrieval request) before any chargeback. */
const isInquiry = (status: string) => status.startsWith('warning_')

/**
 * A verified dispute event as the portal's notice, by its PaymentIntent: a chargeback opened
 * (Stripe took the money back at once) or lost is one key, so it reverses once whichever comes; a
 * dispute won restores. An inquiry moved no money, and a dispute closed otherwise (warning_closed,
 * prevented) changes nothing: null.
 */
export function stripeDisputeNotice(event: Stripe.Event): ProviderNotice | null {
  const dispute = event.data?.object as Stripe.Dispute | undefined
  const intent = idOf(dispute?.payment_intent)
  if (typeof dispute?.id !== 'string' || !intent || typeof dispute.status !== 'string') return null
  const base = { provider: 'stripe' as const, paymentRef: intent, providerRef: dispute.id }
  const amount = dispute.currency === 'usd' && Number.isSafeInteger(dispute.amount) && dispute.amount > 0 ? { amountCents: dispute.amount } : {}
  const takenBack = { ...base, ...amount, kind: 'disputed' as const, eventId: `dispute:${dispute.id}` }
  if (event.type === 'charge.dispute.created') return isInquiry(dispute.status) ? null : takenBack
  if (event.type !== 'charge.dispute.closed') return null
  if (dispute.status === 'won') return { ...base, kind: 'dispute_won', eventId: `dispute-won:${dispute.id}`, reversalKey: takenBack.eventId }
  return dispute.status === 'lost' ? takenBack : null
}

/** A verified Stripe event as the portal's payment event; null for what the portal does not act on. */
export function stripeEventToPayment(event: Stripe.Event): PaymentEvent | null {
  if (typeof event !== 'object' || event === null || typeof event.id !== 'string' || !HANDLED.has(event.type)) return null
  const session = event.data?.object as Stripe.Checkout.Session | undefined
  // signed, so Stripe's; a shape this version does not know is still not worth a 500 and a redelivery
  if (typeof session?.id !== 'string' || !session.id) return null
  const base = { provider: 'stripe' as const, eventId: event.id, sessionId: session.id }
  switch (event.type) {
    case 'checkout.session.completed':
      // an asynchronous method (a bank debit) completes unpaid: its async_payment_* event settles it
      if (session.payment_status !== 'paid') return null
      return paid(base, session)
    case 'checkout.session.async_payment_succeeded':
      return paid(base, session)
    case 'checkout.session.async_payment_failed':
      return { ...base, outcome: 'declined' }
    case 'checkout.session.expired':
      return { ...base, outcome: 'expired' }
    default:
      return null
  }
}

/** A Stripe error that a retry cannot change: a 4xx other than 429 (rate limit) and 409 lock_timeout, with an answer at all. */
function isFinalRefusal(err: InstanceType<typeof Stripe.errors.StripeError>): boolean {
  const status = err.statusCode ?? 0
  if (status < 400 || status >= 500 || status === 429) return false
  if (err.code === 'lock_timeout' || err.code === 'rate_limit' || err.code === 'idempotency_key_in_use') return false
  return true
}

export function createStripeProvider(config: StripeConfig, options: StripeOptions): PaymentProvider {
  if (!config.STRIPE_SECRET_KEY) throw new Error('STRIPE_SECRET_KEY is not set')
  const stripe = new Stripe(config.STRIPE_SECRET_KEY, {
    ...apiAddress(config.STRIPE_API_BASE),
    maxNetworkRetries: options.maxNetworkRetries ?? 1,
    timeout: options.timeoutMs ?? 20_000,
    telemetry: false,
    appInfo: { name: '3DiVi license portal' },
  })

  /** the card of a paid subscription-mode session: its PaymentIntent with the payment method expanded */
  async function withSavedCard(event: Stripe.Event, payment: PaymentEvent): Promise<PaymentEvent> {
    const session = event.data.object as Stripe.Checkout.Session
    const intentId = idOf(session.payment_intent)
    if (!intentId) throw new PaymentUnavailable(`Stripe session ${session.id} completed without a payment intent`)
    let intent: Stripe.PaymentIntent
    try {
      intent = await stripe.paymentIntents.retrieve(intentId, { expand: ['payment_method'] })
    } catch (err) {
      // the webhook answers 503 and Stripe delivers it again
      throw new PaymentUnavailable(`Stripe did not answer the payment intent ${intentId}: ${(err as Error).message}`, { cause: err })
    }
    return withCardOf(session, intent, payment)
  }

  /** a paid subscription-mode session's event with the card its PaymentIntent (payment method expanded) saved */
  function withCardOf(session: Stripe.Checkout.Session, intent: Stripe.PaymentIntent, payment: PaymentEvent): PaymentEvent {
    const saved = savedCardOf(intent)
    if (!saved) return { ...payment, savedMethodMissing: true }
    if (!saved.customerRef) saved.customerRef = idOf(session.customer)
    return { ...payment, paymentMethod: cardText(saved.cardBrand, saved.cardLast4), savedMethod: saved }
  }

  /** a webhook's event, its signature verified with STRIPE_WEBHOOK_SECRET */
  function verified({ rawBody, headers }: WebhookRequest): Stripe.Event {
    if (!config.STRIPE_WEBHOOK_SECRET) throw new PaymentUnavailable('STRIPE_WEBHOOK_SECRET is not set: Stripe webhooks cannot be verified')
    const signature = headers['stripe-signature']
    if (typeof signature !== 'string' || !signature) throw new WebhookSignatureError('no Stripe-Signature header')
    try {
      return stripe.webhooks.constructEvent(rawBody, signature, config.STRIPE_WEBHOOK_SECRET)
    } catch (err) {
      throw new WebhookSignatureError((err as Error).message)
    }
  }

  /**
   * The refunds of a charge (charge.refunded), one notice each, keyed by the refund's id as a staff
   * refund (payments:refund) reverses it, so each reverses once whoever tells first. Stripe's event
   * carries the charge's running total (amount_refunded) but not its refunds: they are listed. A list
   * that does not reach that total yet answers PaymentUnavailable (503), and Stripe delivers again.
   */
  async function refundsOf(charge: Stripe.Charge): Promise<ProviderNotice[] | null> {
    const intent = idOf(charge?.payment_intent)
    if (typeof charge?.id !== 'string' || !intent) return null
    let refunds: Stripe.Refund[]
    try {
      refunds = await stripe.refunds.list({ charge: charge.id, limit: 100 }).autoPagingToArray({ limit: 1000 })
    } catch (err) {
      throw new PaymentUnavailable(`Stripe did not list the refunds of ${charge.id}: ${(err as Error).message}`, { cause: err })
    }
    // a refund that failed or was canceled gave nothing back; one waiting for the customer (requires_action) not yet
    const given = refunds.filter((r) => r.status === 'succeeded' || r.status === 'pending')
    const total = given.reduce((sum, r) => sum + r.amount, 0)
    if (Number.isSafeInteger(charge.amount_refunded) && total < charge.amount_refunded)
      throw new PaymentUnavailable(`Stripe lists ${total} of the ${charge.amount_refunded} refunded of ${charge.id} so far`)
    return given.map((r) => ({
      kind: 'refunded' as const,
      provider: 'stripe' as const,
      eventId: `refund:${r.id}`,
      sessionId: null,
      paymentRef: intent,
      // in the charge's currency, USD: always the refund's own amount, never "the whole rest"
      amountCents: r.amount,
      providerRef: r.id,
    }))
  }

  /** a Stripe error that says the object is not there (another account's, or deleted) */
  const isMissing = (err: unknown) => err instanceof Stripe.errors.StripeError && (err.statusCode === 404 || err.code === 'resource_missing')

  /** the portal's event of an off-session PaymentIntent: paid when it succeeded, declined otherwise */
  function chargeResult(req: ChargeRequest, intent: Pick<Stripe.PaymentIntent, 'id' | 'status' | 'amount' | 'amount_received'>, reason?: string): ChargeResult {
    const paidNow = intent.status === 'succeeded'
    const event: PaymentEvent = {
      provider: 'stripe',
      // one charge, one event: the same key replays the same PaymentIntent and so the same id
      eventId: `${intent.id}.${paidNow ? 'paid' : 'declined'}`,
      sessionId: intent.id,
      outcome: paidNow ? 'paid' : 'declined',
      amountCents: paidNow && Number.isSafeInteger(intent.amount_received) && intent.amount_received > 0 ? intent.amount_received : intent.amount,
      paymentMethod: cardText(req.method.cardBrand, req.method.cardLast4),
    }
    if (paidNow) return { event }
    const declineReason = reason ?? intent.status
    // the card asks for 3-D Secure: the customer must confirm on-session, no off-session retry passes
    return declineReason === AUTHENTICATION_REQUIRED ? { event, declineReason, authenticationRequired: true } : { event, declineReason }
  }

  /**
   * Stripe keeps a 500 for its idempotency key and answers it to every retry of the key, so the key
   * can never charge. Whether the failed call charged anything is read from the customer's
   * PaymentIntents (a list, consistent at once): the transaction's intent answers as the charge
   * would have; none at all marks the key spent, so the caller's next try goes under a fresh one.
   */
  async function afterServerError(req: ChargeRequest, err: Error): Promise<ChargeResult> {
    const failed = (keySpent: boolean) =>
      new PaymentUnavailable(`Stripe answered ${(err as { statusCode?: number }).statusCode ?? 'an error'} to the charge: ${err.message}`, {
        cause: err,
        keySpent,
      })
    if (!req.method.customerRef) throw failed(false)
    let intents: Stripe.PaymentIntent[]
    try {
      intents = (await stripe.paymentIntents.list({ customer: req.method.customerRef, limit: 100 })).data
    } catch {
      throw failed(false)
    }
    const intent = intents.find((i) => i.metadata?.transaction_id === String(req.transactionId))
    if (!intent) throw failed(true)
    if (intent.status === 'succeeded') return chargeResult(req, intent)
    if (intent.status === 'requires_payment_method' || intent.status === 'canceled') {
      const e = intent.last_payment_error
      return chargeResult(req, intent, e?.decline_code || e?.code || 'card_declined')
    }
    // the card asks the customer to authenticate: no retry off-session changes that, it is Stripe's
    // authentication_required decline (the customer confirms the payment), not an outage
    if (intent.status === 'requires_action') return chargeResult(req, intent, 'authentication_required')
    // processing: not settled yet, the retry reads this PaymentIntent
    throw new PaymentUnavailable(`Stripe PaymentIntent ${intent.id} is ${intent.status}`, { cause: err, providerRef: intent.id })
  }

  return {
    name: 'stripe',

    /**
     * Stripe Refunds on the payment's PaymentIntent: a charge's session id is its PaymentIntent, a
     * Checkout Session's is read from the session. The idempotency key makes a retried call refund once.
     */
    async refund(req: RefundRequest): Promise<{ refundId: string }> {
      try {
        const intent = req.sessionId.startsWith('pi_') ? req.sessionId : idOf((await stripe.checkout.sessions.retrieve(req.sessionId)).payment_intent)
        if (!intent) throw new PaymentUnavailable(`Stripe session ${req.sessionId} has no payment to refund`)
        const refund = await stripe.refunds.create(
          { payment_intent: intent, amount: req.amountCents, reason: 'requested_by_customer', metadata: { transaction_id: String(req.transactionId) } },
          { idempotencyKey: prefixedKey(await options.keyPrefix(), req.idempotencyKey) },
        )
        return { refundId: refund.id }
      } catch (err) {
        if (err instanceof PaymentUnavailable) throw err
        throw new PaymentUnavailable(`Stripe refund failed: ${(err as Error).message}`, { cause: err })
      }
    },

    /**
     * An off-session PaymentIntent on the saved card, confirmed at once, under the caller's
     * idempotency key (Stripe answers a retried key with the first answer, a decline included). A
     * card error is a declined event with Stripe's decline code; Stripe unreachable, 5xx, or a
     * request Stripe refuses for another reason (keys, parameters) is PaymentUnavailable.
     */
    async charge(req: ChargeRequest): Promise<ChargeResult> {
      // a PaymentIntent answered before but not settled (processing): read it, never create another
      if (req.providerRef?.startsWith('pi_')) {
        let intent: Stripe.PaymentIntent
        try {
          intent = await stripe.paymentIntents.retrieve(req.providerRef)
        } catch (err) {
          throw new PaymentUnavailable(`Stripe did not answer the payment intent ${req.providerRef}: ${(err as Error).message}`, {
            cause: err,
            providerRef: req.providerRef,
          })
        }
        if (intent.status === 'succeeded') return chargeResult(req, intent)
        if (intent.status === 'requires_action') return chargeResult(req, intent, 'authentication_required')
        if (stripeIntentOutcome(intent)) {
          const e = intent.last_payment_error
          return chargeResult(req, intent, e?.decline_code || e?.code || intent.status)
        }
        throw new PaymentUnavailable(`Stripe PaymentIntent ${intent.id} is ${intent.status}`, { providerRef: intent.id })
      }
      const params: Stripe.PaymentIntentCreateParams = {
        amount: req.amountCents,
        currency: 'usd',
        payment_method: req.method.token,
        ...(req.method.customerRef ? { customer: req.method.customerRef } : {}),
        off_session: true,
        confirm: true,
        allowed_payment_method_types: ['card'],
        description: req.description.slice(0, 1000),
        metadata: { transaction_id: String(req.transactionId) },
      }
      try {
        const intent = await stripe.paymentIntents.create(params, { idempotencyKey: prefixedKey(await options.keyPrefix(), req.idempotencyKey) })
        return chargeResult(req, intent)
      } catch (err) {
        if (err instanceof Stripe.errors.StripeError) {
          const intent = err.payment_intent
          // a card error without a decline code (expired_card) carries decline_code ''; a card that
          // asks for authentication answers authentication_required as its code and decline code
          const reason = err.code === AUTHENTICATION_REQUIRED ? AUTHENTICATION_REQUIRED : err.decline_code || err.code || 'card_declined'
          if (err instanceof Stripe.errors.StripeCardError || intent?.status === 'requires_payment_method') {
            return chargeResult(
              req,
              intent ?? { id: `decline_${req.idempotencyKey}`, status: 'requires_payment_method', amount: req.amountCents, amount_received: 0 },
              reason,
            )
          }
          if (err.code === 'resource_missing' && err.param === 'payment_method') {
            // the card was detached or deleted at Stripe: it cannot be charged again
            return chargeResult(
              req,
              { id: `decline_${req.idempotencyKey}`, status: 'requires_payment_method', amount: req.amountCents, amount_received: 0 },
              'payment_method_not_found',
            )
          }
        }
        if (err instanceof Stripe.errors.StripeError && (err.statusCode ?? 0) >= 500) return afterServerError(req, err)
        // a 4xx that is not 429 nor a lock timeout: the same request gets the same refusal, retrying is pointless
        if (err instanceof Stripe.errors.StripeError && isFinalRefusal(err))
          throw new PaymentRefused(err.code ?? err.type, `Stripe refused the charge: ${err.message}`, { cause: err })
        throw new PaymentUnavailable(`Stripe did not charge the saved card: ${(err as Error).message}`, { cause: err })
      }
    },

    async createCheckout(req): Promise<CheckoutSession> {
      const now = Math.floor(Date.now() / 1000)
      const expiresAt = Math.min(now + MAX_EXPIRY_S, Math.max(now + MIN_EXPIRY_S, Math.floor(req.expiresAt.getTime() / 1000)))
      const metadata: Record<string, string> = { transaction_id: String(req.transactionId) }
      const subscription = req.mode === 'subscription'
      if (subscription) metadata[MODE_KEY] = 'subscription'
      const params: Stripe.Checkout.SessionCreateParams = {
        // a subscription's first payment is a payment too: the portal, not Stripe, renews it
        mode: 'payment',
        line_items: lineItems(req),
        customer_email: req.customerEmail,
        success_url: withSessionIdParam(req.successUrl),
        cancel_url: req.cancelUrl,
        client_reference_id: String(req.transactionId),
        metadata,
        expires_at: expiresAt,
        // the card source only (the API of this package version names it allowed_payment_method_types)
        allowed_payment_method_types: ['card'],
        ...(subscription
          ? {
              // a Customer to attach the card to, and the card kept for charges without the customer
              customer_creation: 'always' as const,
              payment_intent_data: { metadata, setup_future_usage: 'off_session' as const },
            }
          : { payment_intent_data: { metadata } }),
      }
      let session: Stripe.Checkout.Session
      try {
        // one session per transaction, whoever retries the call
        const idempotencyKey = prefixedKey(await options.keyPrefix(), `checkout:${req.transactionId}`)
        session = await stripe.checkout.sessions.create(params, { idempotencyKey })
      } catch (err) {
        throw new PaymentUnavailable(`Stripe refused the checkout: ${(err as Error).message}`, { cause: err })
      }
      if (!session.url) throw new PaymentUnavailable('Stripe answered a checkout session without a url')
      return { provider: 'stripe', sessionId: session.id, url: session.url }
    },

    parseWebhook(req) {
      const event = verified(req)
      const payment = stripeEventToPayment(event)
      return payment && savesCard(event, payment) ? withSavedCard(event, payment) : payment
    },

    /**
     * Every Stripe webhook the portal acts on, its signature verified: a Checkout Session's outcome
     * (as parseWebhook), a charge's refunds (charge.refunded), a dispute opened or decided
     * (charge.dispute.created / closed); each names our transaction through its PaymentIntent.
     */
    async readWebhook(req): Promise<PaymentEvent | ProviderNotice | ProviderNotice[] | null> {
      const event = verified(req)
      if (typeof event !== 'object' || event === null || typeof event.id !== 'string') return null
      if (HANDLED_CHARGE.has(event.type)) {
        return event.type === 'charge.refunded' ? refundsOf(event.data?.object as Stripe.Charge) : stripeDisputeNotice(event)
      }
      const payment = stripeEventToPayment(event)
      return payment && savesCard(event, payment) ? withSavedCard(event, payment) : payment
    },

    /**
     * A Checkout Session (cs_…) or an off-session PaymentIntent (pi_…) read back as Stripe has it
     * now (GET /v1/checkout/sessions/{id} with its PaymentIntent, GET /v1/payment_intents/{id}): the
     * event it ended in, or null while it is open, processing or waits for the customer. One Stripe
     * does not know (another account's) is null too; Stripe unreachable is PaymentUnavailable.
     */
    async lookup(sessionId: string): Promise<PaymentEvent | null> {
      try {
        if (sessionId.startsWith('pi_')) return stripeIntentOutcome(await stripe.paymentIntents.retrieve(sessionId, { expand: ['payment_method'] }))
        if (!sessionId.startsWith('cs_')) return null
        const session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ['payment_intent.latest_charge', 'payment_intent.payment_method'] })
        const event = stripeSessionOutcome(session)
        const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null
        return event?.outcome === 'paid' && intent && session.metadata?.[MODE_KEY] === 'subscription' ? withCardOf(session, intent, event) : event
      } catch (err) {
        if (isMissing(err)) return null
        throw new PaymentUnavailable(`Stripe did not answer for ${sessionId}: ${(err as Error).message}`, { cause: err })
      }
    },
  }
}
