import { TRANSACTION_TYPE, refillBody } from '@portal/domain'
import type { z } from 'zod'
import { RATE_LIMITS, type AppContext } from '../../context.ts'
import { hit } from '../../platform/rate-limit.ts'
import { postLedgerEntry, type Fulfilment } from '../billing/service.ts'
import { openCheckout } from '../payments/service.ts'

export const TOP_UP_DESCRIPTION = 'Balance top-up'

/**
 * Top-up: a pending credit transaction and the provider's checkout that will pay it. The balance
 * grows only when the provider reports the payment (modules/billing: the top_up fulfilment below). When the provider is down
 * or refuses, nothing stays behind and the answer is external_payments_unavailable (openCheckout).
 */
export async function refill(ctx: AppContext, clientId: number, body: z.output<typeof refillBody>) {
  await hit(ctx.db, [{ key: `refill:client:${clientId}`, ...RATE_LIMITS.refillPerClient }])
  const amountCents = body.amount * 100
  return openCheckout(ctx, {
    clientId,
    kind: 'top_up',
    type: TRANSACTION_TYPE.credit,
    description: TOP_UP_DESCRIPTION,
    lines: [{ description: TOP_UP_DESCRIPTION, quantity: 1, amount_cents: amountCents }],
    amountCents,
    source: body.payment_source,
    successPath: body.success_url,
    cancelPath: body.cancel_url,
  })
}

/** What a paid top-up delivers: the credit. A credit cannot fail the balance's CHECK; a second entry for the transaction fails its unique index. */
export const balanceFulfilments: Record<string, Fulfilment> = {
  top_up: { paid: async (_ctx, tx, t) => void (await postLedgerEntry(tx, t.client_id, t.id, t.amount_cents)) },
}
