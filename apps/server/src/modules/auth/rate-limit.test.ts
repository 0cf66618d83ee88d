import { describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../app.ts'
import { postgresDb } from '../../db/db.ts'
import { RATE_LIMITS } from '../../context.ts'
import {
  Agent,
  DB_KIND,
  STRONG_PASSWORD,
  count,
  expectError,
  lastMailTo,
  signedInClient,
  testConfig,
  useTestApp,
  workerDatabaseUrl,
} from '../../test/harness.ts'

const t = useTestApp()

const LIMITED = { error_code: '8221e1b0', error: 'Too many requests. Please wait a few minutes and try again' }

function expectLimited(res: Awaited<ReturnType<Agent['post']>>) {
  expect(res.statusCode, res.body).toBe(429)
  expect(res.json()).toEqual(LIMITED)
}

const mailsTo = (email: string) => count(t.db, 'mail_outbox WHERE lower(to_address) = lower($1)', [email])

it('the limits are the ones the issue names', () => {
  expect(RATE_LIMITS.signinFailuresPerEmailAndIp).toEqual({ max: 10, windowSeconds: 900 })
  expect(RATE_LIMITS.signinFailuresPerEmail.max).toBeGreaterThanOrEqual(10 * RATE_LIMITS.signinFailuresPerEmailAndIp.max)
  expect(RATE_LIMITS.signinFailuresPerIp).toEqual({ max: 100, windowSeconds: 900 })
  expect(RATE_LIMITS.signinPerIp.max).toBeGreaterThanOrEqual(10 * RATE_LIMITS.signinFailuresPerIp.max)
  expect(RATE_LIMITS.mailPerAddress).toEqual({ max: 5, windowSeconds: 900 })
  expect(RATE_LIMITS.signupPerIp).toEqual({ max: 20, windowSeconds: 3600 })
})

const wrong = (app: FastifyInstance, ip: string, email: string) => new Agent(app, ip).post('/api/client/signin/', { username: email, password: 'Wrong-pass1' })

describe('sign-in', () => {
  it('10 wrong passwords for an e-mail from one address lock that address out of it; the owner still signs in from elsewhere', async () => {
    const { email } = await signedInClient(t)
    const other = await signedInClient(t)
    await t.db.query('DELETE FROM sessions')
    for (let i = 0; i < 10; i++) expectError(await wrong(t.app, '10.9.0.1', email), 400, '3fc79796', 'password')
    // the attacker's address is refused even the right password, and keeps being refused
    const attacker = new Agent(t.app, '10.9.0.1')
    expectLimited(await attacker.post('/api/client/signin/', { username: email.toUpperCase(), password: STRONG_PASSWORD }))
    expect(attacker.cookies.has('sessionid')).toBe(false)
    // the owner, elsewhere, gets in
    const owner = new Agent(t.app, '10.9.9.9')
    expect((await owner.post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })).statusCode).toBe(200)
    // the lock is per e-mail: another account signs in from the attacker's address
    expect((await attacker.post('/api/client/signin/', { username: other.email, password: STRONG_PASSWORD })).statusCode).toBe(200)
  })

  it('slow guessing from many addresses, one every 90 s each, does not lock the owner out', async () => {
    const { email } = await signedInClient(t)
    await t.db.query('DELETE FROM sessions')
    // 9 addresses with 9 failures each: 81 failures for the e-mail in one window
    for (let a = 0; a < 9; a++) for (let i = 0; i < 9; i++) expectError(await wrong(t.app, `10.5.${a}.1`, email), 400, '3fc79796', 'password')
    expect((await new Agent(t.app, '10.5.100.1').post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })).statusCode).toBe(200)
  })

  it('right passwords do not count against the e-mail; failures past the high per-e-mail ceiling lock it from everywhere', async () => {
    const { email } = await signedInClient(t)
    const ceiling = RATE_LIMITS.signinFailuresPerEmail.max
    // the owner signs in 15 times from one address: none of them is a failure
    for (let i = 0; i < 15; i++)
      expect((await new Agent(t.app, '10.6.0.1').post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })).statusCode).toBe(200)
    await t.db.query('DELETE FROM rate_limits WHERE key LIKE $1', ['signin:ip:%'])
    await t.db.query(`INSERT INTO rate_limits (key, window_start, hits) VALUES ($1, date_trunc('minute', now()) - interval '5 minutes', $2)`, [
      `signin:fail:email:${email}`,
      ceiling,
    ])
    expectLimited(await new Agent(t.app, '10.6.1.1').post('/api/client/signin/', { username: email, password: STRONG_PASSWORD }))
  })

  it('the window slides: failures from 5 minutes ago still count, failures from 20 minutes ago do not', async () => {
    const { email } = await signedInClient(t)
    const key = `signin:fail:email-ip:${email}|127.0.0.1`
    await t.db.query('DELETE FROM rate_limits')
    // 10 earlier failures, as a server would have counted them 5 minutes ago (in an earlier clock window)
    await t.db.query(`INSERT INTO rate_limits (key, window_start, hits) VALUES ($1, date_trunc('minute', now()) - interval '5 minutes', 10)`, [key])
    expectLimited(await new Agent(t.app).post('/api/client/signin/', { username: email, password: STRONG_PASSWORD }))
    await t.db.query('DELETE FROM rate_limits')
    await t.db.query(`INSERT INTO rate_limits (key, window_start, hits) VALUES ($1, date_trunc('minute', now()) - interval '20 minutes', 10)`, [key])
    expect((await new Agent(t.app).post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })).statusCode).toBe(200)
  })

  it("one colleague's wrong passwords do not lock the others behind the same address out", { timeout: 120_000 }, async () => {
    const office = '10.4.4.4'
    const careless = await signedInClient(t)
    // 31 colleagues with the same password, made directly (hashing 31 passwords would only slow the test)
    const others = await t.db.query<{ email: string }>(
      `INSERT INTO clients (email, password_hash, token, confirmed_at)
       SELECT 'colleague' || i || '@office.example', $1, 'tok-office-' || i, now() FROM generate_series(1, 31) i RETURNING email`,
      [(await t.db.query<{ password_hash: string }>('SELECT password_hash FROM clients WHERE id = $1', [careless.client.id]))[0]!.password_hash],
    )
    await t.db.exec('DELETE FROM rate_limits; DELETE FROM sessions')
    for (let i = 0; i < 10; i++) expectError(await wrong(t.app, office, careless.email), 400, '3fc79796', 'password')
    expectLimited(await new Agent(t.app, office).post('/api/client/signin/', { username: careless.email, password: STRONG_PASSWORD }))
    // more sign-ins from the one address than the old per-address limit of 30 let through
    for (const c of others) {
      const res = await new Agent(t.app, office).post('/api/client/signin/', { username: c.email, password: STRONG_PASSWORD })
      expect(res.statusCode, res.body).toBe(200)
    }
    expect(await count(t.db, 'sessions')).toBe(others.length)
  })

  it('100 failures from one address, whatever the e-mails, lock that address; another address signs in', async () => {
    const { email } = await signedInClient(t)
    await t.db.query('DELETE FROM rate_limits')
    for (let i = 0; i < RATE_LIMITS.signinFailuresPerIp.max; i++)
      expectError(await wrong(t.app, '10.4.5.5', `nobody${i}@example.com`), 400, 'e1a53088', 'username')
    expectLimited(await new Agent(t.app, '10.4.5.5').post('/api/client/signin/', { username: email, password: STRONG_PASSWORD }))
    expect((await new Agent(t.app, '10.4.5.6').post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })).statusCode).toBe(200)
  })

  it('every try counts against the address under a ceiling of 1,000 in 15 minutes', async () => {
    const { email } = await signedInClient(t)
    expect(RATE_LIMITS.signinPerIp).toEqual({ max: 1000, windowSeconds: 900 })
    await t.db.query('DELETE FROM rate_limits')
    // 999 tries in this window so far, as servers would have counted them a few minutes ago
    await t.db.query(`INSERT INTO rate_limits (key, window_start, hits) VALUES ($1, date_trunc('minute', now()) - interval '5 minutes', 999)`, [
      'signin:ip:10.4.6.6',
    ])
    expect((await new Agent(t.app, '10.4.6.6').post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })).statusCode).toBe(200)
    expectLimited(await new Agent(t.app, '10.4.6.6').post('/api/client/signin/', { username: email, password: STRONG_PASSWORD }))
    const counted = await t.db.query<{ n: number }>(`SELECT sum(hits)::int AS n FROM rate_limits WHERE key = 'signin:ip:10.4.6.6'`)
    expect(counted[0]!.n).toBe(1001)
  })

  it('the analytics fill-info step is held to the same limits', async () => {
    const { email } = await signedInClient(t)
    const fill = (password: string) => new Agent(t.app, '10.3.3.3').post('/api/nuitrack-analytics/fill-info/', { username: email, password, name: 'Ada' })
    for (let i = 0; i < 10; i++) expectError(await fill('Wrong-pass1'), 400, 'ba8aedaf')
    expectLimited(await fill(STRONG_PASSWORD))
    expect(
      (await new Agent(t.app, '10.3.3.4').post('/api/nuitrack-analytics/fill-info/', { username: email, password: STRONG_PASSWORD, name: 'Ada' })).statusCode,
    ).toBe(200)
  })
})

