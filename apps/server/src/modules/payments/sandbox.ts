import { createHmac, randomBytes } from 'node:crypto'
import { centsToUsd, type ExternalPaymentSource } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import type { Db, Queryable } from '../../db/db.ts'
import type { Config } from '../../platform/config.ts'
import { safeEqual } from '../../platform/crypto.ts'
import { fail } from '../../platform/errors.ts'
import type { JobQueue } from '../../platform/jobs.ts'
import {
  AUTHENTICATION_REQUIRED,
  WebhookSignatureError,
  type ChargeRequest,
  type ChargeResult,
  type CheckoutRequest,
  type CheckoutSession,
  type PaymentEvent,
  type PaymentProvider,
  type RefundRequest,
  type SavedPaymentMethod,
} from '../../platform/payments/port.ts'
import {
  closeSandboxSession,
  findSandboxMethod,
  holdSandboxSession,
  findSandboxSession,
  insertOrFindSandboxCharge,
  insertSandboxMethod,
  insertSandboxSession,
  type SandboxSessionRow,
  type SandboxSignedEvent,
} from './queries.ts'

/**
 * The built-in sandbox payment provider: our own hosted checkout (/sandbox/checkout/{id}/) with
 * Pay, Decline and Cancel, so the portal takes money offline in development and on a staging site.
 * It behaves like a real provider from the portal's side: it keeps its checkouts in its own table,
 * and reports the outcome only through a webhook signed with HMAC-SHA256 (a secret every instance
 * shares, kept in the database: platform/secrets.ts), delivered over real HTTP by the job queue, so a crash between the customer's click and
 * the credit loses nothing and the same event delivered again credits once.
 */

export const SANDBOX_DELIVER_JOB = 'payments.sandbox.deliver'
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature'
/** a signature older than this is refused (a replayed capture of an old delivery) */
export const SIGNATURE_TOLERANCE_SECONDS = 300
export const SANDBOX_WEBHOOK_PATH = '/api/payments/webhook/sandbox/'
const DEFAULT_MERCHANT = '3DiVi Inc.'

export const SANDBOX_EVENT_TYPES = {
  paid: 'checkout.session.completed',
  declined: 'checkout.session.declined',
  cancelled: 'checkout.session.cancelled',
} as const
type SandboxOutcome = keyof typeof SANDBOX_EVENT_TYPES

/** What the sandbox's webhook carries (the raw body is this as JSON). */
export interface SandboxEventBody {
  id: string
  type: (typeof SANDBOX_EVENT_TYPES)[SandboxOutcome]
  created: number
  data: {
    session_id: string
    amount_cents: number
    payment_method: string | null
    /** a paid subscription-mode checkout: the method the sandbox keeps for off-session charges */
    saved_method?: SandboxSavedMethodBody
  }
}

export interface SandboxSavedMethodBody {
  token: string
  source: ExternalPaymentSource
  card_brand: string | null
  card_last4: string | null
  paypal_email: string | null
}

/**
 * What a sandbox test card does (Stripe's test cards): pays, is declined at checkout, or pays and
 * then declines off-session, or pays and then needs the customer's authentication off-session.
 */
export interface SandboxTestCard {
  brand: string
  last4: string
  checkout: 'paid' | 'declined'
  /** every later off-session charge on the saved card is declined (card_declined) */
  declineOffSession: boolean
  /** every later off-session charge on the saved card is refused with authentication_required (Stripe's 3184 card) */
  authenticateOffSession?: boolean
}

/** The test cards the sandbox's card checkout takes, by number (digits only). */
export const SANDBOX_TEST_CARDS: Readonly<Record<string, SandboxTestCard>> = {
  '4242424242424242': { brand: 'Visa', last4: '4242', checkout: 'paid', declineOffSession: false },
  '5555555555554444': { brand: 'Mastercard', last4: '4444', checkout: 'paid', declineOffSession: false },
  '378282246310005': { brand: 'American Express', last4: '0005', checkout: 'paid', declineOffSession: false },
  '4000000000000002': { brand: 'Visa', last4: '0002', checkout: 'declined', declineOffSession: false },
  '4000000000000341': { brand: 'Visa', last4: '0341', checkout: 'paid', declineOffSession: true },
  '4000002760003184': { brand: 'Visa', last4: '3184', checkout: 'paid', declineOffSession: false, authenticateOffSession: true },
}
export const SANDBOX_DEFAULT_CARD = '4242424242424242'

