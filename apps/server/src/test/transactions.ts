import { randomUUID } from 'node:crypto'
import type { Db } from '../db/db.ts'
import { applyLedgerEntry } from '../modules/billing/queries.ts'
import { applyPaymentEvent, type BillingCtx } from '../modules/billing/service.ts'
import { insertTransaction, nextInvoiceNumber, setProviderSession, type TransactionRow } from '../modules/transactions/queries.ts'

/**
 * Transactions for tests, made the way the payment code makes them: a paid top-up straight into the
 * ledger, or a pending checkout that a made-up provider event settles through applyPaymentEvent.
 */

/** a top-up already paid: an ok credit with its invoice number and ledger entry */
export async function paidTopUp(db: Db, clientId: number, amountCents: number, paymentMethod: string | null = 'Visa •••• 4242'): Promise<TransactionRow> {
  return db.transaction(async (tx) => {
    const t = await insertTransaction(tx, {
      clientId,
      type: 0,
      status: 0,
      amountCents,
      kind: 'top_up',
      description: 'Balance top-up',
      lines: [{ description: 'Balance top-up', quantity: 1, amount_cents: amountCents }],
      paymentSource: 'stripe',
      paymentMethod,
      invoiceNumber: await nextInvoiceNumber(tx),
    })
    if ((await applyLedgerEntry(tx, clientId, t.id, amountCents)) === null) throw new Error('credit refused')
    return t
  })
}

/** a top-up waiting for the provider: pending, with a sandbox checkout session */
export async function pendingTopUp(db: Db, clientId: number, amountCents: number): Promise<{ id: number; sessionId: string }> {
  const sessionId = `cs_test_${randomUUID()}`
  const id = await db.transaction(async (tx) => {
    const t = await insertTransaction(tx, {
      clientId,
      type: 0,
      status: 1,
      amountCents,
      kind: 'top_up',
      description: 'Balance top-up',
      lines: [{ description: 'Balance top-up', quantity: 1, amount_cents: amountCents }],
      paymentSource: 'stripe',
      expiresAt: new Date(Date.now() + 24 * 3600_000),
      invoiceNumber: null,
    })
    await setProviderSession(tx, t.id, 'sandbox', sessionId)
    return t.id
  })
  return { id, sessionId }
}

/** the provider reports the checkout paid, declined or expired (a made-up sandbox event) */
export function settle(
  ctx: BillingCtx,
  sessionId: string,
  outcome: 'paid' | 'declined' | 'expired',
  extra: { amountCents?: number; paymentMethod?: string } = {},
) {
  return applyPaymentEvent(ctx, { provider: 'sandbox', eventId: `evt_${randomUUID()}`, sessionId, outcome, ...extra })
}
