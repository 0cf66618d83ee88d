import { CUSTOM_FACE_PRODUCT, MONTH_SECONDS, saleEntryById, type LicenseConfig } from '@portal/domain'
import type { Queryable } from '../../db/db.ts'
import { fulfil, fulfilCustom } from '../licenses/service.ts'
import type { TransactionLine } from '../transactions/service.ts'
import { addPurchaseCapacity, setGroupPayment } from '../groups/service.ts'

/**
 * Puts a paid order's licenses into the client's default groups: the one fulfilment path. `paidWith`
 * is how it was paid, kept on the groups so the subscription licenses made from them renew the same
 * way (modules/subscriptions). Each group's units are recorded as the order's (purchase_capacity),
 * so a refund of the order takes back exactly what it delivered.
 */
export async function fulfilLines(
  tx: Queryable,
  order: { transactionId: number; clientId: number },
  lines: readonly TransactionLine[],
  paidWith: { source?: 'balance' | 'stripe' | 'paypal'; methodId: number | null } = { methodId: null },
) {
  const { clientId } = order
  // how it was paid, on each group it fills: the subscription licenses made from them renew so. A
  // one-off card or PayPal payment (no saved method) leaves the group as it was: nothing to charge.
  const renewsBy = paidWith.source === 'balance' || (paidWith.source && paidWith.methodId !== null) ? paidWith.source : null
  const paid = async ({ groupId }: { groupId: number }, count: number) => {
    await addPurchaseCapacity(tx, { transactionId: order.transactionId, clientId, groupId, count })
    if (renewsBy) await setGroupPayment(tx, groupId, renewsBy, paidWith.methodId)
  }
  for (const line of lines) {
    if (line.kind === 'discount') continue
    if (line.license_content) {
      // a builder's line: the customer's components, in a group of their own
      await paid(
        await fulfilCustom(tx, {
          clientId,
          product: CUSTOM_FACE_PRODUCT,
          title: line.description,
          count: line.quantity,
          config: { license_content: line.license_content, license_expire_delta: MONTH_SECONDS },
        }),
        line.quantity,
      )
      continue
    }
    const entry = line.entry_id ? saleEntryById(line.entry_id) : null
    if (!entry) throw new Error(`order line without a catalogue entry: ${JSON.stringify(line)}`)
    const { product: _product, online: _online, ...sold } = entry.config
    const config: Partial<LicenseConfig> = Object.fromEntries(
      Object.entries(sold).filter(([, v]) => v !== null && !(typeof v === 'object' && Object.keys(v).length === 0)),
    )
    await paid(
      await fulfil(tx, { clientId, product: entry.product, count: line.quantity, osType: line.os_type ?? null, months: entry.months, config }),
      line.quantity,
    )
  }
}