/** The test card a typed number names (spaces and dashes ignored); null for any other number. */
export function sandboxTestCard(number: string | undefined): SandboxTestCard | null {
  const digits = (number ?? SANDBOX_DEFAULT_CARD).replace(/[\s-]/g, '')
  return Object.hasOwn(SANDBOX_TEST_CARDS, digits) ? SANDBOX_TEST_CARDS[digits]! : null
}

const cardText = (brand: string | null, last4: string | null) => `${brand ?? 'Card'} •••• ${last4 ?? '????'}`
const paypalText = (email: string | null) => `PayPal (${email ?? 'unknown'})`

const hmac = (secret: string, timestamp: number, body: string | Buffer) => createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')

/** The X-Sandbox-Signature header of a body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signSandboxBody(secret: string, body: string, nowMs = Date.now()): string {
  const t = Math.floor(nowMs / 1000)
  return `t=${t},v1=${hmac(secret, t, body)}`
}

/** Whether a raw body carries a good, fresh signature (within SIGNATURE_TOLERANCE_SECONDS either way). */
export function verifySandboxSignature(secret: string, rawBody: Buffer, header: unknown, nowMs = Date.now()): boolean {
  if (typeof header !== 'string' || header.length > 500) return false
  const parts = new Map(header.split(',').map((p) => [p.slice(0, p.indexOf('=')).trim(), p.slice(p.indexOf('=') + 1).trim()] as const))
  const t = Number(parts.get('t'))
  const v1 = parts.get('v1')
  if (!Number.isSafeInteger(t) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return false
  if (Math.abs(nowMs / 1000 - t) > SIGNATURE_TOLERANCE_SECONDS) return false
  return safeEqual(v1, hmac(secret, t, rawBody))
}

/** Where the sandbox's webhooks go and how they are signed: shared by the app, its job and the CLI. */
export interface SandboxWebhooks {
  readonly secret: string
  /** the delivery address at this moment */
  url(): string
  /** signs `body` with the current time and POSTs it; answers the status and the answer's text */
  deliver(body: string): Promise<{ status: number; text: string }>
}

/**
 * The delivery address: PAYMENTS_SANDBOX_WEBHOOK_URL when set; else the running server's own
 * listening address once it listens (no proxy or TLS hop in between); else PUBLIC_URL's webhook.
 */
export function sandboxWebhooks(
  config: Pick<Config, 'PUBLIC_URL' | 'PAYMENTS_SANDBOX_WEBHOOK_URL'>,
  /** the webhook secret every instance shares (platform/secrets.ts) */
  secret: string,
  listening?: () => string | null,
): SandboxWebhooks {
  const url = () => {
    if (config.PAYMENTS_SANDBOX_WEBHOOK_URL) return config.PAYMENTS_SANDBOX_WEBHOOK_URL
    const own = listening?.()
    return own ? `${own}${SANDBOX_WEBHOOK_PATH}` : `${config.PUBLIC_URL}${SANDBOX_WEBHOOK_PATH}`
  }
  return {
    secret,
    url,
    async deliver(body) {
      // signed at each delivery, as Stripe does on its retries: the event (and its id) stays the
      // same, so a late or repeated delivery still verifies and still applies once
      const res = await fetch(url(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signSandboxBody(secret, body) },
        body,
        signal: AbortSignal.timeout(15_000),
      })
      return { status: res.status, text: await res.text() }
    },
  }
}

const expiresAt = (s: Pick<SandboxSessionRow, 'metadata'>) => (s.metadata.expires_at ? new Date(s.metadata.expires_at) : null)

/** What the checkout shows; an open checkout past its time shows as expired before the expiry job gets to it. */
export function sandboxStatus(s: SandboxSessionRow, now = new Date()): SandboxSessionRow['status'] {
  const until = expiresAt(s)
  return s.status === 'open' && until && until <= now ? 'expired' : s.status
}

export interface SandboxProvider extends PaymentProvider {
  readonly name: 'sandbox'
  readonly webhooks: SandboxWebhooks
}

export const isSandboxProvider = (p: PaymentProvider): p is SandboxProvider => p.name === 'sandbox' && 'webhooks' in p

