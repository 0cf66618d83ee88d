import { describe, expect, it } from 'vitest'
import { HELP, runCommand } from '../../cli/commands.ts'
import { postgresDb, type Db } from '../../db/db.ts'
import { AppError } from '../../platform/errors.ts'
import { DB_KIND, count, signedInClient, useTestApp, workerDatabaseUrl } from '../../test/harness.ts'
import { adjustBalance, parseAdjustmentAmount } from './adjust.ts'
import { balanceAndLedgerSum } from '../billing/queries.ts'

const t = useTestApp()

const adjust = (...args: string[]) => runCommand(t.db, ['balance:adjust', ...args])

interface StoredTransaction {
  type: number
  status: number
  amount_cents: string | number
  kind: string
  payment_source: string
  reason: string | null
  staff_id: string | number | null
  invoice_number: string | number | null
}
const stored = () =>
  t.db.query<StoredTransaction>('SELECT type, status, amount_cents, kind, payment_source, reason, staff_id, invoice_number FROM transactions ORDER BY id')

const ledger = () =>
  t.db.query<{ amount_cents: string | number; balance_after_cents: string | number }>(
    'SELECT amount_cents, balance_after_cents FROM ledger_entries ORDER BY id',
  )

describe('npm run portal -- balance:adjust', () => {
  it('credits: an ok transaction of kind adjustment from staff with the reason, its ledger entry and an invoice number', async () => {
    const { agent, client, email } = await signedInClient(t)
    const res = await adjust(email, '25', '--reason', 'Goodwill credit for ticket 77')
    expect(res).toEqual({ code: 0, output: `Credited $25.00 to ${email}: transaction #1, invoice INV-000001. Balance now $25.00.` })
    expect((await agent.get('/api/client/')).json().client_info.balance).toBe(25)
    expect(await stored()).toEqual([
      {
        type: 0,
        status: 0,
        amount_cents: expect.anything(),
        kind: 'adjustment',
        payment_source: 'staff',
        reason: 'Goodwill credit for ticket 77',
        staff_id: null,
        invoice_number: expect.anything(),
      },
    ])
    expect(Number((await stored())[0]!.amount_cents)).toBe(2500)
    expect((await ledger()).map((e) => [Number(e.amount_cents), Number(e.balance_after_cents)])).toEqual([[2500, 2500]])
    const [view] = (await agent.get('/api/transaction/')).json().transactions
    expect(view).toMatchObject({
      type: 0,
      amount: 25,
      status: 'ok',
      description: 'Balance adjustment (credit)',
      invoice_number: 1,
      invoice_url: '/api/transaction/1/invoice/',
    })
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 2500, ledger: 2500 })
  })

  it('debits with a negative amount of up to 2 decimals, and records the staff member given with --by', async () => {
    const { agent, client, email } = await signedInClient(t)
    const staff = await signedInClient(t)
    expect((await runCommand(t.db, ['staff:grant', staff.email])).code).toBe(0)
    expect((await adjust(email, '+100', '--reason=opening balance')).code).toBe(0)
    const res = await adjust(email, '-10.5', '--reason', 'Refund reversed', '--by', staff.email)
    expect(res).toEqual({ code: 0, output: `Debited $10.50 from ${email}: transaction #2, invoice INV-000002. Balance now $89.50.` })
    expect((await agent.get('/api/client/')).json().client_info.balance).toBe(89.5)
    const [, debit] = await stored()
    expect(debit).toMatchObject({ type: 1, status: 0, kind: 'adjustment', payment_source: 'staff', reason: 'Refund reversed' })
    expect(Number(debit!.staff_id)).toBe(staff.client.id)
    expect((await ledger()).map((e) => [Number(e.amount_cents), Number(e.balance_after_cents)])).toEqual([
      [10_000, 10_000],
      [-1050, 8950],
    ])
    const [view] = (await agent.get('/api/transaction/')).json().transactions
    expect(view).toMatchObject({ type: 1, amount: 10.5, description: 'Balance adjustment (debit)' })
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 8950, ledger: 8950 })
  })

  it('refuses a debit below zero with insufficient_funds and changes nothing; the invoice numbers stay gapless', async () => {
    const { agent, client, email } = await signedInClient(t)
    expect((await adjust(email, '14.50', '--reason', 'credit')).code).toBe(0)
    const res = await adjust(email, '-14.51', '--reason', 'too much')
    expect(res).toEqual({
      code: 1,
      output: `Refused (insufficient_funds): the balance of ${email} is $14.50, less than the debit of $14.51. Nothing changed.`,
    })
    expect((await agent.get('/api/client/')).json().client_info.balance).toBe(14.5)
    expect(await count(t.db, 'transactions')).toBe(1)
    expect(await count(t.db, 'ledger_entries')).toBe(1)
    await expect(adjustBalance({ db: t.db }, { email, amountCents: -1451, reason: 'again' })).rejects.toSatisfy(
      (e) => e instanceof AppError && e.status === 409 && e.body.error_code === '851abab0',
    )
    // exactly the whole balance may go; the next number follows the last one given
    expect((await adjust(email, '-14.50', '--reason', 'close the balance')).output).toContain('invoice INV-000002. Balance now $0.00.')
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 0, ledger: 0 })
  })

  it('checks its arguments and the client', async () => {
    const { email } = await signedInClient(t)
    const stranger = await signedInClient(t)
    for (const args of [
      [email, '10'],
      [email, '10', '--reason', '   '],
      [email, '10', '--reason'],
      [email, '--reason', 'x'],
      [email, '10', '11', '--reason', 'x'],
      [email, '10', '--reason', 'x', '--force'],
      [email, '1.234', '--reason', 'x'],
      [email, '0', '--reason', 'x'],
      [email, '-0.00', '--reason', 'x'],
      [email, 'abc', '--reason', 'x'],
      [email, '1e3', '--reason', 'x'],
      [email, '1000000000', '--reason', 'x'],
      [],
    ]) {
      expect((await adjust(...args)).code, args.join(' ')).toBe(2)
    }
    expect(await adjust('nobody@example.com', '10', '--reason', 'x')).toEqual({ code: 1, output: 'No client with the e-mail nobody@example.com.' })
    expect((await adjust(email, '10', '--reason', 'x', '--by', stranger.email)).code).toBe(1)
    expect(await count(t.db, 'transactions')).toBe(0)
    expect(HELP).toContain('balance:adjust <email> <amount> --reason TEXT')
  })

  it('parses amounts as text, never through a float', () => {
    expect(parseAdjustmentAmount('0.29')).toBe(29)
    expect(parseAdjustmentAmount('-1234.5')).toBe(-123_450)
    expect(parseAdjustmentAmount('+7')).toBe(700)
    expect(parseAdjustmentAmount('999999999.99')).toBe(99_999_999_999)
    expect(parseAdjustmentAmount('.5')).toBeNull()
    expect(parseAdjustmentAmount('5.')).toBeNull()
    expect(parseAdjustmentAmount('1,000')).toBeNull()
  })
})