describe('sign-up', () => {
  it('more than 20 from one IP address in an hour answer 429; another address can still register', async () => {
    const a = new Agent(t.app, '10.2.2.2')
    for (let i = 0; i < 20; i++) {
      expect((await a.post('/api/client/signup/', { username: `many${i}@example.com`, password: STRONG_PASSWORD })).statusCode).toBe(201)
    }
    expectLimited(await a.post('/api/client/signup/', { username: 'many20@example.com', password: STRONG_PASSWORD }))
    expect(await count(t.db, 'clients')).toBe(20)
    expect(await mailsTo('many20@example.com')).toBe(0)
    const b = new Agent(t.app, '10.2.2.3')
    expect((await b.post('/api/client/signup/', { username: 'many20@example.com', password: STRONG_PASSWORD })).statusCode).toBe(201)
    expect(await count(t.db, 'clients')).toBe(21)
  })
})

describe('e-mail sending: at most 5 mails to one address in 15 minutes', () => {
  it('send-password-reset-url: the 6th answers 429 and sends nothing; the 5th link still works', async () => {
    const { client, email } = await signedInClient(t)
    for (let i = 0; i < 5; i++) {
      expect((await new Agent(t.app, `10.3.0.${i}`).post('/api/client/send-password-reset-url/', { client_email: email })).statusCode).toBe(200)
    }
    const fifth = await lastMailTo(t.db, email)
    expectLimited(await new Agent(t.app, '10.3.1.1').post('/api/client/send-password-reset-url/', { client_id: client.id }))
    expect(await mailsTo(email)).toBe(5)
    // the refused call issued no token, so the last mailed link was not replaced
    expect((await new Agent(t.app).get(`/api/client/${client.id}/validate-confirmation-token/${fifth!.token}/`)).statusCode).toBe(200)
  })

  it('send-confirmation-url: the sign-up mail and 4 resends, then 429; the last link still confirms', async () => {
    const a = new Agent(t.app, '10.4.0.1')
    await a.post('/api/client/signup/', { username: 'resend@example.com', password: STRONG_PASSWORD })
    for (let i = 0; i < 4; i++) {
      expect((await a.post('/api/client/send-confirmation-url/', { client_email: 'resend@example.com' })).statusCode).toBe(200)
    }
    const last = await lastMailTo(t.db, 'resend@example.com')
    expectLimited(await a.post('/api/client/send-confirmation-url/', { client_email: 'resend@example.com' }))
    expect(await mailsTo('resend@example.com')).toBe(5)
    expect((await a.post('/api/client/confirm/', { client_id: last!.clientId, confirmation_token: last!.token })).statusCode).toBe(200)
  })

  it('e-mail change: the 6th mail to the new address answers 429 and the whole update is refused', async () => {
    const { agent } = await signedInClient(t)
    for (let i = 0; i < 5; i++) {
      const res = await agent.post('/api/client/', { email: 'target@example.com' })
      expect(res.statusCode).toBe(200)
      expect(res.json().email_confirmation_sent).toBe(true)
    }
    expectLimited(await agent.post('/api/client/', { email: 'Target@example.com', name: 'Changed' }))
    expect(await mailsTo('target@example.com')).toBe(5)
    expect((await agent.get('/api/client/')).json().client_info).toMatchObject({ name: '', pending_email: 'target@example.com' })
    // the limit is per address: another new address still gets its mail
    expect((await agent.post('/api/client/', { email: 'elsewhere@example.com' })).statusCode).toBe(200)
    expect(await mailsTo('elsewhere@example.com')).toBe(1)
  })

  it('10 parallel reset requests for one address let at most 5 mails into the outbox', async () => {
    const { email } = await signedInClient(t)
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => new Agent(t.app, `10.1.1.${i}`).post('/api/client/send-password-reset-url/', { client_email: email })),
    )
    const ok = results.filter((r) => r.statusCode === 200)
    const limited = results.filter((r) => r.statusCode === 429)
    expect(ok.length + limited.length).toBe(10)
    expect(ok.length).toBeLessThanOrEqual(5)
    for (const r of limited) expect(r.json()).toEqual(LIMITED)
    expect(await mailsTo(email)).toBe(ok.length)
    expect(await mailsTo(email)).toBeLessThanOrEqual(5)
  })
})

