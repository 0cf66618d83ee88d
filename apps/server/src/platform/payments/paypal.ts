import type { Cents } from '@portal/domain'
import type { Config } from '../config.ts'
import { prefixedKey } from './idempotency.ts'
import {
  PaymentRefused,
  PaymentUnavailable,
  type ChargeRequest,
  type ChargeResult,
  type CheckoutRequest,
  type CaptureRetry,
  type CheckoutSession,
  WebhookSignatureError,
  type PaymentEvent,
  type PaymentProvider,
  type ProviderNotice,
  type RefundRequest,
  type SavedPaymentMethod,
} from './port.ts'

/**
 * The PayPal source through PayPal's REST API v2 (Orders), over plain fetch (docs/adr/payment-providers-stripe-package-paypal-over-fetch.md
 * says why not its SDK). A checkout is an order with intent CAPTURE whose custom_id is our transaction;
 * after the customer approves it, the portal captures it (`POST /api/paypal/capture-payment/`) and
 * the capture becomes the payment event. Capturing again answers ORDER_ALREADY_CAPTURED: the order is
 * read back and its capture answers the same event, so a repeated sync applies once.
 *
 * A subscription checkout asks PayPal to vault the wallet on success (`attributes.vault`,
 * usage MERCHANT); the capture answers the vault id and PayPal's customer id, which the paid event
 * carries as savedMethod. `charge` then creates an order on that `vault_id` (merchant-initiated, no
 * buyer), with the caller's idempotency key as PayPal-Request-Id.
 */

export type PaypalConfig = Pick<Config, 'PAYPAL_CLIENT_ID' | 'PAYPAL_CLIENT_SECRET' | 'PAYPAL_API_BASE' | 'PAYPAL_MERCHANT_ID'> &
  Partial<Pick<Config, 'PAYPAL_WEBHOOK_ID'>>

export interface PaypalOptions {
  /** per call, in ms: the customer waits on it; default 20 s */
  timeoutMs?: number
  /** for tests: the clock that ages the cached token */
  now?: () => number
  /** the installation's prefix of every PayPal-Request-Id (platform/payments/idempotency.ts) */
  keyPrefix: () => Promise<string>
}

interface Money {
  currency_code: string
  value: string
}
interface Capture {
  id: string
  status: string
  amount?: Money
  custom_id?: string
  /** why a capture is PENDING (PENDING_REVIEW, ECHECK, ...) */
  status_details?: { reason?: string }
}
interface Order {
  id: string
  status?: string
  links?: { href: string; rel: string; method?: string }[]
  payer?: { email_address?: string }
  payment_source?: {
    paypal?: {
      email_address?: string
      attributes?: { vault?: { id?: string; status?: string; customer?: { id?: string } } }
    }
  }
  purchase_units?: { reference_id?: string; custom_id?: string; payments?: { captures?: Capture[] } }[]
}
interface ApiErrorBody {
  name?: string
  message?: string
  details?: { issue?: string; description?: string }[]
}

/** A webhook event as PayPal posts it (the fields the portal reads). */
interface PaypalWebhookEvent {
  id?: string
  event_type?: string
  resource?: {
    id?: string
    status?: string
    amount?: Money
    supplementary_data?: { related_ids?: { order_id?: string } }
    links?: { href: string; rel: string }[]
  }
}

/** What PayPal answered when it was not a success: the status and its issue codes. */
class PaypalApiError extends Error {
  readonly status: number
  readonly body: ApiErrorBody | null

  constructor(status: number, body: ApiErrorBody | null) {
    super(`PayPal answered ${status}${body?.name ? ` ${body.name}` : ''}${body?.details?.[0]?.issue ? ` (${body.details[0].issue})` : ''}`)
    this.status = status
    this.body = body
  }
  hasIssue(issue: string) {
    return this.body?.name === issue || (this.body?.details ?? []).some((d) => d.issue === issue)
  }
}

/** cents as PayPal's decimal string: 15000 → "150.00" (integer arithmetic, no float) */
export function centsToDecimal(cents: Cents): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new Error(`not an amount of cents: ${cents}`)
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
}

/** PayPal's decimal string as cents: "150.00" → 15000; null for anything else */
export function decimalToCents(value: string): Cents | null {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(value)
  if (!m) return null
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'))
}