/** The sandbox adapter of the payment port. */
export function createSandboxProvider(deps: { db: Db; config: Pick<Config, 'PUBLIC_URL' | 'INVOICE_SELLER'>; webhooks: SandboxWebhooks }): SandboxProvider {
  const { db, config, webhooks } = deps
  return {
    name: 'sandbox',
    webhooks,
    /**
     * An off-session charge on a saved sandbox method: recorded under its idempotency key (the same
     * key answers the stored charge and event id, whoever asks and however often), never delivered
     * by webhook: the caller applies the event it answers.
     */
    async charge(req: ChargeRequest): Promise<ChargeResult> {
      const method = req.method.provider === 'sandbox' ? await findSandboxMethod(db, req.method.token) : null
      const declineReason = !method
        ? 'payment_method_not_found'
        : method.decline_off_session
          ? 'card_declined'
          : method.authenticate_off_session
            ? AUTHENTICATION_REQUIRED
            : null
      const stored = await insertOrFindSandboxCharge(db, {
        id: `sbch_${randomBytes(18).toString('base64url')}`,
        idempotency_key: req.idempotencyKey,
        token: req.method.token,
        transaction_id: req.transactionId,
        amount_cents: req.amountCents,
        outcome: declineReason ? 'declined' : 'paid',
        decline_reason: declineReason,
        payment_method: method ? (method.source === 'paypal' ? paypalText(method.paypal_email) : cardText(method.card_brand, method.card_last4)) : null,
        event_id: `evt_${randomBytes(18).toString('base64url')}`,
      })
      const event: PaymentEvent = {
        provider: 'sandbox',
        eventId: stored.event_id,
        sessionId: stored.id,
        outcome: stored.outcome,
        amountCents: stored.amount_cents,
        ...(stored.payment_method ? { paymentMethod: stored.payment_method } : {}),
      }
      if (!stored.decline_reason) return { event }
      return stored.decline_reason === AUTHENTICATION_REQUIRED
        ? { event, declineReason: stored.decline_reason, authenticationRequired: true }
        : { event, declineReason: stored.decline_reason }
    },
    /** the sandbox gives the money back at once (no real money moved): a refund id per idempotency key */
    async refund(req: RefundRequest): Promise<{ refundId: string }> {
      return { refundId: `sbre_${createHmac('sha256', webhooks.secret).update(req.idempotencyKey).digest('base64url').slice(0, 24)}` }
    },
    async createCheckout(req: CheckoutRequest): Promise<CheckoutSession> {
      const id = `sbx_${randomBytes(18).toString('base64url')}`
      await insertSandboxSession(db, {
        id,
        source: req.source,
        mode: req.mode,
        merchant: config.INVOICE_SELLER?.name ?? DEFAULT_MERCHANT,
        customer_email: req.customerEmail,
        lines: req.lines,
        amount_cents: req.amountCents,
        success_url: req.successUrl,
        cancel_url: req.cancelUrl,
        metadata: {
          transaction_id: req.transactionId,
          expires_at: req.expiresAt.toISOString(),
          ...(req.mode === 'subscription' ? { interval: req.interval ?? 'month' } : {}),
        },
      })
      return { provider: 'sandbox', sessionId: id, url: `${config.PUBLIC_URL}/sandbox/checkout/${id}/` }
    },
    /** the checkout as the sandbox keeps it: its last event once closed (the very event its webhook carries), null while open or held */
    async lookup(sessionId: string): Promise<PaymentEvent | null> {
      const s = await findSandboxSession(db, sessionId)
      if (!s?.last_event) return null
      return eventOfBody(s.last_event.body)
    },
    parseWebhook({ rawBody, headers }): PaymentEvent | null {
      if (!verifySandboxSignature(webhooks.secret, rawBody, headers[SANDBOX_SIGNATURE_HEADER])) throw new WebhookSignatureError()
      return eventOfBody(rawBody.toString('utf8'))
    },
  }
}

/** A sandbox event body as the portal's payment event; null for one it does not act on. */
function eventOfBody(raw: string): PaymentEvent | null {
  let body: SandboxEventBody
  try {
    body = JSON.parse(raw) as SandboxEventBody
  } catch {
    return null
  }
  const outcome = (Object.keys(SANDBOX_EVENT_TYPES) as SandboxOutcome[]).find((o) => SANDBOX_EVENT_TYPES[o] === body?.type)
  if (!outcome || typeof body.id !== 'string' || typeof body.data?.session_id !== 'string') return null
  return {
    provider: 'sandbox',
    eventId: body.id,
    sessionId: body.data.session_id,
    outcome,
    ...(Number.isSafeInteger(body.data.amount_cents) ? { amountCents: body.data.amount_cents } : {}),
    ...(typeof body.data.payment_method === 'string' ? { paymentMethod: body.data.payment_method } : {}),
    ...(outcome === 'paid' && isSavedMethodBody(body.data.saved_method) ? { savedMethod: savedMethodOf(body.data.saved_method) } : {}),
  }
}