describe('limits across server processes on one PostgreSQL', () => {
  // a second app with its own connection pool on the same database, as a second process would be
  async function withSecondApp(fn: (other: FastifyInstance) => Promise<void>) {
    const otherDb = postgresDb(workerDatabaseUrl()!, 4)
    const other = await buildApp({ config: testConfig(), db: otherDb })
    await other.ready()
    try {
      await fn(other)
    } finally {
      await other.close()
      await otherDb.close()
    }
  }

  it.runIf(DB_KIND === 'postgres')('failed sign-ins from one address alternated between two servers are refused after 10 in total', async () => {
    const { email } = await signedInClient(t)
    await t.db.exec('DELETE FROM rate_limits; DELETE FROM sessions')
    await withSecondApp(async (other) => {
      const agents = [new Agent(t.app, '10.7.7.7'), new Agent(other, '10.7.7.7')]
      const codes: number[] = []
      for (let i = 0; i < 12; i++) codes.push((await agents[i % 2]!.post('/api/client/signin/', { username: email, password: 'Wrong-pass1' })).statusCode)
      expect(codes).toEqual([...Array(10).fill(400), 429, 429])
      expectLimited(await agents[1]!.post('/api/client/signin/', { username: email, password: STRONG_PASSWORD }))
      expectLimited(await agents[0]!.post('/api/client/signin/', { username: email, password: STRONG_PASSWORD }))
      expect(await count(t.db, 'sessions')).toBe(0)
    })
  })

  it.runIf(DB_KIND === 'postgres')('10 parallel reset requests spread over two servers send at most 5 mails', async () => {
    const { email } = await signedInClient(t)
    await withSecondApp(async (other) => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          new Agent(i % 2 ? other : t.app, `10.8.8.${i}`).post('/api/client/send-password-reset-url/', { client_email: email }),
        ),
      )
      const ok = results.filter((r) => r.statusCode === 200).length
      expect(ok).toBe(5)
      for (const r of results.filter((r) => r.statusCode !== 200)) expectLimited(r)
      expect(await mailsTo(email)).toBe(5)
    })
  })
})