const usd = (cents: Cents): Money => ({ currency_code: 'USD', value: centsToDecimal(cents) })

/** Order items whose unit amounts times quantities add up to the order's total exactly (see stripe.ts lineItems). */
function items(req: CheckoutRequest) {
  return req.lines.map((line) => {
    const even = line.quantity > 0 && line.amount_cents % line.quantity === 0
    const quantity = even ? line.quantity : 1
    const name = even || line.quantity === 1 ? line.description : `${line.quantity} × ${line.description}`
    return { name: name.slice(0, 127), quantity: String(quantity), unit_amount: usd(line.amount_cents / quantity), category: 'DIGITAL_GOODS' }
  })
}

/**
 * A capture PayPal holds (PENDING_REVIEW, ECHECK, ...): not settled yet, so nothing changes now; the
 * order's id goes with the error, so a retry reads this order rather than creating another.
 */
const pending = (orderId: string, capture: Capture) =>
  new PaymentUnavailable(`PayPal capture ${capture.id} of order ${orderId} is pending (${capture.status_details?.reason ?? 'no reason given'})`, {
    providerRef: orderId,
  })

/** The order's first capture (an order of the portal has one purchase unit, captured once). */
const captureOf = (order: Order): Capture | undefined => order.purchase_units?.[0]?.payments?.captures?.[0]

/** A capture as the portal's payment event. A PENDING capture is not settled yet: nothing changes, the next sync reads it again. */
function captureToEvent(orderId: string, order: Order, capture: Capture): PaymentEvent {
  if (capture.status === 'PENDING') throw pending(orderId, capture)
  const email = order.payer?.email_address ?? order.payment_source?.paypal?.email_address
  const event: PaymentEvent = {
    provider: 'paypal',
    eventId: capture.id,
    sessionId: orderId,
    outcome: capture.status === 'COMPLETED' ? 'paid' : 'declined',
    paymentMethod: email ? `PayPal (${email})` : 'PayPal',
  }
  if (event.outcome === 'paid') {
    const cents = capture.amount && capture.amount.currency_code === 'USD' ? decimalToCents(capture.amount.value) : null
    // never leave the amount out of a paid event: the service credits only what matches the transaction
    if (cents === null) throw new PaymentUnavailable(`PayPal capture ${capture.id} has an amount the portal cannot read: ${JSON.stringify(capture.amount)}`)
    event.amountCents = cents
    const saved = vaultedWallet(order)
    if (saved) event.savedMethod = saved
    // a subscription's order asked to vault the wallet; PayPal paid it but vaulted nothing
    else if (order.purchase_units?.[0]?.reference_id === subscriptionRef(orderTransaction(order))) event.savedMethodMissing = true
  }
  return event
}

/** the transaction an order pays (its custom_id) */
const orderTransaction = (order: Order) => order.purchase_units?.[0]?.custom_id ?? ''

/** the purchase unit's reference of a subscription's checkout: its capture must come back with a vault id */
const subscriptionRef = (transactionId: number | string) => `subscription-${transactionId}`

/** The wallet PayPal vaulted with the order (a subscription checkout's capture): its vault id, customer and e-mail. */
function vaultedWallet(order: Order): SavedPaymentMethod | null {
  const paypal = order.payment_source?.paypal
  const vault = paypal?.attributes?.vault
  if (!vault?.id) return null
  return {
    provider: 'paypal',
    source: 'paypal',
    token: vault.id,
    customerRef: vault.customer?.id ?? null,
    paypalEmail: paypal?.email_address ?? order.payer?.email_address ?? null,
  }
}

/** The reason of a refusal: the first issue PayPal named, lower case (INSTRUMENT_DECLINED → instrument_declined). */
const issueOf = (body: ApiErrorBody | null, fallback: string) => (body?.details?.[0]?.issue ?? body?.name ?? fallback).toLowerCase()

