import { z } from './zod.ts'
import { text } from './fields.ts'

/** The events an account's webhook endpoints can subscribe to. */
export const WEBHOOK_EVENTS = ['license.expiring', 'license.suspended', 'device.activated', 'device.released', 'payment.failed'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/** the header carrying `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` */
export const WEBHOOK_SIGNATURE_HEADER = 'Portal-Signature'
export const WEBHOOK_SECRET_PREFIX = 'whsec_'
export const WEBHOOK_URL_MAX = 2000
/** endpoints per account */
export const WEBHOOK_ENDPOINTS_MAX = 10
/** tries of one delivery before it is marked failed (back-off between them: the job queue's) */
export const WEBHOOK_MAX_ATTEMPTS = 8
/** a receiver should refuse a signature older than this, so a captured delivery cannot be replayed later */
export const WEBHOOK_TOLERANCE_SECONDS = 300

/** the signed text: the timestamp, a dot, the body exactly as sent */
export const webhookSignedText = (timestamp: number, body: string) => `${timestamp}.${body}`

/** `t=…,v1=…` read back; null when the header is not of that shape */
export function parseWebhookSignature(header: string): { t: number; v1: string[] } | null {
  let t: number | null = null
  const v1: string[] = []
  for (const part of header.split(',')) {
    const [k, v] = part.trim().split('=', 2)
    if (k === 't' && v && /^\d+$/.test(v)) t = Number(v)
    else if (k === 'v1' && v && /^[0-9a-f]{64}$/.test(v)) v1.push(v)
  }
  return t === null || v1.length === 0 ? null : { t, v1 }
}

/** an http(s) address with a host and no user or password in it (the document states it as a pattern) */
export const WEBHOOK_URL_PATTERN = /^https?:\/\/[^\s/?#@\\]+(?:[/?#]\S*)?$/

export const webhookUrlField = text()
  .trim()
  .min(1, 'field_empty_error')
  .max(WEBHOOK_URL_MAX, 'webhook_url_error')
  .regex(WEBHOOK_URL_PATTERN, 'webhook_url_error')

export const webhookCreateBody = z.object({
  url: webhookUrlField,
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1, 'webhook_events_error').max(WEBHOOK_EVENTS.length),
})
export type WebhookCreateBody = z.input<typeof webhookCreateBody>

export const webhookEndpointSchema = z.object({
  id: z.number(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  /** the signing secret (whsec_…): the receiver keeps it to verify each delivery */
  secret: z.string(),
  created_at: z.string(),
})
export type WebhookEndpointView = z.output<typeof webhookEndpointSchema>

export const webhookDeliverySchema = z.object({
  id: z.number(),
  endpoint_id: z.number(),
  url: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  last_response_code: z.number().nullable(),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
})
export type WebhookDeliveryView = z.output<typeof webhookDeliverySchema>
