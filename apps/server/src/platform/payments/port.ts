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
  /**
   * a one-off payment, or the first payment of a subscription: then the provider also keeps the
   * payment method for later charges without the customer (Stripe setup_future_usage off_session,
   * PayPal vault), and the paid event carries it as `savedMethod`. The portal, not the provider,
   * decides when to charge again (the renewal job calls `charge`).
   */
  mode: 'payment' | 'subscription'
  /** how often the subscription is charged (month unless said); shown by providers that show it */
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
  /** a subscription checkout's payment method, kept by the provider for later charges */
  savedMethod?: SavedPaymentMethod
  /**
   * a subscription checkout paid, but the provider kept no payment method for the renewals (PayPal
   * answered no vault id): an operator is told, and the customer that renewals need a payment method
   */
  savedMethodMissing?: true
  /**
   * the provider's id of the payment the checkout made, kept on the transaction: Stripe's
   * PaymentIntent of a Checkout Session, which its refund and dispute events name instead of the session
   */
  paymentRef?: string
}

/**
 * What a provider's webhook reports beside a checkout's outcome: money it gave back or took back
 * (a refund, a reversal or a dispute of a capture), or a saved payment method it no longer keeps.
 */
export type ProviderNotice =
  | { kind: 'method_deleted'; provider: PaymentProviderName; eventId: string; token: string }
  | {
      kind: 'refunded' | 'reversed'
      provider: PaymentProviderName
      eventId: string
      /** the checkout (order) whose payment it takes back, when the event names it */
      sessionId: string | null
      /**
       * the provider's id of the payment taken back: PayPal's capture id (the event id it was
       * credited under), Stripe's PaymentIntent (an off-session charge's id, or a Checkout Session's paymentRef)
       */
      paymentRef?: string
      amountCents?: Cents
      /** the provider's id of the refund, kept on the credit note */
      providerRef?: string
    }
  | {
      /**
       * a card holder disputed the payment and the provider took the money back meanwhile (a
       * chargeback); the same key comes again when the dispute is lost, so it applies once
       */
      kind: 'disputed'
      provider: PaymentProviderName
      eventId: string
      /** the PaymentIntent disputed (Stripe's dispute names it, and the charge) */
      paymentRef: string
      amountCents?: Cents
      /** the provider's id of the dispute, kept on the credit note */
      providerRef: string
    }
  | {
      /** the dispute was decided for the merchant: the money came back, what it suspended is restored */
      kind: 'dispute_won'
      provider: PaymentProviderName
      eventId: string
      /** the key its `disputed` notice goes under: a dispute won before that notice applied makes it take nothing back */
      reversalKey: string
      paymentRef: string
      providerRef: string
    }

export const isPaymentEvent = (e: PaymentEvent | ProviderNotice): e is PaymentEvent => 'outcome' in e

/** A payment method a provider keeps for us: its reference and what the portal shows of it. */
export interface SavedPaymentMethod {
  provider: PaymentProviderName
  /** stripe: a card; paypal: a PayPal wallet */
  source: ExternalPaymentSource
  /** the provider's id: Stripe's pm_…, PayPal's vault id, the sandbox's sbpm_… */
  token: string
  /** Stripe's customer (cus_…) the card is attached to; PayPal's customer id */
  customerRef?: string | null
  cardBrand?: string | null
  cardLast4?: string | null
  paypalEmail?: string | null
}

/** A charge without the customer, on a saved method: a renewal, or a threshold top-up of the balance. */
export interface ChargeRequest {
  /** our transaction, carried to the provider as metadata */
  transactionId: number
  /**
   * the provider de-duplicates by it (Stripe Idempotency-Key, PayPal-Request-Id, each with the
   * installation's prefix): a retried call charges once. The caller pins it to the parameters it was
   * first sent with (platform/payments/idempotency.ts), so a retry never sends other ones.
   */
  idempotencyKey: string
  /**
   * the provider's id of this charge from an earlier answer that was not final (a PayPal order whose
   * capture was pending): the adapter reads that charge instead of creating another, as PayPal
   * forgets a PayPal-Request-Id after 6 hours
   */
  providerRef?: string
  method: SavedPaymentMethod
  amountCents: Cents
  description: string
  customerEmail: string
}

/**
 * What the provider answered. `sessionId` is the provider's id of the charge (PaymentIntent, PayPal
 * order, sandbox charge): the renewal's transaction records it, and the event applies like a webhook.
 */