function isSavedMethodBody(m: unknown): m is SandboxSavedMethodBody {
  const o = m as SandboxSavedMethodBody | null | undefined
  return typeof o?.token === 'string' && o.token.length > 0 && (o.source === 'stripe' || o.source === 'paypal')
}

const str = (v: unknown) => (typeof v === 'string' ? v : null)
const savedMethodOf = (m: SandboxSavedMethodBody): SavedPaymentMethod => ({
  provider: 'sandbox',
  source: m.source,
  token: m.token,
  customerRef: null,
  cardBrand: str(m.card_brand),
  cardLast4: str(m.card_last4),
  paypalEmail: str(m.paypal_email),
})

// ---- the hosted checkout's calls ----

function viewOf(s: SandboxSessionRow) {
  return {
    id: s.id,
    source: s.source,
    merchant: s.merchant,
    customer_email: s.customer_email,
    lines: s.lines.map((l) => ({ description: l.description, quantity: l.quantity, amount: centsToUsd(l.amount_cents) })),
    amount: centsToUsd(s.amount_cents),
    currency: s.currency.toUpperCase(),
    status: sandboxStatus(s),
  }
}
export type SandboxSessionView = ReturnType<typeof viewOf>

/** the checkout as the sandboxSession contract answers it */
export async function sandboxSessionView(ctx: Pick<AppContext, 'db'>, id: string): Promise<SandboxSessionView> {
  const s = (await findSandboxSession(ctx.db, id)) ?? fail('route_not_found', 'No such checkout')
  return viewOf(s)
}

/** the checkout page's data: the view and where its links lead back to; null for an address that is no checkout */
export async function sandboxCheckoutPage(ctx: Pick<AppContext, 'db'>, id: string) {
  if (id.length > 200 || id.includes('\u0000')) return null
  const s = await findSandboxSession(ctx.db, id)
  return s ? { view: viewOf(s), successUrl: s.success_url, cancelUrl: s.cancel_url, mode: s.mode, interval: s.metadata.interval ?? 'month' } : null
}
export type SandboxCheckoutPage = NonNullable<Awaited<ReturnType<typeof sandboxCheckoutPage>>>

/** The Decline button acts as Stripe's declined test card. */
const DECLINED_CARD = SANDBOX_TEST_CARDS['4000000000000002']!

/**
 * The customer pays, declines or cancels: the checkout closes and its signed webhook is queued in
 * the same database transaction, so the browser can go on at once and a crash right after the
 * click still delivers. Answers where the browser goes next.
 *
 * A card checkout pays with the test card typed (4242 4242 4242 4242 when none): a declining card
 * turns Pay into a decline, a number that is no test card answers validation_failed on card_number.
 * A paid subscription-mode checkout saves the card (or the PayPal account: the checkout's e-mail)
 * as a sandbox method (sbpm_…) and its webhook carries it.
 */
export async function completeSandboxCheckout(
  ctx: Pick<AppContext, 'db' | 'jobs'>,
  webhooks: Pick<SandboxWebhooks, 'secret'>,
  id: string,
  requested: SandboxOutcome | 'pending',
  cardNumber?: string,
): Promise<{ redirect_url: string }> {
  return ctx.db.transaction(async (tx) => {
    const s = (await findSandboxSession(tx, id, true)) ?? fail('route_not_found', 'No such checkout')
    if (sandboxStatus(s) !== 'open') fail('payment_closed')
    if (requested === 'pending') {
      // held for review, as a provider holds a capture: no webhook until sandbox:settle decides it
      if (s.source === 'stripe' && !sandboxTestCard(cardNumber))
        fail('validation_failed', 'Use one of the sandbox test cards, e.g. 4242 4242 4242 4242', 'card_number')
      if (!(await holdSandboxSession(tx, s.id, cardNumber ?? null))) fail('payment_closed')
      return { redirect_url: s.success_url }
    }
    return closeWithEvent(ctx, tx, webhooks, s, requested, cardNumber, 'open')
  })
}

/**
 * Settles a checkout held for review (sandbox:settle), as a provider completes or denies a held
 * capture later: paid (with the card it was paid with) or declined, and its signed webhook queued.
 */
export async function settleSandboxCheckout(
  ctx: Pick<AppContext, 'db' | 'jobs'>,
  webhooks: Pick<SandboxWebhooks, 'secret'>,
  id: string,
  outcome: 'paid' | 'declined',
): Promise<{ redirect_url: string }> {
  return ctx.db.transaction(async (tx) => {
    const s = (await findSandboxSession(tx, id, true)) ?? fail('route_not_found', 'No such checkout')
    if (s.status !== 'pending') fail('payment_closed')
    const held = s.metadata.held_card ?? undefined
    return closeWithEvent(ctx, tx, webhooks, s, outcome, held, 'pending')
  })
}

