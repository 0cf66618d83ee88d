import { describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import { runCommand } from '../../cli/commands.ts'
import { Agent, count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'

const t = useTestApp()

describe('POST /api/feedback/', () => {
  it('stores an emotion with its comment and page for the signed-in client', async () => {
    const { agent, client } = await signedInClient(t)
    const res = await agent.post('/api/feedback/', { score: 5, comment: '  Activation was quick  ', page: '/app/nuitrack/dashboard/' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ status: 'ok' })
    const rows = await t.db.query('SELECT client_id, score, comment, page FROM feedback')
    expect(rows).toEqual([{ client_id: client.id, score: 5, comment: 'Activation was quick', page: '/app/nuitrack/dashboard/' }])
  })

  it('takes an emotion without a comment', async () => {
    const { agent } = await signedInClient(t)
    expect((await agent.post('/api/feedback/', { score: 1 })).statusCode).toBe(200)
    expect(await count(t.db, `feedback WHERE score = 1 AND comment = ''`)).toBe(1)
  })

  it('refuses a missing or unknown emotion and a comment over 500 characters, storing nothing', async () => {
    const { agent } = await signedInClient(t)
    for (const body of [{ comment: 'no emotion' }, { score: 0 }, { score: 6 }, { score: 2.5 }, { score: '3' }, { score: 3, comment: 'x'.repeat(501) }]) {
      expectError(await agent.post('/api/feedback/', body), 400, ERRORS.validation_failed.code)
    }
    expect((await agent.post('/api/feedback/', { score: 3, comment: 'x'.repeat(500) })).statusCode).toBe(200)
    expect(await count(t.db, 'feedback')).toBe(1)
  })

  it('needs a signed-in client and the CSRF token', async () => {
    const anonymous = new Agent(t.app)
    expectError(await anonymous.post('/api/feedback/', { score: 4 }), 401, ERRORS.unauthorized.code)
    const { agent } = await signedInClient(t)
    const res = await agent.post('/api/feedback/', { score: 4 }, { csrf: false })
    expectError(res, 403, ERRORS.csrf_failed.code)
    expect(await count(t.db, 'feedback')).toBe(0)
  })

  it('is rate limited per client: 10 an hour, the 11th refused and not stored, also in parallel', async () => {
    const { agent } = await signedInClient(t)
    const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => agent.post('/api/feedback/', { score: (i % 5) + 1 })))
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(10)
    for (const r of answers.filter((a) => a.statusCode !== 200)) expectError(r, 429, ERRORS.rate_limited.code)
    expect(await count(t.db, 'feedback')).toBe(10)
    // another client is not limited by the first one's count
    const other = await signedInClient(t)
    expect((await other.agent.post('/api/feedback/', { score: 5 })).statusCode).toBe(200)
  })
})

describe('npm run portal -- feedback:list', () => {
  it('lists the feedback oldest first with e-mail, score and emotion, comment on one line, and the average', async () => {
    const a = await signedInClient(t, 'first@example.com')
    const b = await signedInClient(t, 'second@example.com')
    await a.agent.post('/api/feedback/', { score: 2, comment: 'The basket\nwas\tconfusing', page: '/app/face/basket/' })
    await b.agent.post('/api/feedback/', { score: 5 })
    const r = await runCommand(t.db, ['feedback:list'])
    expect(r.code).toBe(0)
    const lines = r.output.split('\n')
    expect(lines[0]).toBe('time (UTC)\te-mail\tscore\tpage\tcomment')
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}\tfirst@example\.com\t2 sad\t\/app\/face\/basket\/\tThe basket was confusing$/)
    expect(lines[2]).toMatch(/\tsecond@example\.com\t5 happy\t\t$/)
    expect(lines[3]).toBe('2 entries, average score 3.50')
  })

  it('refuses control characters in a comment, and prints rows that hold them as codes, never as escapes', async () => {
    const { agent, client } = await signedInClient(t, 'ansi@example.com')
    const refused = await agent.post('/api/feedback/', { score: 1, comment: 'Hi \u001b[2J\u001b[31mstaff' })
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toMatchObject({ error_code: '6a38afc1', field: 'comment' })
    expect(await count(t.db, 'feedback')).toBe(0)
    // a row from before the API refused them
    await t.db.query(`INSERT INTO feedback (client_id, score, comment, page) VALUES ($1, 1, $2, $3)`, [
      client.id,
      'Hi \u001b[2J\u001b]0;owned\u0007\u009b31m\u202eevil',
      '/app/\u001b[1m',
    ])
    const r = await runCommand(t.db, ['feedback:list'])
    // eslint-disable-next-line no-control-regex -- what must not be printed
    expect(r.output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/)
    expect(r.output.split('\n')[1]).toMatch(
      /\tansi@example\.com\t1 angry\t\/app\/\\u\{1b\}\[1m\tHi \\u\{1b\}\[2J\\u\{1b\}\]0;owned\\u\{7\}\\u\{9b\}31m\\u\{202e\}evil$/,
    )
  })

  it('filters with --since (from the start of that day, UTC) and says when there is none', async () => {
    const { agent } = await signedInClient(t)
    await agent.post('/api/feedback/', { score: 4 })
    await t.db.query(`UPDATE feedback SET created_at = '2026-01-10T23:59:00Z'`)
    await agent.post('/api/feedback/', { score: 3 })
    expect((await runCommand(t.db, ['feedback:list', '--since', '2026-01-10'])).output).toMatch(/2 entries/)
    expect((await runCommand(t.db, ['feedback:list', '--since', '2026-01-11'])).output).toMatch(/^.*\n.*\t3 neutral\t.*\n1 entries, average score 3\.00$/)
    expect(await runCommand(t.db, ['feedback:list', '--since', '2099-01-01'])).toEqual({ code: 0, output: 'No feedback since 2099-01-01.' })
  })

  it('refuses a bad date or an unknown option with the usage', async () => {
    for (const args of [['--since', '2026-13-01'], ['--since', 'yesterday'], ['--since'], ['--until', '2026-01-01'], ['extra']]) {
      const r = await runCommand(t.db, ['feedback:list', ...args])
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.output).toMatch(/Usage: feedback:list/)
    }
    expect(await runCommand(t.db, ['feedback:list'])).toEqual({ code: 0, output: 'No feedback yet.' })
  })
})
