import { describe, expect, it } from 'vitest'
import { count, useTestApp } from '../test/harness.ts'
import { runCommand } from './commands.ts'

const t = useTestApp()

const status = async (id: number) => (await t.db.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [id]))[0]?.status
async function job(name: string, extra: { status?: string; error?: string; runIn?: string; lockedFor?: string } = {}) {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO jobs (name, status, last_error, run_at, finished_at, locked_by, locked_until, attempts, max_attempts)
     VALUES ($1, $2, $3, now() + $4::interval, CASE WHEN $2 = 'pending' THEN NULL ELSE now() END,
             CASE WHEN $5::interval IS NULL THEN NULL ELSE 'worker-1' END, now() + $5::interval, CASE WHEN $2 = 'failed' THEN 3 ELSE 0 END, 3)
     RETURNING id`,
    [name, extra.status ?? 'pending', extra.error ?? null, extra.runIn ?? '0 seconds', extra.lockedFor ?? null],
  )
  return row!.id
}

describe('the job commands an operator runs', () => {
  it('jobs:list shows waiting, due and running jobs; --failed the failed ones with their errors; --name narrows', async () => {
    const due = await job('mail.deliver')
    const later = await job('renewals.run', { runIn: '1 hour' })
    const running = await job('renewals.run', { lockedFor: '1 minute' })
    const failed = await job('payments.receipt', { status: 'failed', error: 'SMTP said no\n\u001b[31mred' })
    const list = await runCommand(t.db, ['jobs:list'])
    expect(list.code).toBe(0)
    const rows = list.output.split('\n')
    expect(rows[0]).toBe('id\tname\tstate\tattempts\truns at (UTC)\tlast error')
    expect(rows.find((r) => r.startsWith(`${due}\t`))).toMatch(/^\d+\tmail\.deliver\tdue\t0\/3\t/)
    expect(rows.find((r) => r.startsWith(`${later}\t`))).toMatch(/\trenewals\.run\twaiting\t/)
    expect(rows.find((r) => r.startsWith(`${running}\t`))).toMatch(/\trenewals\.run\trunning \(worker-1\)\t/)
    expect(list.output).not.toContain('payments.receipt')
    expect(rows.at(-1)).toBe('3 waiting or running jobs')

    const failedList = await runCommand(t.db, ['jobs:list', '--failed'])
    expect(failedList.output.split('\n')[1]).toMatch(new RegExp(`^${failed}\\tpayments\\.receipt\\tfailed\\t3/3\\t.+\\tSMTP said no \\\\u\\{1b\\}\\[31mred$`))
    expect((await runCommand(t.db, ['jobs:list', '--name', 'renewals.run'])).output).toMatch(/2 waiting or running jobs named renewals\.run$/)
    expect(await runCommand(t.db, ['jobs:list', '--name', 'nothing'])).toEqual({ code: 0, output: 'No waiting or running jobs named nothing.' })
    expect((await runCommand(t.db, ['jobs:list', '--bogus', 'x'])).code).toBe(2)
  })

  it('jobs:retry runs a failed job again now with its attempts afresh; anything else is refused and changes nothing', async () => {
    const failed = await job('payments.receipt', { status: 'failed', error: 'boom' })
    const waiting = await job('mail.deliver')
    expect(await runCommand(t.db, ['jobs:retry', String(failed)])).toEqual({ code: 0, output: `Job ${failed} (payments.receipt) will run again now.` })
    const [row] = await t.db.query<{ status: string; attempts: number; due: boolean }>(
      'SELECT status, attempts, run_at <= now() AS due FROM jobs WHERE id = $1',
      [failed],
    )
    expect(row).toEqual({ status: 'pending', attempts: 0, due: true })
    expect(await runCommand(t.db, ['jobs:retry', String(waiting)])).toEqual({ code: 1, output: `No failed or cancelled job ${waiting}.` })
    expect((await runCommand(t.db, ['jobs:retry', 'abc'])).code).toBe(2)
    expect((await runCommand(t.db, ['jobs:retry'])).code).toBe(2)
  })

  it('jobs:retry of a job whose key waits already says so', async () => {
    const failed = await job('housekeeping.prune', { status: 'failed' })
    await t.db.query(`UPDATE jobs SET singleton_key = 'schedule:housekeeping.prune' WHERE id = $1`, [failed])
    await t.db.query(`INSERT INTO jobs (name, singleton_key) VALUES ('housekeeping.prune', 'schedule:housekeeping.prune')`)
    expect(await runCommand(t.db, ['jobs:retry', String(failed)])).toEqual({
      code: 1,
      output: `Job ${failed} is not retried: the same job is waiting already.`,
    })
    expect(await status(failed)).toBe('failed')
  })

  it('jobs:cancel cancels a waiting job, never a running, finished or unknown one', async () => {
    const waiting = await job('mail.deliver', { runIn: '1 hour' })
    const running = await job('renewals.run', { lockedFor: '1 minute' })
    const done = await job('mail.deliver', { status: 'done' })
    expect(await runCommand(t.db, ['jobs:cancel', String(waiting)])).toEqual({ code: 0, output: `Job ${waiting} is cancelled.` })
    expect(await status(waiting)).toBe('cancelled')
    expect(await runCommand(t.db, ['jobs:cancel', String(running)])).toEqual({
      code: 1,
      output: `Job ${running} is running now: it cannot be cancelled halfway.`,
    })
    expect(await runCommand(t.db, ['jobs:cancel', String(done)])).toEqual({ code: 1, output: `Job ${done} is done: only a waiting job can be cancelled.` })
    expect(await runCommand(t.db, ['jobs:cancel', '999999'])).toEqual({ code: 1, output: 'No job 999999.' })
    expect(await count(t.db, `jobs WHERE status = 'pending'`)).toBe(1)
    // a cancelled job can be run after all
    expect((await runCommand(t.db, ['jobs:retry', String(waiting)])).code).toBe(0)
  })
})
