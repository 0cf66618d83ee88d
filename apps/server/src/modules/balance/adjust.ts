import { TRANSACTION_STATUS, TRANSACTION_TYPE, type Cents } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { fail } from '../../platform/errors.ts'
import { findClientByEmail, findClientById } from '../account/service.ts'
import { postLedgerEntry, settlePaid } from '../billing/service.ts'
import { insertTransaction } from '../transactions/service.ts'

/** the largest single adjustment: 1 billion dollars less a cent, far above any real one, far below bigint */
export const MAX_ADJUSTMENT_CENTS = 99_999_999_999

/**
 * Signed USD with at most 2 decimals ("25", "-3.5", "+1234.56") as cents, or null. Parsed as text,
 * never through a float.
 */
export function parseAdjustmentAmount(text: string): Cents | null {
  const m = /^([+-]?)(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim())
  if (!m) return null
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'))
  if (cents === 0 || cents > MAX_ADJUSTMENT_CENTS) return null
  return m[1] === '-' ? -cents : cents
}

export interface Adjustment {
  transactionId: number
  invoiceNumber: number
  clientId: number
  /** the balance after it */
  balanceCents: Cents
}

/**
 * A staff adjustment of a client's balance: an ok transaction (kind adjustment, source staff, with
 * the reason and, when given, the staff member) and its ledger entry, in one database transaction.
 * A debit that would take the balance below zero is refused with insufficient_funds before an
 * invoice number is taken, and the rollback leaves nothing behind.
 */
export async function adjustBalance(
  ctx: Pick<AppContext, 'db'> & Partial<Pick<AppContext, 'clock'>>,
  input: { email: string; amountCents: Cents; reason: string; staffId?: number | null },
): Promise<Adjustment> {
  const reason = input.reason.trim()
  if (!reason) return fail('validation_failed', 'A reason is required', 'reason')
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents === 0 || Math.abs(input.amountCents) > MAX_ADJUSTMENT_CENTS)
    return fail('validation_failed', 'The amount must be a non-zero number of cents', 'amount')
  const credit = input.amountCents > 0
  return ctx.db.transaction(async (tx) => {
    const client = await findClientByEmail(tx, input.email)
    if (!client) return fail('client_not_found_by_email')
    // the client's row first and the invoice counter last, as a balance purchase takes them: a
    // refused debit never waits on (or holds) the counter every payment needs
    await findClientById(tx, client.id, true)
    const amount = Math.abs(input.amountCents)
    const description = credit ? 'Balance adjustment (credit)' : 'Balance adjustment (debit)'
    const t = await insertTransaction(tx, {
      clientId: client.id,
      type: credit ? TRANSACTION_TYPE.credit : TRANSACTION_TYPE.debit,
      status: TRANSACTION_STATUS.pending,
      amountCents: amount,
      kind: 'adjustment',
      description,
      lines: [{ description, quantity: 1, amount_cents: amount }],
      paymentSource: 'staff',
      staffId: input.staffId ?? null,
      reason: reason.slice(0, 1000),
      invoiceNumber: null,
    })
    const balance = await postLedgerEntry(tx, client.id, t.id, input.amountCents)
    if (balance === null) return fail('insufficient_funds')
    // no receipt: the staff member tells the customer why
    const invoiceNumber = await settlePaid(tx, t.id, { paymentMethod: null, now: ctx.clock?.now() ?? new Date() })
    return { transactionId: t.id, invoiceNumber, clientId: client.id, balanceCents: balance }
  })
}
