import Stripe from 'stripe'
import type { Config } from '../config.ts'
import { PaymentUnavailable, WebhookSignatureError, type ChargeResult, type CheckoutRequest, type CheckoutSession, type PaymentEvent, type PaymentProvider } from './port.ts'

/**
 * The card source through Stripe Checkout (the official `stripe` package). A checkout is a Checkout
 * Session carrying our transaction id (client_reference_id and metadata); Stripe reports the outcome
 * by webhook (`/api/payments/webhook/stripe/`), verified with STRIPE_WEBHOOK_SECRET, and the event's
 * id makes applying it idempotent.
 */

export type StripeConfig = Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_BASE'>

export interface StripeOptions {
  /** the Stripe client's own retries of a failed call (with an idempotency key); default 1 */
  maxNetworkRetries?: number
  /** per call, in ms: the customer waits on it; default 20 s */
  timeoutMs?: number
}

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
        ...(req.mode === 'subscription' ? { recurring: { interval: req.interval ?? 'month' } } : {}),
      },
    }
  })
}

/** "Visa •••• 4242" when the event carries the card (an expanded payment intent), else "Card". */
function cardLabel(session: Stripe.Checkout.Session): string {
  const intent = session.payment_intent
  if (intent && typeof intent === 'object') {
    const charge = intent.latest_charge
    const card = charge && typeof charge === 'object' ? charge.payment_method_details?.card : undefined
    if (card?.last4) {
      const brand = card.brand ? card.brand.charAt(0).toUpperCase() + card.brand.slice(1) : 'Card'
      return `${brand} •••• ${card.last4}`
    }
  }
  return 'Card'
}

/**
 * A paid event always carries the amount, as the payments service credits only what matches the
 * transaction; an amount the event lacks is -1, which matches nothing and so is never credited.
 */
function paid(base: Pick<PaymentEvent, 'provider' | 'eventId' | 'sessionId'>, session: Stripe.Checkout.Session): PaymentEvent {
  const amount = Number.isSafeInteger(session.amount_total) ? (session.amount_total as number) : -1
  return { ...base, outcome: 'paid', amountCents: amount, paymentMethod: cardLabel(session) }
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

export function createStripeProvider(config: StripeConfig, options: StripeOptions = {}): PaymentProvider {
  if (!config.STRIPE_SECRET_KEY) throw new Error('STRIPE_SECRET_KEY is not set')
  const stripe = new Stripe(config.STRIPE_SECRET_KEY, {
    ...apiAddress(config.STRIPE_API_BASE),
    maxNetworkRetries: options.maxNetworkRetries ?? 1,
    timeout: options.timeoutMs ?? 20_000,
    telemetry: false,
    appInfo: { name: '3DiVi license portal' },
  })

  return {
    name: 'stripe',

    // issue 13: the adapter's off-session charge is being written; until then renewals cannot charge here
    async charge(): Promise<ChargeResult> {
      throw new PaymentUnavailable('off-session charges are not implemented for this provider yet')
    },
    async createCheckout(req): Promise<CheckoutSession> {
      const now = Math.floor(Date.now() / 1000)
      const expiresAt = Math.min(now + MAX_EXPIRY_S, Math.max(now + MIN_EXPIRY_S, Math.floor(req.expiresAt.getTime() / 1000)))
      const metadata = { transaction_id: String(req.transactionId) }
      const params: Stripe.Checkout.SessionCreateParams = {
        mode: req.mode,
        line_items: lineItems(req),
        customer_email: req.customerEmail,
        success_url: withSessionIdParam(req.successUrl),
        cancel_url: req.cancelUrl,
        client_reference_id: String(req.transactionId),
        metadata,
        expires_at: expiresAt,
        // the card source only (the API of this package version names it allowed_payment_method_types)
        allowed_payment_method_types: ['card'],
        ...(req.mode === 'subscription' ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
      }
      let session: Stripe.Checkout.Session
      try {
        // one session per transaction, whoever retries the call
        session = await stripe.checkout.sessions.create(params, { idempotencyKey: `portal-checkout-${req.transactionId}` })
      } catch (err) {
        throw new PaymentUnavailable(`Stripe refused the checkout: ${(err as Error).message}`, { cause: err })
      }
      if (!session.url) throw new PaymentUnavailable('Stripe answered a checkout session without a url')
      return { provider: 'stripe', sessionId: session.id, url: session.url }
    },

    parseWebhook({ rawBody, headers }) {
      if (!config.STRIPE_WEBHOOK_SECRET) throw new PaymentUnavailable('STRIPE_WEBHOOK_SECRET is not set: Stripe webhooks cannot be verified')
      const signature = headers['stripe-signature']
      if (typeof signature !== 'string' || !signature) throw new WebhookSignatureError('no Stripe-Signature header')
      let event: Stripe.Event
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, config.STRIPE_WEBHOOK_SECRET)
      } catch (err) {
        throw new WebhookSignatureError((err as Error).message)
      }
      return stripeEventToPayment(event)
    },
  }
}
