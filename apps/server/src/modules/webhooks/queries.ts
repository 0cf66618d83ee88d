import { columns, type Queryable } from '../../db/db.ts'
import type { WebhookEvent } from '@portal/domain'

export interface EndpointRow {
  id: number
  client_id: number
  url: string
  events: WebhookEvent[]
  secret: string
  created_at: Date
}
const endpointColumns = columns<EndpointRow>()('id', 'client_id', 'url', 'events', 'secret', 'created_at')

export async function insertEndpoint(
  tx: Queryable,
  e: { clientId: number; createdBy: number; url: string; events: WebhookEvent[]; secret: string },
): Promise<EndpointRow> {
  const rows = await tx.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (client_id, created_by, url, events, secret) VALUES ($1, $2, $3, $4::text[], $5) RETURNING ${endpointColumns()}`,
    [e.clientId, e.createdBy, e.url, e.events, e.secret],
  )
  return rows[0]!
}

export async function listEndpoints(db: Queryable, clientId: number): Promise<EndpointRow[]> {
  return db.query<EndpointRow>(`SELECT ${endpointColumns()} FROM webhook_endpoints WHERE client_id = $1 AND deleted_at IS NULL ORDER BY id`, [clientId])
}

/** Marks the account's endpoint deleted (its deliveries stay in the log); false when it is not the account's. */
export async function deleteEndpoint(tx: Queryable, clientId: number, id: number): Promise<boolean> {
  const rows = await tx.query(`UPDATE webhook_endpoints SET deleted_at = now() WHERE id = $1 AND client_id = $2 AND deleted_at IS NULL RETURNING id`, [
    id,
    clientId,
  ])
  return rows.length > 0
}

/** The account's live endpoints subscribed to `event`. */
export async function subscribedEndpoints(tx: Queryable, clientId: number, event: WebhookEvent): Promise<{ id: number }[]> {
  return tx.query<{ id: number }>(`SELECT id FROM webhook_endpoints WHERE client_id = $1 AND deleted_at IS NULL AND $2 = ANY(events) ORDER BY id`, [
    clientId,
    event,
  ])
}

export async function insertDelivery(tx: Queryable, d: { endpointId: number; clientId: number; event: WebhookEvent; body: string }): Promise<number> {
  const rows = await tx.query<{ id: number }>(`INSERT INTO webhook_deliveries (endpoint_id, client_id, event, body) VALUES ($1, $2, $3, $4) RETURNING id`, [
    d.endpointId,
    d.clientId,
    d.event,
    d.body,
  ])
  return rows[0]!.id
}

export interface OutgoingRow {
  id: number
  event: WebhookEvent
  body: string
  status: 'pending' | 'delivered' | 'failed'
  url: string
  secret: string
  endpoint_deleted: boolean
}

/** A delivery with what sending it needs: its endpoint's address and secret. */
export async function findOutgoing(db: Queryable, id: number): Promise<OutgoingRow | null> {
  const rows = await db.query<OutgoingRow>(
    `SELECT d.id, d.event, d.body, d.status, e.url, e.secret, e.deleted_at IS NOT NULL AS endpoint_deleted
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.id = $1`,
    [id],
  )
  return rows[0] ?? null
}

/** One attempt's outcome: the response code (null when none came), and the status it leaves. */
export async function recordAttempt(
  db: Queryable,
  id: number,
  a: { code: number | null; error: string | null; status: 'pending' | 'delivered' | 'failed' },
): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, last_response_code = $2, last_error = $3, status = $4, last_attempt_at = now(),
            delivered_at = CASE WHEN $4 = 'delivered' THEN now() ELSE delivered_at END
      WHERE id = $1 AND status <> 'delivered'`,
    [id, a.code, a.error, a.status],
  )
}

export interface DeliveryRow {
  id: number
  endpoint_id: number
  url: string
  event: WebhookEvent
  status: 'pending' | 'delivered' | 'failed'
  attempts: number
  last_response_code: number | null
  created_at: Date
  last_attempt_at: Date | null
}

export async function listDeliveries(db: Queryable, clientId: number, limit: number): Promise<DeliveryRow[]> {
  return db.query<DeliveryRow>(
    `SELECT d.id, d.endpoint_id, e.url, d.event, d.status, d.attempts, d.last_response_code, d.created_at, d.last_attempt_at
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.client_id = $1 ORDER BY d.id DESC LIMIT $2`,
    [clientId, limit],
  )
}

export async function countEndpoints(tx: Queryable, clientId: number): Promise<number> {
  const rows = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE client_id = $1 AND deleted_at IS NULL`, [clientId])
  return rows[0]!.n
}
