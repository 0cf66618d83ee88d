import { createHmac } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { z } from 'zod'

/**
 * Local fakes of the Stripe and PayPal APIs for the adapters' offline tests: real HTTP on 127.0.0.1,
 * answering the calls the portal makes with the providers' shapes, recording what they were sent,
 * and able to fail the way a provider does (an error status, or a dropped connection).
 */

export interface RecordedRequest {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: string
}

/** 'ok', an error status to answer every call with, or 'drop' to close the socket without an answer */
export type FakeMode = 'ok' | 'drop' | number

interface FakeServer {
  url: string
  requests: RecordedRequest[]
  mode: FakeMode
  close(): Promise<void>
}

async function startServer(
  handle: (req: RecordedRequest, res: ServerResponse) => void | Promise<void>,
  failure: (status: number) => unknown,
): Promise<FakeServer> {
  const fake = { requests: [] as RecordedRequest[], mode: 'ok' as FakeMode }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const recorded = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
      fake.requests.push(recorded)
      if (fake.mode === 'drop') return void req.socket.destroy()
      if (typeof fake.mode === 'number') return json(res, fake.mode, failure(fake.mode))
      handle(recorded, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  })
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${Math.random().toString(36).slice(2)}`, ...headers })
  res.end(JSON.stringify(body))
}

// ---------------------------------------------------------------- Stripe

/** How an off-session charge on a card fails, as Stripe answers it (its testing cards' errors). */
export type FakeCardFailure = 'authentication_required' | 'expired_card' | 'insufficient_funds' | 'card_declined'

interface FakeCard {
  id: string
  customer: string | null
  brand: string
  last4: string
  /** an off-session charge on it fails so */
  failure: FakeCardFailure | null
}

export interface FakeStripe extends FakeServer {
  /** the form fields of each Checkout Session created, flat as Stripe's encoding sends them (`line_items[0][quantity]`) */
  sessions: Record<string, string>[]
  /** the form fields of each PaymentIntent created (replays of an idempotency key are not created again) */
  intentsCreated: Record<string, string>[]
  /** the PaymentIntents by id */
  intents: Map<string, Record<string, unknown>>
  /**
   * the customer pays a Checkout Session with a card: a Customer, the card (pm_…) attached to it and
   * a succeeded PaymentIntent with its charge, as Stripe makes them for a session with
   * customer_creation always; the session Stripe holds turns complete and paid (a session whose
   * asynchronous payment was processing succeeds on the same PaymentIntent)
   */
  paySession(sessionId: string, card?: { brand?: string; last4?: string }): { paymentIntent: string; customer: string; paymentMethod: string }
  /** another card of the same customer (the customer changed their card) */
  addCard(customer: string, card?: { brand?: string; last4?: string }): string
  /** every later charge on the card fails as a card error: a decline code (insufficient_funds …), expired_card or authentication_required */
  declineCard(paymentMethodId: string, failure?: FakeCardFailure): void
  /**
   * the next PaymentIntent creation answers so: a 429 (rejected before it runs, so not kept for its
   * key), a 500 (kept for its key and replayed, as Stripe does), or 'lost' (the charge is made and
   * kept for its key, but the connection drops before the answer: the caller cannot know). A 500
   * that `leaves` a PaymentIntent made it first and left it so (waiting for the customer's authentication).
   */
  failNextCharge(how: 429 | 500 | 'lost', leaves?: 'requires_action'): void
  /** the Checkout Sessions by id, as GET /v1/checkout/sessions/{id} answers them (paySession and settleSession change them) */
  checkoutSessions: Map<string, Record<string, unknown>>
  /**
   * the session's payment as Stripe settles it later: an asynchronous method still processing
   * (complete, unpaid, its PaymentIntent processing), failed (its PaymentIntent requires_payment_method),
   * or the session expired unpaid
   */
  settleSession(sessionId: string, how: 'processing' | 'failed' | 'expired'): void
  /** the charges by id (ch_…), each of a succeeded PaymentIntent, with what was refunded of it */
  charges: Map<string, FakeCharge>
  /** the refunds made (POST /v1/refunds, and refundAtStripe), in order */
  refunds: Record<string, unknown>[]
  /** a refund made at Stripe itself (the Dashboard): of the PaymentIntent's charge, the whole rest unless `amount` */
  refundAtStripe(paymentIntent: string, amount?: number): { refund: string; charge: string }
  /** a charge.refunded event as Stripe posts it: the charge as it stands (amount_refunded), without its refunds */
  chargeEvent(type: 'charge.refunded', chargeId: string): FakeStripeEvent<FakeCharge>
  /** a card holder disputes the PaymentIntent's charge: a dispute (dp_…) in `status` (needs_response, or an inquiry's warning_needs_response) */
  openDispute(paymentIntent: string, status?: string): string
  /** the dispute is decided (or an inquiry closed: warning_closed) */
  closeDispute(disputeId: string, status: 'won' | 'lost' | 'warning_closed'): void
  /** a charge.dispute.* event as Stripe posts it: the dispute as it stands */
  disputeEvent(type: 'charge.dispute.created' | 'charge.dispute.closed', disputeId: string): FakeStripeEvent<Record<string, unknown>>
}

export interface FakeCharge {
  id: string
  object: 'charge'
  /** the card it was paid with (a Charge's payment_method_details.card) */
  payment_method_details: { type: 'card'; card: { brand: string; last4: string } } | null
  amount: number
  amount_captured: number
  amount_refunded: number
  currency: 'usd'
  payment_intent: string
  refunded: boolean
  disputed: boolean
  status: 'succeeded'
}

export type FakeStripeEvent<T> = ReturnType<typeof stripeEvent<T>>

/** A Stripe event as it posts it to the webhook. */
const stripeEvent = <T>(type: string, object: T, eventId = `evt_${Math.random().toString(36).slice(2, 14)}`) => ({
  id: eventId,
  object: 'event',
  api_version: '2025-01-01',
  created: Math.floor(Date.now() / 1000),
  livemode: false,
  pending_webhooks: 1,
  type,
  data: { object },
})

export async function startFakeStripe(): Promise<FakeStripe> {
  const sessions: Record<string, string>[] = []
  const intentsCreated: Record<string, string>[] = []
  const intents = new Map<string, Record<string, unknown>>()
  const cards = new Map<string, FakeCard>()
  /**
   * Stripe's idempotency: the first answer to a key (an error included, a 500 too) with the
   * parameters it was sent with; the same key with other parameters is an idempotency_error.
   */
  const replays = new Map<string, { path: string; params: string; status: number; body: unknown }>()
  const next: { failure: 429 | 500 | 'lost' | null; leaves: 'requires_action' | null } = { failure: null, leaves: null }
  const checkoutSessions = new Map<string, Record<string, unknown>>()
  const charges = new Map<string, FakeCharge>()
  const refunds: Record<string, unknown>[] = []
  const disputes = new Map<string, Record<string, unknown>>()
  const missing = (what: string, param: string, id: string) => ({
    status: 404,
    body: { error: { type: 'invalid_request_error', code: 'resource_missing', param, message: `No such ${what}: '${id}'` } },
  })
  /** a succeeded PaymentIntent's charge, as Stripe makes it (latest_charge) */
  const chargeOf = (intentId: string, amount: number, card: FakeCard | undefined): string => {
    const charge: FakeCharge = {
      id: `ch_${rand()}`,
      object: 'charge',
      payment_method_details: card ? { type: 'card', card: { brand: card.brand, last4: card.last4 } } : null,
      amount,
      amount_captured: amount,
      amount_refunded: 0,
      currency: 'usd',
      payment_intent: intentId,
      refunded: false,
      disputed: false,
      status: 'succeeded',
    }
    charges.set(charge.id, charge)
    return charge.id
  }
  /** a refund of a charge, as Stripe makes it (cards: succeeded at once) */
  const refundCharge = (charge: FakeCharge, amount: number, fields: Record<string, unknown> = {}) => {
    const refund = {
      id: `re_${rand()}`,
      object: 'refund',
      amount,
      charge: charge.id,
      payment_intent: charge.payment_intent,
      currency: 'usd',
      status: 'succeeded',
      reason: null,
      metadata: {},
      created: Math.floor(Date.now() / 1000),
      ...fields,
    }
    refunds.push(refund)
    charge.amount_refunded += amount
    charge.refunded = charge.amount_refunded >= charge.amount
    return refund
  }
  /** the parameters POST /v1/refunds takes (RefundCreateParams of the stripe package); any other is refused */
  const REFUND_PARAMS =
    /^(amount|charge|currency|customer|instructions_email|origin|payment_intent|reason|refund_application_fee|reverse_transfer|metadata\[[^\]]+\]|expand\[\d*\])$/

  /** POST /v1/refunds as Stripe answers it: of a PaymentIntent's (or a charge's) succeeded charge, never more than is left */
  function createRefund(form: Record<string, string>): { status: number; body: unknown } {
    const unknown = Object.keys(form).find((k) => !REFUND_PARAMS.test(k))
    if (unknown)
      return {
        status: 400,
        body: { error: { type: 'invalid_request_error', code: 'parameter_unknown', param: unknown, message: `Received unknown parameter: ${unknown}` } },
      }
    if (form.reason && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(form.reason))
      return { status: 400, body: { error: { type: 'invalid_request_error', code: 'parameter_invalid_string', param: 'reason', message: 'Invalid reason' } } }
    const intent = form.payment_intent ? intents.get(form.payment_intent) : undefined
    if (form.payment_intent && !intent) return missing('payment_intent', 'payment_intent', form.payment_intent)
    const charge = charges.get(form.charge ?? String(intent?.latest_charge ?? ''))
    if (!charge) {
      if (form.charge) return missing('charge', 'charge', form.charge)
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'payment_intent_unexpected_state',
            message: 'This PaymentIntent does not have a successful charge to refund.',
          },
        },
      }
    }
    const left = charge.amount - charge.amount_refunded
    if (left <= 0)
      return {
        status: 400,
        body: { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge ${charge.id} has already been refunded.` } },
      }
    const amount = form.amount === undefined ? left : Number(form.amount)
    if (!Number.isSafeInteger(amount) || amount <= 0)
      return { status: 400, body: { error: { type: 'invalid_request_error', code: 'parameter_invalid_integer', param: 'amount', message: 'Invalid integer' } } }
    if (amount > left)
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            param: 'amount',
            message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
          },
        },
      }
    const metadata = Object.fromEntries(
      Object.entries(form)
        .filter(([k]) => k.startsWith('metadata['))
        .map(([k, v]) => [k.slice('metadata['.length, -1), v]),
    )
    return { status: 200, body: refundCharge(charge, amount, { reason: form.reason ?? null, metadata }) }
  }

  /** a Checkout Session with its PaymentIntent expanded as asked (payment_intent, .latest_charge, .payment_method) */
  function expandedSession(session: Record<string, unknown>, expand: string[]) {
    const intentId = session.payment_intent as string | null
    const intent = intentId ? intents.get(intentId) : undefined
    if (!intent || !expand.some((e) => e === 'payment_intent' || e.startsWith('payment_intent.'))) return session
    const card = cards.get(String(intent.payment_method))
    return {
      ...session,
      payment_intent: {
        ...intent,
        ...(expand.includes('payment_intent.latest_charge') && intent.latest_charge
          ? { latest_charge: charges.get(String(intent.latest_charge)) ?? intent.latest_charge }
          : {}),
        ...(expand.includes('payment_intent.payment_method') && card ? { payment_method: cardObject(card) } : {}),
      },
    }
  }
  const rand = () => Math.random().toString(36).slice(2, 14)
  const cardObject = (c: FakeCard) => ({ id: c.id, object: 'payment_method', type: 'card', customer: c.customer, card: { brand: c.brand, last4: c.last4 } })
  const intentObject = (fields: Record<string, unknown>) => ({ object: 'payment_intent', currency: 'usd', livemode: false, ...fields })
  /** the card errors of Stripe's off-session failures: code, decline code, message */
  const CARD_ERRORS: Record<FakeCardFailure, { code: string; decline_code?: string; message: string }> = {
    authentication_required: {
      code: 'authentication_required',
      decline_code: 'authentication_required',
      message: 'Your card was declined. This transaction requires authentication.',
    },
    expired_card: { code: 'expired_card', message: 'Your card has expired.' },
    insufficient_funds: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    card_declined: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  }

  function createIntent(form: Record<string, string>, leaves: 'requires_action' | null = null): { status: number; body: unknown } {
    const amount = Number(form.amount)
    const card = cards.get(form.payment_method ?? '')
    if (!card) {
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'payment_method',
            message: `No such PaymentMethod: '${form.payment_method}'`,
          },
        },
      }
    }
    if (form.customer && card.customer !== form.customer) {
      return { status: 400, body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'customer', message: 'No such customer' } } }
    }
    const id = `pi_${rand()}`
    const base = {
      id,
      amount,
      customer: form.customer ?? null,
      payment_method: card.id,
      metadata: { transaction_id: form['metadata[transaction_id]'] },
      description: form.description ?? null,
    }
    if (card.failure) {
      const { code, decline_code, message } = CARD_ERRORS[card.failure]
      // an off-session attempt that fails leaves the PaymentIntent waiting for another payment method
      const intent = intentObject({ ...base, status: 'requires_payment_method', amount_received: 0 })
      const lastError = { type: 'card_error', code, ...(decline_code ? { decline_code } : {}), message }
      intents.set(id, { ...intent, last_payment_error: lastError })
      return { status: 402, body: { error: { ...lastError, payment_intent: { ...intent, last_payment_error: lastError } } } }
    }
    if (leaves === 'requires_action') {
      // the card asks for its holder's authentication: the PaymentIntent waits for them
      const intent = intentObject({ ...base, status: 'requires_action', amount_received: 0, next_action: { type: 'use_stripe_sdk' } })
      intents.set(id, intent)
      return { status: 200, body: intent }
    }
    const intent = intentObject({ ...base, status: 'succeeded', amount_received: amount, latest_charge: chargeOf(id, amount, card) })
    intents.set(id, intent)
    return { status: 200, body: intent }
  }

  /**
   * A POST under Stripe's idempotency rules: a known key with the same parameters replays its first
   * answer; with other parameters (or on another endpoint) it is refused with idempotency_error.
   */
  function idempotent(req: RecordedRequest, res: ServerResponse, run: () => { status: number; body: unknown } | null) {
    const key = req.headers['idempotency-key']
    if (typeof key === 'string') {
      const known = replays.get(key)
      if (known && (known.path !== req.path || known.params !== req.body)) {
        return json(res, 400, {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          },
        })
      }
      if (known)
        return json(res, known.status, known.body, { 'idempotent-replayed': 'true', ...(known.status >= 500 ? { 'stripe-should-retry': 'false' } : {}) })
    }
    const answer = run()
    if (!answer) return
    if (typeof key === 'string') replays.set(key, { path: req.path, params: req.body, ...answer })
    json(res, answer.status, answer.body, answer.status >= 500 ? { 'stripe-should-retry': 'false' } : {})
  }

  function createSession(encoded: string): { status: number; body: unknown } {
    const form = Object.fromEntries(new URLSearchParams(encoded))
    sessions.push(form)
    const id = `cs_test_${sessions.length}${Math.random().toString(36).slice(2, 10)}`
    let total = 0
    for (let i = 0; form[`line_items[${i}][quantity]`]; i++) {
      total += Number(form[`line_items[${i}][quantity]`]) * Number(form[`line_items[${i}][price_data][unit_amount]`])
    }
    const session: Record<string, unknown> = {
      id,
      object: 'checkout.session',
      mode: form.mode,
      status: 'open',
      payment_status: 'unpaid',
      amount_total: total,
      currency: 'usd',
      client_reference_id: form.client_reference_id ?? null,
      customer_email: form.customer_email ?? null,
      metadata: Object.fromEntries(
        Object.entries(form)
          .filter(([k]) => k.startsWith('metadata['))
          .map(([k, v]) => [k.slice('metadata['.length, -1), v]),
      ),
      customer_creation: form.customer_creation ?? null,
      expires_at: Number(form.expires_at),
      success_url: form.success_url,
      cancel_url: form.cancel_url,
      url: `https://checkout.stripe.test/c/pay/${id}`,
      // Stripe makes the PaymentIntent when the customer pays (paySession)
      payment_intent: null,
      customer: null,
    }
    checkoutSessions.set(id, session)
    return { status: 200, body: session }
  }

  const fake = await startServer(
    (req, res) => {
      const url = new URL(req.path, 'http://fake')
      if (!req.headers.authorization?.startsWith('Bearer sk_')) return json(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key' } })
      if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
        const form = Object.fromEntries(new URLSearchParams(req.body))
        const { failure, leaves } = next
        next.failure = null
        next.leaves = null
        // too many requests: refused before it runs, so nothing is kept for its key
        if (failure === 429) return json(res, 429, { error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests.' } })
        return idempotent(req, res, () => {
          if (failure === 500) {
            // a 500 after the work was done: the PaymentIntent exists, the answer says nothing of it
            if (leaves) {
              intentsCreated.push(form)
              createIntent(form, leaves)
            }
            return { status: 500, body: { error: { type: 'api_error', message: 'An unknown error occurred.' } } }
          }
          intentsCreated.push(form)
          const answer = createIntent(form)
          if (failure !== 'lost') return answer
          res.socket?.destroy()
          // and the network stays down (the client's own retry included) until the test says 'ok'
          fake.mode = 'drop'
          // kept for its key all the same: a retry with the key gets the charge that was made
          const key = req.headers['idempotency-key']
          if (typeof key === 'string') replays.set(key, { path: req.path, params: req.body, ...answer })
          return null
        })
      }
      if (req.method === 'GET' && url.pathname === '/v1/payment_intents') {
        // the customer's PaymentIntents, newest first (Stripe's list is consistent at once, unlike its search)
        const customer = url.searchParams.get('customer')
        const limit = Number(url.searchParams.get('limit') ?? 10)
        const data = [...intents.values()].filter((i) => !customer || i.customer === customer).reverse()
        return json(res, 200, { object: 'list', url: '/v1/payment_intents', has_more: data.length > limit, data: data.slice(0, limit) })
      }
      const intentPath = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname)
      if (req.method === 'GET' && intentPath) {
        const intent = intents.get(intentPath[1]!)
        if (!intent) return json(res, 404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' } })
        const expand = [...url.searchParams.entries()].filter(([k]) => k.startsWith('expand')).map(([, v]) => v)
        const card = cards.get(String(intent.payment_method))
        return json(res, 200, expand.includes('payment_method') && card ? { ...intent, payment_method: cardObject(card) } : intent)
      }
      if (req.method === 'POST' && req.path === '/v1/checkout/sessions') return idempotent(req, res, () => createSession(req.body))
      const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname)
      if (req.method === 'GET' && sessionPath) {
        const session = checkoutSessions.get(decodeURIComponent(sessionPath[1]!))
        if (!session) {
          const gone = missing('checkout.session', 'session', sessionPath[1]!)
          return json(res, gone.status, gone.body)
        }
        const expand = [...url.searchParams.entries()].filter(([k]) => k.startsWith('expand')).map(([, v]) => v)
        return json(res, 200, expandedSession(session, expand))
      }
      if (req.method === 'POST' && req.path === '/v1/refunds')
        return idempotent(req, res, () => createRefund(Object.fromEntries(new URLSearchParams(req.body))))
      if (req.method === 'GET' && url.pathname === '/v1/refunds') {
        // a charge's (or a PaymentIntent's) refunds, newest first, paged as Stripe pages a list
        const charge = url.searchParams.get('charge')
        const intent = url.searchParams.get('payment_intent')
        const limit = Number(url.searchParams.get('limit') ?? 10)
        const after = url.searchParams.get('starting_after')
        let data = refunds.filter((r) => (!charge || r.charge === charge) && (!intent || r.payment_intent === intent)).reverse()
        if (after) data = data.slice(data.findIndex((r) => r.id === after) + 1)
        return json(res, 200, { object: 'list', url: '/v1/refunds', has_more: data.length > limit, data: data.slice(0, limit) })
      }
      json(res, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.path})` } })
    },
    (status) => ({
      error:
        status === 402
          ? { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' }
          : { type: status >= 500 ? 'api_error' : 'invalid_request_error', message: `fake Stripe answers ${status}` },
    }),
  )
  return Object.assign(fake, {
    sessions,
    intentsCreated,
    intents,
    paySession(sessionId: string, card: { brand?: string; last4?: string } = {}) {
      const customer = `cus_${rand()}`
      const pm: FakeCard = { id: `pm_${rand()}`, customer, brand: card.brand ?? 'visa', last4: card.last4 ?? '4242', failure: null }
      cards.set(pm.id, pm)
      const session = checkoutSessions.get(sessionId)
      // an asynchronous payment that was processing succeeds on its own PaymentIntent
      const id = (session?.payment_intent as string | null | undefined) ?? `pi_${rand()}`
      const amount = Number(session?.amount_total ?? 0)
      intents.set(
        id,
        intentObject({
          id,
          status: 'succeeded',
          amount,
          amount_received: amount,
          customer,
          payment_method: pm.id,
          setup_future_usage: 'off_session',
          metadata: session ? session.metadata : { session: sessionId },
          latest_charge: chargeOf(id, amount, pm),
        }),
      )
      // the session Stripe knows is complete and paid, with its PaymentIntent (and the Customer it made, if asked)
      if (session)
        Object.assign(session, {
          status: 'complete',
          payment_status: 'paid',
          payment_intent: id,
          customer: session.customer_creation === 'always' ? customer : null,
        })
      return { paymentIntent: id, customer, paymentMethod: pm.id }
    },
    settleSession(sessionId: string, how: 'processing' | 'failed' | 'expired') {
      const session = checkoutSessions.get(sessionId)
      if (!session || (session.status !== 'open' && how === 'expired')) throw new Error(`no open fake session ${sessionId}`)
      if (how === 'expired') return void Object.assign(session, { status: 'expired' })
      const id = (session.payment_intent as string | null) ?? `pi_${rand()}`
      const amount = Number(session.amount_total)
      const lastError = { type: 'card_error', code: 'payment_intent_payment_attempt_failed', message: 'The payment failed.' }
      intents.set(
        id,
        intentObject({
          id,
          amount,
          amount_received: 0,
          customer: null,
          payment_method: null,
          metadata: session.metadata,
          ...(how === 'processing' ? { status: 'processing' } : { status: 'requires_payment_method', last_payment_error: lastError }),
        }),
      )
      Object.assign(session, { status: 'complete', payment_status: 'unpaid', payment_intent: id })
    },
    refundAtStripe(paymentIntent: string, amount?: number) {
      const charge = charges.get(String(intents.get(paymentIntent)?.latest_charge ?? ''))
      if (!charge) throw new Error(`no charge of fake PaymentIntent ${paymentIntent}`)
      const refund = refundCharge(charge, amount ?? charge.amount - charge.amount_refunded)
      return { refund: refund.id, charge: charge.id }
    },
    chargeEvent(type: 'charge.refunded', chargeId: string) {
      const charge = charges.get(chargeId)
      if (!charge) throw new Error(`no fake charge ${chargeId}`)
      return stripeEvent(type, { ...charge })
    },
    openDispute(paymentIntent: string, status = 'needs_response') {
      const charge = charges.get(String(intents.get(paymentIntent)?.latest_charge ?? ''))
      if (!charge) throw new Error(`no charge of fake PaymentIntent ${paymentIntent}`)
      const id = `dp_${rand()}`
      charge.disputed = true
      disputes.set(id, {
        id,
        object: 'dispute',
        amount: charge.amount,
        currency: 'usd',
        charge: charge.id,
        payment_intent: paymentIntent,
        reason: 'fraudulent',
        status,
        is_charge_refundable: false,
        livemode: false,
        metadata: {},
        created: Math.floor(Date.now() / 1000),
      })
      return id
    },
    closeDispute(disputeId: string, status: 'won' | 'lost' | 'warning_closed') {
      const dispute = disputes.get(disputeId)
      if (!dispute) throw new Error(`no fake dispute ${disputeId}`)
      dispute.status = status
    },
    disputeEvent(type: 'charge.dispute.created' | 'charge.dispute.closed', disputeId: string) {
      const dispute = disputes.get(disputeId)
      if (!dispute) throw new Error(`no fake dispute ${disputeId}`)
      return stripeEvent(type, { ...dispute })
    },
    addCard(customer: string, card: { brand?: string; last4?: string } = {}) {
      const pm: FakeCard = { id: `pm_${rand()}`, customer, brand: card.brand ?? 'mastercard', last4: card.last4 ?? '4444', failure: null }
      cards.set(pm.id, pm)
      return pm.id
    },
    declineCard(paymentMethodId: string, failure: FakeCardFailure = 'insufficient_funds') {
      const card = cards.get(paymentMethodId)
      if (!card) throw new Error(`no fake card ${paymentMethodId}`)
      card.failure = failure
    },
    failNextCharge(how: 429 | 500 | 'lost', leaves?: 'requires_action') {
      next.failure = how
      next.leaves = leaves ?? null
    },
    checkoutSessions,
    charges,
    refunds,
  })
}

/** A Stripe event about a Checkout Session, as Stripe posts it to the webhook. */
export function stripeSessionEvent(
  type: string,
  session: {
    id: string
    amount_total?: number
    payment_status?: string
    transaction_id?: number
    /** a subscription-mode session (metadata portal_mode), paid with this PaymentIntent by this customer */
    subscription?: { paymentIntent: string; customer: string }
    /** the PaymentIntent that paid it (paySession's), when not a subscription's */
    paymentIntent?: string
  },
  eventId = `evt_${Math.random().toString(36).slice(2, 14)}`,
) {
  return stripeEvent(
    type,
    {
      id: session.id,
      object: 'checkout.session',
      mode: 'payment',
      status: type === 'checkout.session.expired' ? 'expired' : 'complete',
      payment_status: session.payment_status ?? (type === 'checkout.session.completed' ? 'paid' : 'unpaid'),
      amount_total: session.amount_total ?? null,
      currency: 'usd',
      client_reference_id: session.transaction_id === undefined ? null : String(session.transaction_id),
      metadata: {
        ...(session.transaction_id === undefined ? {} : { transaction_id: String(session.transaction_id) }),
        ...(session.subscription ? { portal_mode: 'subscription' } : {}),
      },
      customer: session.subscription?.customer ?? null,
      payment_intent: session.subscription?.paymentIntent ?? session.paymentIntent ?? 'pi_fake',
    },
    eventId,
  )
}

// ---------------------------------------------------------------- PayPal

interface FakeCapture {
  id: string
  status: string
  amount: { currency_code: string; value: string }
  status_details?: { reason: string }
}

interface FakeOrder {
  id: string
  body: Record<string, unknown>
  amount: string
  approved: boolean
  /** the payer's funding is refused at capture */
  declines: boolean
  /** PayPal needs the payer back before it captures (PAYER_ACTION_REQUIRED): the capture is refused and the order waits for them */
  payerAction: boolean
  capture: FakeCapture | null
  /** the wallet vaulted at capture (a subscription checkout), or the one a merchant-initiated order pays with */
  vault: FakeVault | null
}

interface FakeVault {
  id: string
  customerId: string
  email: string
  /**
   * a charge on it: 'refused' answers 422 INSTRUMENT_DECLINED, 'capture_declined' a COMPLETED order
   * whose capture is DECLINED, 'payer_action' an order waiting for the payer (status PAYER_ACTION_REQUIRED, no capture)
   */
  declines: 'refused' | 'capture_declined' | 'payer_action' | null
}

export interface FakePaypal extends FakeServer {
  orders: Map<string, FakeOrder>
  /** how many OAuth tokens the fake handed out */
  tokensIssued(): number
  /** PayPal revokes every token it issued (the next call with one answers 401) */
  revokeTokens(): void
  /**
   * the buyer approves the order in PayPal's window; `declines`: their funding is refused at capture
   * (INSTRUMENT_DECLINED); `payerAction`: PayPal wants them back before it captures (PAYER_ACTION_REQUIRED)
   */
  approve(orderId: string, opts?: { declines?: boolean; payerAction?: boolean }): void
  /** the wallets vaulted, by vault id */
  vaults: Map<string, FakeVault>
  /** charges on the vaulted wallet are refused (422) or their capture declined */
  declineVault(vaultId: string, how?: 'refused' | 'capture_declined' | 'payer_action'): void
  /** orders on a vault_id answer APPROVED (the portal captures them) instead of COMPLETED */
  vaultOrdersNeedCapture: boolean
  /** PayPal holds every new capture: status PENDING with this reason, until `settleCapture` */
  holdCaptures: 'PENDING_REVIEW' | 'ECHECK' | null
  /** PayPal completes (or denies) a capture it held, as it does later on its own */
  settleCapture(captureId: string, status: 'COMPLETED' | 'DECLINED'): void
  /** the account has PayPal's vault approval (false: an order asking to vault is refused, 403 NOT_ENABLED_TO_VAULT_PAYMENT_SOURCE) */
  vaultApproved: boolean
  /** the capture of an order that asked to vault completes without vaulting (no vault id in the answer) */
  vaultFailsAtCapture: boolean
  /** PayPal's clock, in ms: a PayPal-Request-Id is honoured for 6 hours of it */
  now: () => number
  /** the id of the portal's webhook at this fake PayPal (PAYPAL_WEBHOOK_ID): verify-webhook-signature checks it */
  webhookId: string
  /**
   * a webhook as PayPal posts it: the JSON body and PayPal's transmission headers, signed so that
   * only this fake's verify-webhook-signature (with the right webhook id) answers SUCCESS
   */
  webhook(eventType: string, resource: Record<string, unknown>): { body: string; headers: Record<string, string> }
  /** a capture's webhook resource (PAYMENT.CAPTURE.*): the capture as it stands, with its order */
  captureResource(orderId: string): Record<string, unknown>
  /** the refunds made (POST /v2/payments/captures/{id}/refund), PayPal-Request-Id honoured */
  refunds: { id: string; status: string; amount: { currency_code: string; value: string }; capture: string }[]
  /** a refund's webhook resource (PAYMENT.CAPTURE.REFUNDED): the refund, linked up to its capture */
  refundResource(refundId: string): Record<string, unknown>
  /** how many verify-webhook-signature calls answered SUCCESS / FAILURE */
  verifications: { success: number; failure: number }
}

/** How long PayPal honours a PayPal-Request-Id (its documented default). */
export const PAYPAL_REQUEST_ID_TTL_MS = 6 * 3600_000

/**
 * The create-order request as PayPal's checkout_orders_v2 specification has it, for the fields the
 * portal sends: lengths, patterns and enums of the spec, and unknown fields refused (strict), so a
 * misnamed or misplaced field fails here as it would at PayPal.
 */
const money = z.strictObject({
  currency_code: z.string().length(3),
  value: z
    .string()
    .max(32)
    .regex(/^((-?[0-9]+)|(-?([0-9]+)?[.][0-9]+))$/),
})
const orderRequestSchema = z.strictObject({
  intent: z.enum(['CAPTURE', 'AUTHORIZE']),
  purchase_units: z
    .array(
      z.strictObject({
        reference_id: z.string().min(1).max(256).optional(),
        description: z.string().min(1).max(127).optional(),
        custom_id: z.string().min(1).max(255).optional(),
        invoice_id: z.string().min(1).max(127).optional(),
        soft_descriptor: z.string().min(1).max(22).optional(),
        amount: money.extend({ breakdown: z.strictObject({ item_total: money.optional() }).optional() }),
        payee: z
          .strictObject({
            merchant_id: z
              .string()
              .regex(/^[2-9A-HJ-NP-Z]{13}$/)
              .optional(),
            email_address: z.email().optional(),
          })
          .optional(),
        items: z
          .array(
            z.strictObject({
              name: z.string().min(1).max(127),
              quantity: z.string().regex(/^[1-9][0-9]{0,9}$/),
              unit_amount: money,
              category: z.enum(['DIGITAL_GOODS', 'PHYSICAL_GOODS', 'DONATION']).optional(),
              description: z.string().max(2048).optional(),
              sku: z.string().max(127).optional(),
            }),
          )
          .optional(),
      }),
    )
    .min(1)
    .max(10),
  payment_source: z
    .strictObject({
      paypal: z.strictObject({
        vault_id: z
          .string()
          .min(1)
          .max(255)
          .regex(/^[0-9a-zA-Z_-]+$/)
          .optional(),
        email_address: z.email().max(254).optional(),
        experience_context: z
          .strictObject({
            brand_name: z.string().min(1).max(127).optional(),
            locale: z
              .string()
              .min(2)
              .max(10)
              .regex(/^[a-z]{2}(?:-[A-Z][a-z]{3})?(?:-(?:[A-Z]{2}|[0-9]{3}))?$/)
              .optional(),
            shipping_preference: z.enum(['GET_FROM_FILE', 'NO_SHIPPING', 'SET_PROVIDED_ADDRESS']).optional(),
            user_action: z.enum(['CONTINUE', 'PAY_NOW']).optional(),
            return_url: z.url().optional(),
            cancel_url: z.url().optional(),
          })
          .optional(),
        attributes: z
          .strictObject({
            vault: z.strictObject({
              store_in_vault: z.literal('ON_SUCCESS'),
              usage_type: z.enum(['MERCHANT', 'PLATFORM']),
              customer_type: z.enum(['CONSUMER', 'BUSINESS']).optional(),
              permit_multiple_payment_tokens: z.boolean().optional(),
            }),
          })
          .optional(),
        stored_credential: z
          .strictObject({
            payment_initiator: z.enum(['CUSTOMER', 'MERCHANT']),
            charge_pattern: z.string().optional(),
            usage_pattern: z
              .enum([
                'IMMEDIATE',
                'DEFERRED',
                'RECURRING_PREPAID',
                'RECURRING_POSTPAID',
                'THRESHOLD_PREPAID',
                'THRESHOLD_POSTPAID',
                'SUBSCRIPTION_PREPAID',
                'SUBSCRIPTION_POSTPAID',
                'UNSCHEDULED_PREPAID',
                'UNSCHEDULED_POSTPAID',
                'INSTALLMENT_PREPAID',
                'INSTALLMENT_POSTPAID',
              ])
              .optional(),
            usage: z.enum(['FIRST', 'SUBSEQUENT', 'DERIVED']).optional(),
          })
          .optional(),
      }),
    })
    .optional(),
})

export const FAKE_PAYPAL_CLIENT = { id: 'fake-client-id', secret: 'fake-client-secret' }
export const FAKE_PAYER_EMAIL = 'buyer@example.com'

export async function startFakePaypal(): Promise<FakePaypal> {
  const orders = new Map<string, FakeOrder>()
  const vaults = new Map<string, FakeVault>()
  /** PayPal-Request-Id → the answer it had (whatever the body of a later request with it), for 6 hours */
  const requestIds = new Map<string, { at: number; status: number; body: unknown }>()
  const captures = new Map<string, FakeCapture>()
  const tokens = new Set<string>()
  const state = { tokensIssued: 0 }
  const newCapture = (o: FakeOrder, status = 'COMPLETED'): FakeCapture => {
    const hold = status === 'COMPLETED' ? (fake as Partial<FakePaypal>).holdCaptures : null
    const capture: FakeCapture = {
      id: `CAP${Math.random().toString(36).slice(2, 14).toUpperCase()}`,
      status: hold ? 'PENDING' : status,
      amount: { currency_code: 'USD', value: o.amount },
      ...(hold ? { status_details: { reason: hold } } : {}),
    }
    captures.set(capture.id, capture)
    return capture
  }
  const wantsVault = (o: FakeOrder) =>
    (o.body.payment_source as { paypal?: { attributes?: { vault?: { store_in_vault?: string } } } } | undefined)?.paypal?.attributes?.vault?.store_in_vault ===
    'ON_SUCCESS'
  const unprocessable = (issue: string, description?: string) => ({
    name: 'UNPROCESSABLE_ENTITY',
    message: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
    details: [{ issue, ...(description ? { description } : {}) }],
  })
  const view = (o: FakeOrder) => ({
    id: o.id,
    status: o.capture ? 'COMPLETED' : o.approved ? 'APPROVED' : 'PAYER_ACTION_REQUIRED',
    payer: o.approved ? { email_address: o.vault?.email ?? FAKE_PAYER_EMAIL, payer_id: 'PAYERFAKE' } : undefined,
    ...(o.approved
      ? {
          payment_source: {
            paypal: {
              email_address: o.vault?.email ?? FAKE_PAYER_EMAIL,
              account_id: 'PAYERFAKE',
              ...(o.vault && o.capture ? { attributes: { vault: { id: o.vault.id, status: 'VAULTED', customer: { id: o.vault.customerId } } } } : {}),
            },
          },
        }
      : {}),
    purchase_units: [
      {
        reference_id: (o.body.purchase_units as { reference_id?: string }[])[0]?.reference_id,
        custom_id: (o.body.purchase_units as { custom_id?: string }[])[0]?.custom_id,
        amount: { currency_code: 'USD', value: o.amount },
        ...(o.capture ? { payments: { captures: [o.capture] } } : {}),
      },
    ],
    links: [
      { href: `${fake.url}/v2/checkout/orders/${o.id}`, rel: 'self', method: 'GET' },
      { href: `https://www.sandbox.paypal.test/checkoutnow?token=${o.id}`, rel: 'payer-action', method: 'GET' },
    ],
  })

  /** one call to PayPal's API, answered as PayPal would (the caller handles PayPal-Request-Id) */
  function route(req: RecordedRequest): { status: number; body: unknown } {
    if (req.method === 'POST' && req.path === '/v1/notifications/verify-webhook-signature') return verify(req)
    if (req.method === 'POST' && req.path === '/v2/checkout/orders') {
      const parsed = orderRequestSchema.safeParse(JSON.parse(req.body))
      if (!parsed.success) {
        const details = parsed.error.issues.map((i) => ({ field: `/${i.path.join('/')}`, issue: 'INVALID_PARAMETER_SYNTAX', description: i.message }))
        return { status: 400, body: { name: 'INVALID_REQUEST', message: 'Request is not well-formed, syntactically incorrect, or violates schema.', details } }
      }
      const body = parsed.data as Record<string, unknown>
      if (wantsVault({ body } as FakeOrder) && !self().vaultApproved)
        return {
          status: 403,
          body: {
            name: 'NOT_AUTHORIZED',
            message: 'Authorization failed due to insufficient permissions.',
            details: [{ issue: 'NOT_ENABLED_TO_VAULT_PAYMENT_SOURCE' }],
          },
        }
      const unit = (body.purchase_units as { amount: { value: string } }[])[0]!
      const vaultId = (body.payment_source as { paypal?: { vault_id?: string } } | undefined)?.paypal?.vault_id
      const id = `${5 + orders.size}FAKE${Math.random().toString(36).slice(2, 12).toUpperCase()}`
      const order: FakeOrder = { id, body, amount: unit.amount.value, approved: false, declines: false, payerAction: false, capture: null, vault: null }
      if (vaultId) {
        const vault = vaults.get(vaultId)
        if (!vault) return { status: 422, body: unprocessable('INVALID_RESOURCE_ID') }
        if (vault.declines === 'refused') return { status: 422, body: unprocessable('INSTRUMENT_DECLINED') }
        if (vault.declines === 'payer_action') {
          // PayPal wants the payer for this wallet: the order waits for them, nothing captured
          Object.assign(order, { vault })
          orders.set(id, order)
          return { status: 201, body: view(order) }
        }
        // no buyer to ask: approved at once, and (unless told otherwise) captured in the same call
        Object.assign(order, { vault, approved: true, declines: vault.declines === 'capture_declined' })
        if (!self().vaultOrdersNeedCapture) order.capture = newCapture(order, order.declines ? 'DECLINED' : 'COMPLETED')
      }
      orders.set(id, order)
      return { status: vaultId ? 201 : 200, body: view(order) }
    }
    const refundPath = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(req.path)
    if (req.method === 'POST' && refundPath) {
      const capture = captures.get(decodeURIComponent(refundPath[1]!))
      if (!capture) return { status: 404, body: { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] } }
      if (capture.status !== 'COMPLETED' && capture.status !== 'PARTIALLY_REFUNDED') return { status: 422, body: unprocessable('CAPTURE_FULLY_REFUNDED') }
      const body = (req.body ? JSON.parse(req.body) : {}) as { amount?: { currency_code: string; value: string } }
      const refund = {
        id: `REF${Math.random().toString(36).slice(2, 14).toUpperCase()}`,
        status: 'COMPLETED',
        amount: body.amount ?? capture.amount,
        capture: capture.id,
      }
      self().refunds.push(refund)
      capture.status = body.amount && body.amount.value !== capture.amount.value ? 'PARTIALLY_REFUNDED' : 'REFUNDED'
      return { status: 201, body: { id: refund.id, status: refund.status, amount: refund.amount } }
    }
    const m = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(req.path)
    const order = m ? orders.get(decodeURIComponent(m[1]!)) : undefined
    if (m && !order) return { status: 404, body: { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] } }
    if (order && req.method === 'GET' && !m![2]) return { status: 200, body: view(order) }
    if (order && req.method === 'POST' && m![2]) {
      if (order.capture) return { status: 422, body: unprocessable('ORDER_ALREADY_CAPTURED') }
      if (!order.approved) return { status: 422, body: unprocessable('ORDER_NOT_APPROVED') }
      if (order.declines) return { status: 422, body: unprocessable('INSTRUMENT_DECLINED') }
      if (order.payerAction) {
        // "Transaction cannot complete successfully, instruct the buyer to return to PayPal": the order waits for the payer again
        order.approved = false
        return {
          status: 422,
          body: unprocessable('PAYER_ACTION_REQUIRED', 'Transaction cannot complete successfully, instruct the buyer to return to PayPal.'),
        }
      }
      order.capture = newCapture(order)
      if (wantsVault(order) && !order.vault && !self().vaultFailsAtCapture) {
        const vault: FakeVault = {
          id: `VT${Math.random().toString(36).slice(2, 10)}`,
          customerId: `CUST${Math.random().toString(36).slice(2, 8)}`,
          email: FAKE_PAYER_EMAIL,
          declines: null,
        }
        vaults.set(vault.id, vault)
        order.vault = vault
      }
      return { status: 201, body: view(order) }
    }
    return { status: 404, body: { name: 'NOT_FOUND', message: `no fake for ${req.method} ${req.path}` } }
  }
  const self = () => fake as FakePaypal
  const webhookSecret = Math.random().toString(36).slice(2)
  const transmissionSig = (id: string, time: string, webhookId: string, body: string) =>
    createHmac('sha256', webhookSecret).update(`${id}|${time}|${webhookId}|${body}`).digest('base64')
  /** PayPal's verify-webhook-signature: SUCCESS when the transmission was signed by this fake for the portal's webhook id */
  function verify(req: RecordedRequest): { status: number; body: unknown } {
    const b = JSON.parse(req.body) as Record<string, unknown>
    const fields = ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id'] as const
    if (fields.some((f) => typeof b[f] !== 'string') || typeof b.webhook_event !== 'object')
      return { status: 400, body: { name: 'VALIDATION_ERROR', message: 'Invalid request - see details', details: [{ issue: 'MISSING_REQUIRED_PARAMETER' }] } }
    const expected = transmissionSig(String(b.transmission_id), String(b.transmission_time), String(b.webhook_id), JSON.stringify(b.webhook_event))
    const ok = b.webhook_id === self().webhookId && b.transmission_sig === expected
    self().verifications[ok ? 'success' : 'failure']++
    return { status: 200, body: { verification_status: ok ? 'SUCCESS' : 'FAILURE' } }
  }

  const fake: FakeServer = await startServer(
    (req, res) => {
      if (req.method === 'POST' && req.path === '/v1/oauth2/token') {
        const expected = `Basic ${Buffer.from(`${FAKE_PAYPAL_CLIENT.id}:${FAKE_PAYPAL_CLIENT.secret}`).toString('base64')}`
        if (req.headers.authorization !== expected || req.body !== 'grant_type=client_credentials')
          return json(res, 401, { error: 'invalid_client', error_description: 'Client Authentication failed' })
        const token = `A21AA${Math.random().toString(36).slice(2)}`
        tokens.add(token)
        state.tokensIssued++
        return json(res, 200, {
          scope: 'https://uri.paypal.com/services/payments',
          access_token: token,
          token_type: 'Bearer',
          app_id: 'APP-FAKE',
          expires_in: 32400,
        })
      }
      const bearer = req.headers.authorization?.replace(/^Bearer /, '')
      if (!bearer || !tokens.has(bearer)) return json(res, 401, { error: 'invalid_token', error_description: 'Token signature verification failed' })

      // PayPal's idempotency: a PayPal-Request-Id answers its first answer, whatever the body, for 6 hours; then it runs again
      const requestId = req.method === 'POST' ? req.headers['paypal-request-id'] : undefined
      const known = typeof requestId === 'string' ? requestIds.get(requestId) : undefined
      if (known && self().now() - known.at < PAYPAL_REQUEST_ID_TTL_MS) return json(res, known.status, known.body)
      const answer = route(req)
      if (typeof requestId === 'string') requestIds.set(requestId, { at: self().now(), ...answer })
      json(res, answer.status, answer.body)
    },
    (status) => ({ name: status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'UNPROCESSABLE_ENTITY', message: `fake PayPal answers ${status}`, details: [] }),
  )
  return Object.assign(fake, {
    orders,
    vaults,
    vaultOrdersNeedCapture: false,
    holdCaptures: null,
    vaultApproved: true,
    vaultFailsAtCapture: false,
    now: () => Date.now(),
    webhookId: 'WH-FAKE-PORTAL',
    refunds: [],
    refundResource(refundId: string) {
      const refund = self().refunds.find((r) => r.id === refundId)
      if (!refund) throw new Error(`no fake refund ${refundId}`)
      return {
        id: refund.id,
        status: refund.status,
        amount: refund.amount,
        links: [{ href: `${fake.url}/v2/payments/captures/${refund.capture}`, rel: 'up', method: 'GET' }],
      }
    },
    verifications: { success: 0, failure: 0 },
    webhook(eventType: string, resource: Record<string, unknown>) {
      const event = {
        id: `WH-${Math.random().toString(36).slice(2, 14).toUpperCase()}`,
        event_version: '1.0',
        create_time: new Date(self().now()).toISOString(),
        resource_type: eventType.startsWith('VAULT.') ? 'payment_token' : eventType.endsWith('REFUNDED') ? 'refund' : 'capture',
        event_type: eventType,
        summary: eventType,
        resource,
      }
      const body = JSON.stringify(event)
      const id = `${Math.random().toString(36).slice(2)}-fake`
      const time = new Date(self().now()).toISOString()
      return {
        body,
        headers: {
          'content-type': 'application/json',
          'paypal-auth-algo': 'SHA256withRSA',
          'paypal-cert-url': `${fake.url}/v1/notifications/certs/CERT-FAKE`,
          'paypal-transmission-id': id,
          'paypal-transmission-time': time,
          'paypal-transmission-sig': transmissionSig(id, time, self().webhookId, body),
        },
      }
    },
    captureResource(orderId: string) {
      const order = orders.get(orderId)
      if (!order?.capture) throw new Error(`no captured fake order ${orderId}`)
      return { ...order.capture, supplementary_data: { related_ids: { order_id: order.id } } }
    },
    settleCapture(captureId: string, status: 'COMPLETED' | 'DECLINED') {
      const capture = captures.get(captureId)
      if (!capture || capture.status !== 'PENDING') throw new Error(`no pending fake capture ${captureId}`)
      capture.status = status
      delete capture.status_details
    },
    declineVault(vaultId: string, how: 'refused' | 'capture_declined' | 'payer_action' = 'refused') {
      const vault = vaults.get(vaultId)
      if (!vault) throw new Error(`no fake vault ${vaultId}`)
      vault.declines = how
    },
    tokensIssued: () => state.tokensIssued,
    revokeTokens: () => tokens.clear(),
    approve(orderId: string, opts: { declines?: boolean; payerAction?: boolean } = {}) {
      const order = orders.get(orderId)
      if (!order) throw new Error(`no fake order ${orderId}`)
      order.approved = true
      order.declines = opts.declines ?? false
      order.payerAction = opts.payerAction ?? false
    },
  })
}
