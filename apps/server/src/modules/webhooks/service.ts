import { createHmac, randomUUID } from 'node:crypto'
import { isIP } from 'node:net'
import {
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_SIGNATURE_HEADER,
  webhookSignedText,
  type WebhookCreateBody,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookEvent,
} from '@portal/domain'
import type { AppContext } from '../../context.ts'
import type { Queryable } from '../../db/db.ts'
import { nowOf } from '../../platform/clock.ts'
import { randomToken } from '../../platform/crypto.ts'
import { fail } from '../../platform/errors.ts'
import { parseId } from '../../platform/ids.ts'
import type { JobQueue } from '../../platform/jobs.ts'
import { lockClient } from '../account/service.ts'
import {
  countEndpoints,
  deleteEndpoint,
  findOutgoing,
  insertDelivery,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  recordAttempt,
  subscribedEndpoints,
  type DeliveryRow,
  type EndpointRow,
} from './queries.ts'

/**
 * Webhooks: an account's endpoints receive the events they subscribe to, each POST signed with the
 * endpoint's secret. emitWebhookEvent writes one delivery row per subscribed endpoint in the
 * caller's transaction (so an event exists exactly when its change does, like the mail outbox) and
 * enqueues its job there too; the job posts it and the queue retries with back-off.
 */
export const WEBHOOK_DELIVER_JOB = 'webhooks.deliver'
const DELIVERIES_SHOWN = 50
const TIMEOUT_MS = 10_000

export function toEndpointView(row: EndpointRow): WebhookEndpointView {
  return { id: Number(row.id), url: row.url, events: row.events, secret: row.secret, created_at: row.created_at.toISOString() }
}