export function createPaypalProvider(config: PaypalConfig, options: PaypalOptions): PaymentProvider {
  const { PAYPAL_CLIENT_ID: clientId, PAYPAL_CLIENT_SECRET: secret } = config
  if (!clientId || !secret) throw new Error('PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET must both be set')
  const base = config.PAYPAL_API_BASE.replace(/\/$/, '')
  const timeoutMs = options.timeoutMs ?? 20_000
  const now = options.now ?? Date.now
  let token: { value: string; until: number } | null = null
  let pendingToken: Promise<string> | null = null

  async function send(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) })
    } catch (err) {
      throw new PaymentUnavailable(`PayPal is unreachable: ${(err as Error).message}`, { cause: err })
    }
  }

  async function readJson<T>(res: Response): Promise<T | null> {
    try {
      return (await res.json()) as T
    } catch {
      return null
    }
  }

  /** An OAuth access token (client credentials), cached until a minute before it expires; parallel callers share one request. */
  async function accessToken(): Promise<string> {
    if (token && token.until > now()) return token.value
    pendingToken ??= (async () => {
      const res = await send('/v1/oauth2/token', {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: 'grant_type=client_credentials',
      })
      const body = await readJson<{ access_token?: string; expires_in?: number }>(res)
      if (!res.ok || !body?.access_token) throw new PaymentUnavailable(`PayPal refused the token request (${res.status})`)
      const lifetimeS = Number(body.expires_in) > 0 ? Number(body.expires_in) : 300
      token = { value: body.access_token, until: now() + Math.max(0, lifetimeS - 60) * 1000 }
      return token.value
    })().finally(() => {
      pendingToken = null
    })
    return pendingToken
  }

  /** A call with the bearer token; a 401 (a token PayPal revoked early) takes a fresh token once. */
  async function api<T>(method: string, path: string, body?: unknown, requestId?: string): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = {
        authorization: `Bearer ${await accessToken()}`,
        accept: 'application/json',
        prefer: 'return=representation',
      }
      if (body !== undefined) headers['content-type'] = 'application/json'
      if (requestId) headers['paypal-request-id'] = requestId
      const res = await send(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
      if (res.status === 401 && attempt === 0) {
        token = null
        continue
      }
      const json = await readJson<T & ApiErrorBody>(res)
      if (!res.ok) throw new PaypalApiError(res.status, json)
      if (!json) throw new PaymentUnavailable(`PayPal answered ${res.status} without a JSON body`)
      return json
    }
  }

  /** the order's approval link (payer-action) as PayPal answers it, else the one PayPal's checkout page has for every order */
  async function approvalLink(orderId: string): Promise<string> {
    try {
      const order = await api<Order>('GET', `/v2/checkout/orders/${encodeURIComponent(orderId)}`)
      const link = order.links?.find((l) => l.rel === 'payer-action' || l.rel === 'approve')
      if (link) return link.href
    } catch {
      // the link PayPal's checkout page serves for every order will do
    }
    const web = base.includes('sandbox') ? 'https://www.sandbox.paypal.com' : 'https://www.paypal.com'
    return `${web}/checkoutnow?token=${encodeURIComponent(orderId)}`
  }

  const unavailable = (what: string, err: unknown) =>
    err instanceof PaymentUnavailable ? err : new PaymentUnavailable(`PayPal ${what} failed: ${(err as Error).message}`, { cause: err })

  return {
    name: 'paypal',

    /**
     * An order on the vaulted wallet, captured without the buyer: PayPal answers a vaulted order
     * COMPLETED with its capture; one that is not yet is captured here. PayPal-Request-Id is the
     * idempotency key (the capture's is the key with ":capture"), so a retried call charges once.
     * 422 (the wallet refused, the vault unusable) and a DECLINED capture are a declined event;
     * PayPal unreachable or 5xx (or refusing the call itself: 400, 403, 404) is PaymentUnavailable.
     */
    async charge(req: ChargeRequest): Promise<ChargeResult> {
      const declined = (sessionId: string, eventId: string, reason: string): ChargeResult => ({
        event: {
          provider: 'paypal',
          eventId,
          sessionId,
          outcome: 'declined',
          amountCents: req.amountCents,
          paymentMethod: req.method.paypalEmail ? `PayPal (${req.method.paypalEmail})` : 'PayPal',
        },
        declineReason: reason,
      })
      const refusal = (err: unknown, orderId: string | null): ChargeResult => {
        if (err instanceof PaypalApiError && err.status === 422) {
          const reason = issueOf(err.body, 'unprocessable_entity')
          return declined(orderId ?? `paypal-charge:${req.idempotencyKey}`, `${orderId ?? req.idempotencyKey}:${reason}`, reason)
        }
        // refused for good (a bad request, credentials or permissions, a vault token PayPal no longer has): no retry changes it
        if (err instanceof PaypalApiError && err.status >= 400 && err.status < 500 && err.status !== 429 && err.status !== 408)
          throw new PaymentRefused(issueOf(err.body, `http_${err.status}`), `PayPal refused the charge: ${err.message}`, { cause: err })
        throw unavailable('charge', err)
      }
      const body = {
        intent: 'CAPTURE',
        purchase_units: [
          {
            reference_id: String(req.transactionId),
            custom_id: String(req.transactionId),
            description: req.description.slice(0, 127),
            amount: usd(req.amountCents),
            ...(config.PAYPAL_MERCHANT_ID ? { payee: { merchant_id: config.PAYPAL_MERCHANT_ID } } : {}),
          },
        ],
        payment_source: {
          paypal: {
            vault_id: req.method.token,
            // a renewal the merchant starts on the wallet the buyer saved for it (PayPal's stored credential)
            stored_credential: { payment_initiator: 'MERCHANT', usage: 'SUBSEQUENT', usage_pattern: 'SUBSCRIPTION_PREPAID' },
          },
        },
      }
      let key: string
      try {
        key = prefixedKey(await options.keyPrefix(), req.idempotencyKey)
      } catch (err) {
        throw unavailable('charge', err)
      }
      let order: Order
      try {
        // an order answered before (its capture pending): read it; PayPal forgets a request id after 6 hours
        order = req.providerRef
          ? await api<Order>('GET', `/v2/checkout/orders/${encodeURIComponent(req.providerRef)}`)
          : await api<Order>('POST', '/v2/checkout/orders', body, key)
      } catch (err) {
        return refusal(err, req.providerRef ?? null)
      }
      if (order.status === 'PAYER_ACTION_REQUIRED' && !captureOf(order)) {
        // PayPal needs the payer for this wallet (a consent, an authentication): no capture can
        // succeed without them, so none is tried; the customer is asked, as for a card's authentication
        return declined(order.id, `${order.id}:payer_action_required`, 'payer_action_required')
      }
      if (order.status !== 'COMPLETED' || !captureOf(order)) {
        try {
          order = await api<Order>('POST', `/v2/checkout/orders/${encodeURIComponent(order.id)}/capture`, {}, `${key}:capture`)
        } catch (err) {
          return refusal(err, order.id)
        }
      }
      const capture = captureOf(order)
      if (!capture) throw new PaymentUnavailable(`PayPal order ${order.id} has no capture (status ${order.status ?? 'unknown'})`)
      if (capture.status === 'COMPLETED') {
        const event = captureToEvent(order.id, order, capture)
        delete event.savedMethod
        if (!order.payer?.email_address && !order.payment_source?.paypal?.email_address && req.method.paypalEmail)
          event.paymentMethod = `PayPal (${req.method.paypalEmail})`
        return { event }
      }
      if (capture.status === 'PENDING') throw pending(order.id, capture)
      return declined(order.id, capture.id, capture.status.toLowerCase())
    },
    async createCheckout(req): Promise<CheckoutSession> {
      const order = {
        intent: 'CAPTURE',
        purchase_units: [
          {
            reference_id: req.mode === 'subscription' ? subscriptionRef(req.transactionId) : String(req.transactionId),
            custom_id: String(req.transactionId),
            description: (req.lines.length === 1 ? req.lines[0]!.description : '3DiVi portal payment').slice(0, 127),
            amount: { ...usd(req.amountCents), breakdown: { item_total: usd(req.amountCents) } },
            items: items(req),
            ...(config.PAYPAL_MERCHANT_ID ? { payee: { merchant_id: config.PAYPAL_MERCHANT_ID } } : {}),
          },
        ],
        payment_source: {
          paypal: {
            email_address: req.customerEmail,
            experience_context: {
              // the Orders API spells the spec's en_US as a BCP 47 tag
              locale: 'en-US',
              shipping_preference: 'NO_SHIPPING',
              user_action: 'PAY_NOW',
              return_url: req.successUrl,
              cancel_url: req.cancelUrl,
            },
            // a subscription: PayPal keeps the wallet for the portal's later charges (its vault id comes with the capture)
            ...(req.mode === 'subscription'
              ? { attributes: { vault: { store_in_vault: 'ON_SUCCESS', usage_type: 'MERCHANT', customer_type: 'CONSUMER' } } }
              : {}),
          },
        },
      }
      let created: Order
      try {
        // one order per transaction, whoever retries the call
        created = await api<Order>('POST', '/v2/checkout/orders', order, prefixedKey(await options.keyPrefix(), `checkout:${req.transactionId}`))
      } catch (err) {
        if (err instanceof PaypalApiError && err.hasIssue('NOT_ENABLED_TO_VAULT_PAYMENT_SOURCE'))
          throw new PaymentUnavailable(
            'PayPal refused to vault the wallet: the account has no vault approval, so PayPal cannot take subscriptions (see the README)',
            {
              cause: err,
            },
          )
        throw unavailable('order creation', err)
      }
      const approve = created.links?.find((l) => l.rel === 'payer-action' || l.rel === 'approve')
      if (!created.id || !approve) throw new PaymentUnavailable('PayPal answered an order without an approval link')
      return { provider: 'paypal', sessionId: created.id, url: approve.href }
    },

    /**
     * The order as PayPal has it now (GET /v2/checkout/orders/{id}): its capture's paid or declined
     * event (event id: the capture's id, as the capture call and the webhook answer it), or null
     * while the buyer has not approved it or PayPal holds the capture. An order approved but never
     * captured (the buyer did not come back) is captured now: that is the charge the buyer approved.
     */
    async lookup(orderId: string): Promise<PaymentEvent | null> {
      const path = `/v2/checkout/orders/${encodeURIComponent(orderId)}`
      let order: Order
      try {
        order = await api<Order>('GET', path)
      } catch (err) {
        if (err instanceof PaypalApiError && err.status === 404) return null
        throw unavailable('order lookup', err)
      }
      const capture = captureOf(order)
      if (!capture) {
        if (order.status !== 'APPROVED') return null
        const captured = await this.capture!(orderId)
        return 'retryUrl' in captured ? null : captured
      }
      if (capture.status === 'PENDING') return null
      return captureToEvent(orderId, order, capture)
    },

    /**
     * A PayPal webhook: PayPal itself vouches for it (POST /v1/notifications/verify-webhook-signature
     * with its transmission headers and PAYPAL_WEBHOOK_ID), then it is read. A capture completed or
     * denied is read back from its order (the same event the capture call answers); a refund or a
     * reversal names the order it takes money back from; a deleted vault token names the token.
     */
    async readWebhook({ rawBody, headers }): Promise<PaymentEvent | ProviderNotice | null> {
      if (!config.PAYPAL_WEBHOOK_ID) throw new PaymentUnavailable('PAYPAL_WEBHOOK_ID is not set: PayPal webhooks cannot be verified')
      const header = (name: string) => {
        const v = headers[name]
        return typeof v === 'string' ? v : undefined
      }
      let event: PaypalWebhookEvent
      try {
        event = JSON.parse(rawBody.toString('utf8')) as PaypalWebhookEvent
      } catch {
        throw new WebhookSignatureError('not a JSON body')
      }
      const transmission = {
        auth_algo: header('paypal-auth-algo'),
        cert_url: header('paypal-cert-url'),
        transmission_id: header('paypal-transmission-id'),
        transmission_sig: header('paypal-transmission-sig'),
        transmission_time: header('paypal-transmission-time'),
      }
      if (Object.values(transmission).some((v) => !v)) throw new WebhookSignatureError('PayPal transmission headers missing')
      let verdict: { verification_status?: string }
      try {
        verdict = await api<{ verification_status?: string }>('POST', '/v1/notifications/verify-webhook-signature', {
          ...transmission,
          webhook_id: config.PAYPAL_WEBHOOK_ID,
          webhook_event: event,
        })
      } catch (err) {
        throw unavailable('webhook verification', err)
      }
      if (verdict.verification_status !== 'SUCCESS') throw new WebhookSignatureError('PayPal did not verify the webhook signature')
      const resource = event.resource ?? {}
      const orderId = resource.supplementary_data?.related_ids?.order_id ?? null
      switch (event.event_type) {
        case 'PAYMENT.CAPTURE.COMPLETED':
        case 'PAYMENT.CAPTURE.DENIED':
          return orderId ? this.lookup!(orderId) : null
        case 'PAYMENT.CAPTURE.REFUNDED':
        case 'PAYMENT.CAPTURE.REVERSED': {
          const cents = resource.amount?.currency_code === 'USD' && resource.amount.value ? decimalToCents(resource.amount.value) : null
          // a reversal's resource is the capture; a refund's links up to the capture it refunds
          const up = resource.links?.find((l) => l.rel === 'up')?.href
          const captureId = event.event_type === 'PAYMENT.CAPTURE.REVERSED' ? resource.id : up ? /\/captures\/([^/?]+)/.exec(up)?.[1] : undefined
          return {
            ...(captureId ? { paymentRef: decodeURIComponent(captureId) } : {}),
            kind: event.event_type === 'PAYMENT.CAPTURE.REFUNDED' ? 'refunded' : 'reversed',
            provider: 'paypal',
            // keyed by the refund itself: the portal's own refund (payments:refund) and PayPal's webhook about it reverse once
            eventId:
              event.event_type === 'PAYMENT.CAPTURE.REFUNDED' ? `refund:${resource.id ?? String(event.id)}` : `reversal:${resource.id ?? String(event.id)}`,
            sessionId: orderId,
            ...(cents !== null ? { amountCents: cents } : {}),
          }
        }
        case 'VAULT.PAYMENT-TOKEN.DELETED':
          return resource.id ? { kind: 'method_deleted', provider: 'paypal', eventId: String(event.id), token: resource.id } : null
        default:
          return null
      }
    },

    /** PayPal's refund of the order's capture (POST /v2/payments/captures/{id}/refund), PayPal-Request-Id the key. */
    async refund(req: RefundRequest): Promise<{ refundId: string }> {
      let order: Order
      try {
        order = await api<Order>('GET', `/v2/checkout/orders/${encodeURIComponent(req.sessionId)}`)
      } catch (err) {
        throw unavailable('order lookup', err)
      }
      const capture = captureOf(order)
      if (!capture) throw new PaymentUnavailable(`PayPal order ${req.sessionId} has no capture to refund`)
      try {
        const refund = await api<{ id?: string; status?: string }>(
          'POST',
          `/v2/payments/captures/${encodeURIComponent(capture.id)}/refund`,
          { amount: usd(req.amountCents), note_to_payer: req.reason.slice(0, 255) },
          prefixedKey(await options.keyPrefix(), req.idempotencyKey),
        )
        if (!refund.id) throw new PaymentUnavailable('PayPal answered a refund without an id')
        return { refundId: refund.id }
      } catch (err) {
        throw unavailable('refund', err)
      }
    },

    async capture(orderId): Promise<PaymentEvent | CaptureRetry> {
      const path = `/v2/checkout/orders/${encodeURIComponent(orderId)}`
      let order: Order
      try {
        // no PayPal-Request-Id: PayPal captures an order once (ORDER_ALREADY_CAPTURED), and a capture
        // after the buyer chose another funding source must not get the refused one replayed
        order = await api<Order>('POST', `${path}/capture`, {})
      } catch (err) {
        if (err instanceof PaypalApiError && err.hasIssue('ORDER_ALREADY_CAPTURED')) {
          // captured before (a repeated sync, or two at once): the order's capture is the same event
          try {
            order = await api<Order>('GET', path)
          } catch (again) {
            throw unavailable('order lookup', again)
          }
        } else if (err instanceof PaypalApiError && (err.hasIssue('INSTRUMENT_DECLINED') || err.hasIssue('PAYER_ACTION_REQUIRED'))) {
          // the payer's funding was refused, or PayPal needs the payer back ("instruct the buyer to
          // return to PayPal"), nothing was taken: the buyer goes back to approve the same order
          // (with another funding source), the transaction stays pending
          return { retryUrl: await approvalLink(orderId) }
        } else {
          throw unavailable('capture', err)
        }
      }
      const capture = captureOf(order)
      if (!capture && order.status === 'PAYER_ACTION_REQUIRED') {
        // answered without a capture, the order waiting for the payer (3-D Secure of a card, a consent): back to PayPal
        const link = order.links?.find((l) => l.rel === 'payer-action' || l.rel === 'approve')
        return { retryUrl: link?.href ?? (await approvalLink(orderId)) }
      }
      if (!capture) throw new PaymentUnavailable(`PayPal order ${orderId} has no capture (status ${order.status ?? 'unknown'})`)
      return captureToEvent(orderId, order, capture)
    },
  }
}
