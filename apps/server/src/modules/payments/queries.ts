import type { Queryable } from '../../db/db.ts'
import type { PaymentEvent } from '../../platform/payments/port.ts'

/**
 * Records a provider's event as applied; false when it was recorded before (the same webhook again,
 * or in parallel: the primary key lets one of them through). Runs in the transaction that applies it.
 */
export async function recordPaymentEvent(tx: Queryable, event: PaymentEvent, transactionId: number | null): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO payment_events (provider, event_id, transaction_id, outcome) VALUES ($1, $2, $3, $4)
     ON CONFLICT (provider, event_id) DO NOTHING RETURNING event_id`,
    [event.provider, event.eventId, transactionId, event.outcome],
  )
  return rows.length === 1
}