export function toDeliveryView(row: DeliveryRow): WebhookDeliveryView {
  return {
    id: Number(row.id),
    endpoint_id: Number(row.endpoint_id),
    url: row.url,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    last_response_code: row.last_response_code,
    created_at: row.created_at.toISOString(),
    last_attempt_at: row.last_attempt_at?.toISOString() ?? null,
  }
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 over "<t>.<body>">`: the Portal-Signature header's value */
export function signWebhook(secret: string, body: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(webhookSignedText(timestamp, body)).digest('hex')
  return `t=${timestamp},v1=${v1}`
}

/**
 * In production an endpoint is an https address of a public host: a name, or an address outside
 * the loopback, private and link-local ranges (the portal must not be made to post into its own network).
 */
function checkEndpointUrl(ctx: Pick<AppContext, 'config'>, raw: string): string {
  const url = new URL(raw)
  if (ctx.config.NODE_ENV !== 'production') return url.toString()
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const local =
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    (isIP(host) === 4 && /^(0|10|127|169\.254|172\.(1[6-9]|2\d|3[01])|192\.168)\./.test(host)) ||
    (isIP(host) === 6 && /^(::1?$|f[cd]|fe80)/i.test(host))
  if (url.protocol !== 'https:' || local) fail('validation_failed', 'The endpoint must be an https address of a public host', 'url')
  return url.toString()
}

export async function listWebhookEndpoints(ctx: Pick<AppContext, 'db'>, clientId: number) {
  return { endpoints: (await listEndpoints(ctx.db, clientId)).map(toEndpointView) }
}

export async function createWebhookEndpoint(ctx: Pick<AppContext, 'db' | 'config'>, clientId: number, createdBy: number, body: WebhookCreateBody) {
  const url = checkEndpointUrl(ctx, body.url)
  const events = [...new Set(body.events)]
  const row = await ctx.db.transaction(async (tx) => {
    // the client row first (the one lock order), so two parallel creations cannot pass the limit
    await lockClient(tx, clientId)
    if ((await countEndpoints(tx, clientId)) >= WEBHOOK_ENDPOINTS_MAX) fail('webhook_endpoints_max')
    return insertEndpoint(tx, { clientId, createdBy, url, events, secret: `${WEBHOOK_SECRET_PREFIX}${randomToken(32)}` })
  })
  return { endpoint: toEndpointView(row) }
}

export async function deleteWebhookEndpoint(ctx: Pick<AppContext, 'db'>, clientId: number, rawId: string) {
  if (!(await deleteEndpoint(ctx.db, clientId, parseId(rawId)))) fail('not_found', 'Endpoint not found')
  return { status: 'ok' as const }
}

export async function listWebhookDeliveries(ctx: Pick<AppContext, 'db'>, clientId: number) {
  return { deliveries: (await listDeliveries(ctx.db, clientId, DELIVERIES_SHOWN)).map(toDeliveryView) }
}

/**
 * The one way an event is emitted: in the transaction of the change, a delivery per endpoint of the
 * account subscribed to it, each with its job. The body is fixed here (`{id, type, created_at,
 * data}`), so every attempt sends the same event and a receiver can drop repeats by `id`.
 */
export async function emitWebhookEvent(
  ctx: Pick<AppContext, 'jobs'> & Partial<Pick<AppContext, 'clock'>>,
  tx: Queryable,
  clientId: number,
  event: WebhookEvent,
  data: Record<string, unknown>,
): Promise<void> {
  const endpoints = await subscribedEndpoints(tx, clientId, event)
  if (endpoints.length === 0) return
  const body = JSON.stringify({ id: `evt_${randomUUID().replaceAll('-', '')}`, type: event, created_at: nowOf(ctx).toISOString(), data })
  for (const e of endpoints) {
    const deliveryId = await insertDelivery(tx, { endpointId: e.id, clientId, event, body })
    await ctx.jobs.enqueue(tx, WEBHOOK_DELIVER_JOB, { delivery_id: Number(deliveryId) })
  }
}

/**
 * Posts one delivery, signed at each attempt (the timestamp is the attempt's). A 2xx delivers it; any
 * other answer or none is recorded and thrown, so the job queue tries again with back-off, until
 * the last attempt marks it failed. A delivery already made, or to a removed endpoint, sends nothing.
 */
export async function deliverWebhook(ctx: Pick<AppContext, 'db'>, deliveryId: number, attempt: number): Promise<void> {
  const d = await findOutgoing(ctx.db, deliveryId)
  if (!d || d.status === 'delivered') return
  if (d.endpoint_deleted) {
    await recordAttempt(ctx.db, d.id, { code: null, error: 'the endpoint was removed', status: 'failed' })
    return
  }
  const last = attempt >= WEBHOOK_MAX_ATTEMPTS
  let code: number | null = null
  let error: string | null = null
  try {
    const res = await fetch(d.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'license-portal-webhooks',
        [WEBHOOK_SIGNATURE_HEADER]: signWebhook(d.secret, d.body, Math.floor(Date.now() / 1000)),
        'portal-event': d.event,
        'portal-delivery': String(d.id),
      },
      body: d.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
    code = res.status
    // the answer's body is not kept; reading it frees the connection
    await res.arrayBuffer().catch(() => undefined)
    if (code >= 200 && code < 300) {
      await recordAttempt(ctx.db, d.id, { code, error: null, status: 'delivered' })
      return
    }
    error = `answered ${code}`
  } catch (err) {
    error = String((err as Error)?.message ?? err).slice(0, 500)
  }
  await recordAttempt(ctx.db, d.id, { code, error, status: last ? 'failed' : 'pending' })
  throw new Error(`webhook delivery ${d.id} to ${d.url}: ${error}`)
}

/** The delivery job on the queue: its attempts and back-off are the queue's. */
export function registerWebhookDelivery(jobs: JobQueue, ctx: Pick<AppContext, 'db'>) {
  jobs.register(
    WEBHOOK_DELIVER_JOB,
    async (job) => {
      const id = Number(job.payload.delivery_id)
      if (Number.isSafeInteger(id) && id > 0) await deliverWebhook(ctx, id, job.attempts)
    },
    { leaseSeconds: 60, maxAttempts: WEBHOOK_MAX_ATTEMPTS },
  )
}
