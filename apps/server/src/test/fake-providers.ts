import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

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

async function startServer(handle: (req: RecordedRequest, res: ServerResponse) => void, failure: (status: number) => unknown): Promise<FakeServer> {
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

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${Math.random().toString(36).slice(2)}` })
  res.end(JSON.stringify(body))
}

// ---------------------------------------------------------------- Stripe

interface FakeCard {
  id: string
  customer: string | null
  brand: string
  last4: string
  /** an off-session charge on it fails with this decline code */
  declineCode: string | null
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
   * a succeeded PaymentIntent, as Stripe makes them for a session with customer_creation always
   */
  paySession(sessionId: string, card?: { brand?: string; last4?: string }): { paymentIntent: string; customer: string; paymentMethod: string }
  /** every later charge on the card fails as a card error with this decline code */
  declineCard(paymentMethodId: string, declineCode?: string): void
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const sessions: Record<string, string>[] = []
  const intentsCreated: Record<string, string>[] = []
  const intents = new Map<string, Record<string, unknown>>()
  const cards = new Map<string, FakeCard>()
  /** Stripe's idempotency: the first answer to a key, replayed for the same key */
  const replays = new Map<string, { status: number; body: unknown }>()
  const rand = () => Math.random().toString(36).slice(2, 14)
  const cardObject = (c: FakeCard) => ({ id: c.id, object: 'payment_method', type: 'card', customer: c.customer, card: { brand: c.brand, last4: c.last4 } })
  const intentObject = (fields: Record<string, unknown>) => ({ object: 'payment_intent', currency: 'usd', livemode: false, ...fields })

  function createIntent(form: Record<string, string>): { status: number; body: unknown } {
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
    if (card.declineCode) {
      const intent = intentObject({ ...base, status: 'requires_payment_method', amount_received: 0 })
      intents.set(id, intent)
      return {
        status: 402,
        body: {
          error: {
            type: 'card_error',
            code: 'card_declined',
            decline_code: card.declineCode,
            message: 'Your card was declined.',
            payment_intent: { ...intent, last_payment_error: { code: 'card_declined', decline_code: card.declineCode } },
          },
        },
      }
    }
    const intent = intentObject({ ...base, status: 'succeeded', amount_received: amount, latest_charge: `ch_${rand()}` })
    intents.set(id, intent)
    return { status: 200, body: intent }
  }

  const fake = await startServer(
    (req, res) => {
      const url = new URL(req.path, 'http://fake')
      if (!req.headers.authorization?.startsWith('Bearer sk_')) return json(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key' } })
      if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
        const form = Object.fromEntries(new URLSearchParams(req.body))
        const key = req.headers['idempotency-key']
        const known = typeof key === 'string' ? replays.get(key) : undefined
        if (known) return json(res, known.status, known.body)
        intentsCreated.push(form)
        const answer = createIntent(form)
        if (typeof key === 'string') replays.set(key, answer)
        return json(res, answer.status, answer.body)
      }
      const intentPath = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname)
      if (req.method === 'GET' && intentPath) {
        const intent = intents.get(intentPath[1]!)
        if (!intent) return json(res, 404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' } })
        const expand = [...url.searchParams.entries()].filter(([k]) => k.startsWith('expand')).map(([, v]) => v)
        const card = cards.get(String(intent.payment_method))
        return json(res, 200, expand.includes('payment_method') && card ? { ...intent, payment_method: cardObject(card) } : intent)
      }
      if (req.method === 'POST' && req.path === '/v1/checkout/sessions') {
        const form = Object.fromEntries(new URLSearchParams(req.body))
        sessions.push(form)
        const id = `cs_test_${sessions.length}${Math.random().toString(36).slice(2, 10)}`
        let total = 0
        for (let i = 0; form[`line_items[${i}][quantity]`]; i++) {
          total += Number(form[`line_items[${i}][quantity]`]) * Number(form[`line_items[${i}][price_data][unit_amount]`])
        }
        return json(res, 200, {
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
        })
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
      const pm: FakeCard = { id: `pm_${rand()}`, customer, brand: card.brand ?? 'visa', last4: card.last4 ?? '4242', declineCode: null }
      cards.set(pm.id, pm)
      const id = `pi_${rand()}`
      intents.set(
        id,
        intentObject({ id, status: 'succeeded', customer, payment_method: pm.id, setup_future_usage: 'off_session', metadata: { session: sessionId } }),
      )
      return { paymentIntent: id, customer, paymentMethod: pm.id }
    },
    declineCard(paymentMethodId: string, declineCode = 'insufficient_funds') {
      const card = cards.get(paymentMethodId)
      if (!card) throw new Error(`no fake card ${paymentMethodId}`)
      card.declineCode = declineCode
    },
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
  },
  eventId = `evt_${Math.random().toString(36).slice(2, 14)}`,
) {
  return {
    id: eventId,
    object: 'event',
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    type,
    data: {
      object: {
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
        payment_intent: session.subscription?.paymentIntent ?? 'pi_fake',
      },
    },
  }
}

// ---------------------------------------------------------------- PayPal

interface FakeOrder {
  id: string
  body: Record<string, unknown>
  amount: string
  approved: boolean
  /** the payer's funding is refused at capture */
  declines: boolean
  capture: { id: string; status: string; amount: { currency_code: string; value: string } } | null
  /** the wallet vaulted at capture (a subscription checkout), or the one a merchant-initiated order pays with */
  vault: FakeVault | null
}

interface FakeVault {
  id: string
  customerId: string
  email: string
  /** a charge on it: 'refused' answers 422 INSTRUMENT_DECLINED, 'capture_declined' a COMPLETED order whose capture is DECLINED */
  declines: 'refused' | 'capture_declined' | null
}

export interface FakePaypal extends FakeServer {
  orders: Map<string, FakeOrder>
  /** how many OAuth tokens the fake handed out */
  tokensIssued(): number
  /** PayPal revokes every token it issued (the next call with one answers 401) */
  revokeTokens(): void
  /** the buyer approves the order in PayPal's window */
  approve(orderId: string, opts?: { declines?: boolean }): void
  /** the wallets vaulted, by vault id */
  vaults: Map<string, FakeVault>
  /** charges on the vaulted wallet are refused (422) or their capture declined */
  declineVault(vaultId: string, how?: 'refused' | 'capture_declined'): void
  /** orders on a vault_id answer APPROVED (the portal captures them) instead of COMPLETED */
  vaultOrdersNeedCapture: boolean
}

export const FAKE_PAYPAL_CLIENT = { id: 'fake-client-id', secret: 'fake-client-secret' }
export const FAKE_PAYER_EMAIL = 'buyer@example.com'

export async function startFakePaypal(): Promise<FakePaypal> {
  const orders = new Map<string, FakeOrder>()
  const vaults = new Map<string, FakeVault>()
  /** PayPal-Request-Id → the order it created (merchant-initiated orders on a vault_id) */
  const requestIds = new Map<string, string>()
  const tokens = new Set<string>()
  const state = { tokensIssued: 0 }
  const newCapture = (o: FakeOrder, status = 'COMPLETED') => ({
    id: `CAP${Math.random().toString(36).slice(2, 14).toUpperCase()}`,
    status,
    amount: { currency_code: 'USD', value: o.amount },
  })
  const wantsVault = (o: FakeOrder) =>
    (o.body.payment_source as { paypal?: { attributes?: { vault?: { store_in_vault?: string } } } } | undefined)?.paypal?.attributes?.vault?.store_in_vault ===
    'ON_SUCCESS'
  const unprocessable = (issue: string) => ({ name: 'UNPROCESSABLE_ENTITY', message: 'The requested action could not be performed.', details: [{ issue }] })
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

      if (req.method === 'POST' && req.path === '/v2/checkout/orders') {
        const body = JSON.parse(req.body) as Record<string, unknown>
        const unit = (body.purchase_units as { amount: { value: string } }[])[0]!
        const vaultId = (body.payment_source as { paypal?: { vault_id?: string } } | undefined)?.paypal?.vault_id
        const requestId = req.headers['paypal-request-id']
        // PayPal's idempotency for merchant-initiated orders: the same PayPal-Request-Id answers the same order
        const known = vaultId && typeof requestId === 'string' ? orders.get(requestIds.get(requestId) ?? '') : undefined
        if (known) return json(res, 200, view(known))
        const id = `${5 + orders.size}FAKE${Math.random().toString(36).slice(2, 12).toUpperCase()}`
        const order: FakeOrder = { id, body, amount: unit.amount.value, approved: false, declines: false, capture: null, vault: null }
        if (vaultId) {
          const vault = vaults.get(vaultId)
          if (!vault) return json(res, 422, unprocessable('INVALID_RESOURCE_ID'))
          if (vault.declines === 'refused') return json(res, 422, unprocessable('INSTRUMENT_DECLINED'))
          // no buyer to ask: approved at once, and (unless told otherwise) captured in the same call
          Object.assign(order, { vault, approved: true, declines: vault.declines === 'capture_declined' })
          if (!(fake as Partial<FakePaypal>).vaultOrdersNeedCapture) order.capture = newCapture(order, order.declines ? 'DECLINED' : 'COMPLETED')
          if (typeof requestId === 'string') requestIds.set(requestId, id)
        }
        orders.set(id, order)
        return json(res, vaultId ? 201 : 200, view(order))
      }
      const m = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(req.path)
      const order = m ? orders.get(decodeURIComponent(m[1]!)) : undefined
      if (m && !order) return json(res, 404, { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] })
      if (order && req.method === 'GET' && !m![2]) return json(res, 200, view(order))
      if (order && req.method === 'POST' && m![2]) {
        if (order.capture) return json(res, 422, unprocessable('ORDER_ALREADY_CAPTURED'))
        if (!order.approved) return json(res, 422, unprocessable('ORDER_NOT_APPROVED'))
        if (order.declines) return json(res, 422, unprocessable('INSTRUMENT_DECLINED'))
        order.capture = newCapture(order)
        if (wantsVault(order) && !order.vault) {
          const vault: FakeVault = {
            id: `VT${Math.random().toString(36).slice(2, 10)}`,
            customerId: `CUST${Math.random().toString(36).slice(2, 8)}`,
            email: FAKE_PAYER_EMAIL,
            declines: null,
          }
          vaults.set(vault.id, vault)
          order.vault = vault
        }
        return json(res, 201, view(order))
      }
      json(res, 404, { name: 'NOT_FOUND', message: `no fake for ${req.method} ${req.path}` })
    },
    (status) => ({ name: status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'UNPROCESSABLE_ENTITY', message: `fake PayPal answers ${status}`, details: [] }),
  )
  return Object.assign(fake, {
    orders,
    vaults,
    vaultOrdersNeedCapture: false,
    declineVault(vaultId: string, how: 'refused' | 'capture_declined' = 'refused') {
      const vault = vaults.get(vaultId)
      if (!vault) throw new Error(`no fake vault ${vaultId}`)
      vault.declines = how
    },
    tokensIssued: () => state.tokensIssued,
    revokeTokens: () => tokens.clear(),
    approve(orderId: string, opts: { declines?: boolean } = {}) {
      const order = orders.get(orderId)
      if (!order) throw new Error(`no fake order ${orderId}`)
      order.approved = true
      order.declines = opts.declines ?? false
    },
  })
}