export interface ChargeResult {
  event: PaymentEvent
  /** the provider's reason for a decline, for the failed-payment mail */
  declineReason?: string
  /**
   * declined because the card asks for the customer's authentication (SCA: Stripe's
   * authentication_required): no off-session retry can pass, the customer must pay on-session
   */
  authenticationRequired?: true
}

/** The decline reason of a charge that needs the customer's authentication (Stripe's code and decline code). */
export const AUTHENTICATION_REQUIRED = 'authentication_required'

export interface RefundRequest {
  transactionId: number
  /** the provider's id of the checkout or charge (CheckoutSession.sessionId, the charge's event sessionId) */
  sessionId: string
  amountCents: Cents
  idempotencyKey: string
  reason: string
}

/** A capture to try again after the buyer chose another funding source at the provider: the transaction stays pending. */
export interface CaptureRetry {
  /** the provider's approval page of the same order */
  retryUrl: string
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
  /**
   * verifies a webhook and reads all it reports: a checkout's or capture's outcome, the refunds of a
   * payment (Stripe's charge.refunded: one notice per refund), a reversal, a dispute opened or
   * decided, a saved method deleted; null for a type the portal does not act on; throws
   * WebhookSignatureError when the signature does not match (Stripe) or PayPal does not vouch for it
   * (verify-webhook-signature)
   */
  readWebhook?(req: WebhookRequest): Promise<PaymentEvent | ProviderNotice | ProviderNotice[] | null>
  /**
   * reads a checkout (or a charge) at the provider as it stands now: the paid or declined event it
   * ended in (the same event id its webhook or capture carries, so it applies once whichever comes
   * first), or null while it is still open or held (a pending capture). A retry and the reconcile
   * job read the order this way and never create another for the same charge.
   */
  lookup?(sessionId: string): Promise<PaymentEvent | null>
  /**
   * gives money of a paid checkout or charge back to the payer (Stripe Refunds, PayPal's capture
   * refund, the sandbox): the whole payment, or `amountCents` of it. The idempotency key makes a
   * retried call refund once. Answers the provider's refund id (its refund webhook names it too).
   */
  refund?(req: RefundRequest): Promise<{ refundId: string }>
  /**
   * PayPal: captures an approved order and answers the event it makes, or, when the buyer's funding
   * source was refused (INSTRUMENT_DECLINED), where to send the buyer to choose another one
   */
  capture?(sessionId: string): Promise<PaymentEvent | CaptureRetry>
  /**
   * charges a saved method now, without the customer: answers the paid or declined event; throws
   * PaymentUnavailable when the provider cannot be reached (a retry later, not a decline)
   */
  charge(req: ChargeRequest): Promise<ChargeResult>
}

/** The provider is unreachable or refused: the caller answers external_payments_unavailable and changes nothing. */
export class PaymentUnavailable extends Error {
  /** the provider's id of a charge it answered but did not settle (a pending capture): a retry reads it (ChargeRequest.providerRef) */
  readonly providerRef?: string
  /**
   * the provider keeps an error for this idempotency key and replays it for ever (Stripe and a 500),
   * and it shows nothing was charged under it: a retry needs the key's next generation
   */
  readonly keySpent?: true
  constructor(message: string, options?: { cause?: unknown; providerRef?: string; keySpent?: boolean }) {
    super(message, options)
    this.name = 'PaymentUnavailable'
    if (options?.providerRef) this.providerRef = options.providerRef
    if (options?.keySpent) this.keySpent = true
  }
}

export class WebhookSignatureError extends Error {
  constructor(message = 'webhook signature does not match') {
    super(message)
    this.name = 'WebhookSignatureError'
  }
}

/**
 * The provider refused the call for good: a retry with the same request gets the same answer (an
 * unknown customer, a deleted vault token, a restricted account, credentials or permissions). Only
 * connection errors, 5xx, 429 and lock timeouts are PaymentUnavailable (retried); this is a failed
 * attempt with its reason, told to the customer and logged for an operator.
 */
export class PaymentRefused extends Error {
  /** the provider's code for it (resource_missing, permission_denied, invalid_resource_id …) */
  readonly reason: string

  constructor(reason: string, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.reason = reason
    this.name = 'PaymentRefused'
  }
}
