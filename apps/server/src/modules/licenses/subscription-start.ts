import { isSubscription, isTrial, type LicenseConfig } from '@portal/domain'
import type { Queryable } from '../../db/db.ts'
import { groupPayment } from '../groups/service.ts'
import { insertSubscription } from './queries.ts'

/**
 * Starts the subscription of a license just generated from a group, in the caller's transaction:
 * a subscription product (not a tagged trial) made from a group an order paid for renews the way
 * the order was paid (the group's payment_source and method), at its expire_date. A staff-made or
 * unpaid group's license has none, nor has one bought by card or PayPal as a one-off (no saved
 * method): it simply ends at its expiry.
 */
export async function startSubscription(
  tx: Queryable,
  l: { clientId: number; groupId: number; licenseId: number; product: string; config: LicenseConfig; expireDate: Date | null },
): Promise<number | null> {
  if (!isSubscription(l.product) || isTrial({ product: l.product, config: l.config }) || l.expireDate === null) return null
  const paid = await groupPayment(tx, l.groupId)
  // paid by card or PayPal as a one-off (/resource/buy/): the provider kept nothing to charge again
  if (!paid.payment_source || (paid.payment_source !== 'balance' && paid.payment_method_id === null)) return null
  return insertSubscription(tx, {
    clientId: l.clientId,
    licenseId: l.licenseId,
    source: paid.payment_source,
    methodId: paid.payment_method_id,
    periodEnd: l.expireDate,
  })
}
