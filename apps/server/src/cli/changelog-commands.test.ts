import { beforeEach, describe, expect, it } from 'vitest'
import { useTestApp } from '../test/harness.ts'
import { runCommand } from './commands.ts'

const t = useTestApp()
// the release notes are kept between tests (the catalogue seeds them): these tests add only 7.x versions and remove them first
beforeEach(() => t.db.query(`DELETE FROM changelog WHERE version LIKE '7.%'`))

describe('changelog:add', () => {
  it('adds a release that GET /api/changelog/ answers first, with its changes in order', async () => {
    const r = await runCommand(t.db, [
      'changelog:add',
      '7.1.0',
      '--date',
      '2099-11-23',
      '--change',
      'Subscriptions renew by themselves',
      '--change',
      'Feedback widget',
    ])
    expect(r).toEqual({ code: 0, output: 'Added version 7.1.0 (2099-11-23) with 2 changes to the release notes.' })
    const res = await t.app.inject({ method: 'GET', url: '/api/changelog/' })
    expect(res.json().entries[0]).toEqual({ version: '7.1.0', date: '2099-11-23', changes: ['Subscriptions renew by themselves', 'Feedback widget'] })
  })

  it('dates a release today (UTC) without --date', async () => {
    const r = await runCommand(t.db, ['changelog:add', '7.0.0-rc.1', '--change', 'One change'])
    expect(r.output).toBe(`Added version 7.0.0-rc.1 (${new Date().toISOString().slice(0, 10)}) with 1 change to the release notes.`)
  })

  it('refuses a version that is there already, changing nothing', async () => {
    await runCommand(t.db, ['changelog:add', '7.1.0', '--change', 'First'])
    expect(await runCommand(t.db, ['changelog:add', '7.1.0', '--change', 'Second'])).toEqual({
      code: 1,
      output: 'Version 7.1.0 is in the release notes already.',
    })
    const rows = await t.db.query<{ changes: string[] }>(`SELECT changes FROM changelog WHERE version = '7.1.0'`)
    expect(rows[0]!.changes).toEqual(['First'])
  })

  it('refuses bad input with its reason and writes nothing', async () => {
    const before = await t.db.query('SELECT count(*)::int AS n FROM changelog')
    for (const [args, reason] of [
      [['7.1.0'], /Usage: changelog:add/],
      [['--change', 'x'], /Usage: changelog:add/],
      [['v1', '--change', 'x'], /The version is like 1\.2\.0/],
      [['7.1.0', '--date', '2026-02-30', '--change', 'x'], /--date is a day like/],
      [['7.1.0', '--date', '2026-01-01', '--date', '2026-01-02', '--change', 'x'], /--date is given twice/],
      [['7.1.0', '--change'], /--change needs a value/],
      [['7.1.0', '--change', '   '], /Each --change is 1 to 500 characters/],
      [['7.1.0', '--change', 'x'.repeat(501)], /Each --change is 1 to 500 characters/],
      [['7.1.0', '--change', 'x', '--title', 'y'], /Unknown option --title/],
      [['7.1.0', '7.2.0', '--change', 'x'], /Usage: changelog:add/],
    ] as const) {
      const r = await runCommand(t.db, ['changelog:add', ...args])
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.output, args.join(' ')).toMatch(reason)
    }
    expect(await t.db.query('SELECT count(*)::int AS n FROM changelog')).toEqual(before)
  })
})