async function closeWithEvent(
  ctx: Pick<AppContext, 'jobs'>,
  tx: Queryable,
  webhooks: Pick<SandboxWebhooks, 'secret'>,
  s: SandboxSessionRow,
  requested: SandboxOutcome,
  cardNumber: string | undefined,
  from: 'open' | 'pending',
): Promise<{ redirect_url: string }> {
  const card =
    s.source !== 'stripe' || requested === 'cancelled'
      ? null
      : requested === 'declined'
        ? DECLINED_CARD
        : (sandboxTestCard(cardNumber) ?? fail('validation_failed', 'Use one of the sandbox test cards, e.g. 4242 4242 4242 4242', 'card_number'))
  const outcome: SandboxOutcome = card?.checkout === 'declined' ? 'declined' : requested
  let paymentMethod: string | null = null
  if (outcome !== 'cancelled') paymentMethod = card ? cardText(card.brand, card.last4) : paypalText(s.customer_email)
  let saved: SandboxSavedMethodBody | undefined
  if (outcome === 'paid' && s.mode === 'subscription') {
    saved = {
      token: `sbpm_${randomBytes(18).toString('base64url')}`,
      source: s.source,
      card_brand: card?.brand ?? null,
      card_last4: card?.last4 ?? null,
      paypal_email: card ? null : s.customer_email,
    }
    await insertSandboxMethod(tx, {
      ...saved,
      decline_off_session: card?.declineOffSession ?? false,
      authenticate_off_session: card?.authenticateOffSession ?? false,
      session_id: s.id,
    })
  }
  const body: SandboxEventBody = {
    id: `evt_${randomBytes(18).toString('base64url')}`,
    type: SANDBOX_EVENT_TYPES[outcome],
    created: Math.floor(Date.now() / 1000),
    data: { session_id: s.id, amount_cents: s.amount_cents, payment_method: paymentMethod, ...(saved ? { saved_method: saved } : {}) },
  }
  const raw = JSON.stringify(body)
  const signed: SandboxSignedEvent = { body: raw, signature: signSandboxBody(webhooks.secret, raw) }
  if (!(await closeSandboxSession(tx, s.id, outcome, signed, from))) fail('payment_closed')
  await ctx.jobs.enqueue(tx, SANDBOX_DELIVER_JOB, { session_id: s.id })
  return { redirect_url: outcome === 'paid' ? s.success_url : s.cancel_url }
}

/**
 * Sends a checkout's last signed webhook `times` times at once (the delivery job sends it once;
 * payments:redeliver more). Answers each delivery's status and text, or its network error.
 */
export async function redeliverSandboxEvent(
  db: Pick<Db, 'query'>,
  webhooks: SandboxWebhooks,
  sessionId: string,
  times = 1,
): Promise<{ found: boolean; url: string; answers: { status: number | null; text: string }[] }> {
  const s = await findSandboxSession(db, sessionId)
  if (!s?.last_event) return { found: false, url: webhooks.url(), answers: [] }
  const body = s.last_event.body
  const answers = await Promise.all(
    Array.from({ length: times }, () =>
      webhooks.deliver(body).then(
        (r) => ({ status: r.status as number | null, text: r.text }),
        (err: unknown) => ({
          status: null,
          text: err instanceof Error ? `${err.name}: ${err.message}${err.cause ? ` (${String(err.cause)})` : ''}` : String(err),
        }),
      ),
    ),
  )
  return { found: true, url: webhooks.url(), answers }
}

/**
 * The delivery job: sends the checkout's webhook and fails (to be retried with back-off) until the
 * portal answers 2xx. The portal applies the event once however often it arrives.
 */
export function registerSandboxDelivery(jobs: JobQueue, db: Db, webhooks: SandboxWebhooks) {
  jobs.register(
    SANDBOX_DELIVER_JOB,
    async (job) => {
      const sessionId = String(job.payload.session_id ?? '')
      const { found, url, answers } = await redeliverSandboxEvent(db, webhooks, sessionId, 1)
      if (!found) return
      const [answer] = answers
      if (!answer || answer.status === null || answer.status < 200 || answer.status >= 300) {
        throw new Error(`sandbox webhook to ${url} answered ${answer?.status ?? 'nothing'}: ${answer?.text.slice(0, 200) ?? ''}`)
      }
    },
    { leaseSeconds: 60, maxAttempts: 12 },
  )
}
