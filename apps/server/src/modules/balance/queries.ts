import type { Cents } from '@portal/domain'
import type { Queryable } from '../../db/db.ts'

/**
 * Moves a client's balance by `amountCents` (positive credits, negative debits) with its ledger
 * entry, in the caller's transaction. One conditional UPDATE: parallel debits never take the
 * balance below zero (null answers "not enough"), and the entry's unique transaction id means a
 * transaction moves the balance once, whoever retries it.
 */
export async function applyLedgerEntry(tx: Queryable, clientId: number, transactionId: number, amountCents: Cents): Promise<Cents | null> {
  const [row] = await tx.query<{ balance_cents: string | number }>(
    'UPDATE clients SET balance_cents = balance_cents + $2 WHERE id = $1 AND balance_cents + $2 >= 0 RETURNING balance_cents',
    [clientId, amountCents],
  )
  if (!row) return null
  const balance = Number(row.balance_cents)
  await tx.query('INSERT INTO ledger_entries (client_id, transaction_id, amount_cents, balance_after_cents) VALUES ($1, $2, $3, $4)', [
    clientId,
    transactionId,
    amountCents,
    balance,
  ])
  return balance
}

/** The balance two ways: the kept column and the ledger's sum (they are equal; tests and audits check it). */
export async function balanceAndLedgerSum(db: Queryable, clientId: number): Promise<{ balance: Cents; ledger: Cents }> {
  const [row] = await db.query<{ balance: string | number; ledger: string | number }>(
    `SELECT c.balance_cents AS balance, COALESCE((SELECT sum(amount_cents) FROM ledger_entries WHERE client_id = c.id), 0) AS ledger
       FROM clients c WHERE c.id = $1`,
    [clientId],
  )
  return { balance: Number(row?.balance ?? 0), ledger: Number(row?.ledger ?? 0) }
}
