import type { Cents, ExternalPaymentSource, PaymentProviderName } from '@portal/domain'

/**
 * The payment port: what the portal asks of a payment provider, whichever serves a source. Three
 * adapters implement it: the built-in sandbox (modules/payments/sandbox), Stripe and PayPal
 * (platform/payments/stripe.ts, paypal.ts). Which one serves a source is configuration
 * (PAYMENTS_CARD_PROVIDER, PAYMENTS_PAYPAL_PROVIDER; see the README).
 *
 * A provider never touches the database of the portal: it opens checkouts and turns what the
 * provider sends back (a webhook, a capture) into a `PaymentEvent`; the payments service applies
 * the event, once, in one database transaction (modules/payments/service.ts).
 */

export interface CheckoutLine {
  description: string
  quantity: number
  /** the line's total */
  amount_cents: Cents
}

export interface CheckoutRequest {
  /** our transaction, carried through the provider (metadata / custom_id) back to the event */
  transactionId: number
  source: ExternalPaymentSource
  /** a one-off payment, or a subscription the provider charges again (issue 13) */
  mode: 'payment' | 'subscription'
  /** how often a subscription charges again (default month); ignored for a one-off payment */
  interval?: 'month' | 'year'
  lines: CheckoutLine[]
  amountCents: Cents
  customerEmail: string
  /** absolute addresses on this portal */
  successUrl: string
  cancelUrl: string
  /** when the checkout stops taking payment */
  expiresAt: Date
}

export interface CheckoutSession {
  provider: PaymentProviderName
  /** the provider's id of the checkout (Stripe's cs_…, PayPal's order id, the sandbox's id) */
  sessionId: string
  /** where the browser goes to pay */
  url: string
}

/** What a provider reports about one checkout. */
export interface PaymentEvent {
  provider: PaymentProviderName
  /** unique per provider: the same event delivered twice carries the same id */
  eventId: string
  /** the checkout it is about (CheckoutSession.sessionId) */
  sessionId: string
  outcome: 'paid' | 'declined' | 'cancelled' | 'expired'
  /** what the provider says was paid, checked against the transaction */
  amountCents?: Cents
  /** "Visa •••• 4242", "PayPal (buyer@example.com)" */
  paymentMethod?: string
}

export interface WebhookRequest {
  rawBody: Buffer
  headers: Record<string, string | string[] | undefined>
}

export interface PaymentProvider {
  readonly name: PaymentProviderName
  /** opens a checkout; throws PaymentUnavailable when the provider is down or refuses */
  createCheckout(req: CheckoutRequest): Promise<CheckoutSession>
  /**
   * verifies a webhook and reads its event: null for an event type the portal does not act on;
   * throws WebhookSignatureError when the signature does not match
   */
  parseWebhook?(req: WebhookRequest): PaymentEvent | null | Promise<PaymentEvent | null>
  /** PayPal: captures an approved order and answers the event it makes */
  capture?(sessionId: string): Promise<PaymentEvent>
}

/** The provider is unreachable or refused: the caller answers external_payments_unavailable and changes nothing. */
export class PaymentUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'PaymentUnavailable'
  }
}

export class WebhookSignatureError extends Error {
  constructor(message = 'webhook signature does not match') {
    super(message)
    this.name = 'WebhookSignatureError'
  }
}
