import type { Queryable } from '../../db/db.ts'

/**
 * Starts the subscription of a license: it renews at `periodEnd` (the license's expire_date) the way
 * it was paid. One per license: a second start for the same license changes nothing.
 */
export async function insertSubscription(
  tx: Queryable,
  s: { clientId: number; licenseId: number; source: 'balance' | 'stripe' | 'paypal'; methodId: number | null; periodEnd: Date | null },
): Promise<number | null> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO subscriptions (client_id, license_id, payment_source, payment_method_id, next_attempt_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (license_id) DO NOTHING RETURNING id`,
    [s.clientId, s.licenseId, s.source, s.methodId, s.periodEnd],
  )
  return rows[0]?.id ?? null
}