describe('50 parallel staff debits on one balance', () => {
  it('never take it below zero, and the final balance equals the ledger sum', async () => {
    const { client, email } = await signedInClient(t)
    expect((await adjust(email, '30', '--reason', 'float')).code).toBe(0)
    // on PostgreSQL two pools stand for two server processes on one database; PGlite queues them
    const extra: Db[] = DB_KIND === 'postgres' ? [postgresDb(workerDatabaseUrl()!, 10), postgresDb(workerDatabaseUrl()!, 10)] : []
    const dbs = extra.length ? extra : [t.db]
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) => adjustBalance({ db: dbs[i % dbs.length]! }, { email, amountCents: -100, reason: `debit ${i}` })),
      )
      const done = results.filter((r) => r.status === 'fulfilled')
      const refused = results.filter((r) => r.status === 'rejected')
      expect(done).toHaveLength(30)
      expect(refused).toHaveLength(20)
      for (const r of refused) expect((r.reason as AppError).body?.error_code, String(r.reason)).toBe('851abab0')
    } finally {
      await Promise.all(extra.map((db) => db.close()))
    }
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 0, ledger: 0 })
    expect(await count(t.db, 'ledger_entries WHERE balance_after_cents < 0')).toBe(0)
    expect(await count(t.db, 'ledger_entries')).toBe(31)
    expect(await count(t.db, 'transactions')).toBe(31)
    // every successful debit numbered, the refused ones gave their numbers back: 1 to 31 without a hole
    const numbers = await t.db.query<{ n: string | number }>('SELECT invoice_number AS n FROM transactions ORDER BY invoice_number')
    expect(numbers.map((r) => Number(r.n))).toEqual(Array.from({ length: 31 }, (_, i) => i + 1))
  })
})
