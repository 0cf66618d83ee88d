import { describe, expect, it } from 'vitest'
import { createChallenge, solveChallenge } from '../../platform/captcha.ts'
import { Agent, STRONG_PASSWORD, lastMailTo, signedInClient, useTestApp } from '../../test/harness.ts'

const t = useTestApp()

async function solvedToken(a: Agent) {
  const c = (await a.get('/api/captcha/challenge/')).json()
  const number = solveChallenge(c)
  return Buffer.from(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number, salt: c.salt, signature: c.signature })).toString('base64')
}

describe('Nuitrack Analytics registration', () => {
  it('registers with a solved captcha, mails the confirmation, then takes the optional fill-info', async () => {
    const a = new Agent(t.app)
    const res = await a.post('/api/nuitrack-analytics/signup/', {
      username: 'cloud@example.com',
      password: STRONG_PASSWORD,
      captcha_token: await solvedToken(a),
    })
    expect(res.json()).toEqual({ step: 'fill_info', next: '/app/login/nuitrack-analytics/?registered=1' })
    const mail = await lastMailTo(t.db, 'cloud@example.com')
    expect(mail!.link).toContain('?platform=nuitrack-analytics')
    const empty = await a.post('/api/nuitrack-analytics/fill-info/', { username: 'cloud@example.com', password: STRONG_PASSWORD })
    expect(empty.json()).toMatchObject({ error_code: '6a38afc1', field: 'name' })
    const long = await a.post('/api/nuitrack-analytics/fill-info/', { username: 'cloud@example.com', password: STRONG_PASSWORD, name: 'x'.repeat(257) })
    expect(long.statusCode).toBe(400)
    const wrong = await a.post('/api/nuitrack-analytics/fill-info/', { username: 'cloud@example.com', password: 'Wrong-pass1', company: 'Shops' })
    expect(wrong.json().error_code).toBe('ba8aedaf')
    const ok = await a.post('/api/nuitrack-analytics/fill-info/', {
      username: 'cloud@example.com',
      password: STRONG_PASSWORD,
      name: 'Ada',
      company: 'Shops Inc',
      site: 'shops.example',
    })
    expect(ok.json()).toEqual({ status: 'ok', next: '/app/login/nuitrack-analytics/?registered=1' })
    const row = (
      await t.db.query<{ name: string; company: { name: string; site: string } }>("SELECT name, company FROM clients WHERE email = 'cloud@example.com'")
    )[0]!
    expect(row).toMatchObject({ name: 'Ada', company: { name: 'Shops Inc', site: 'shops.example' } })
  })

  it('answers exist for an account that is there already', async () => {
    const { email } = await signedInClient(t)
    const a = new Agent(t.app)
    const res = await a.post('/api/nuitrack-analytics/signup/', { username: email, password: STRONG_PASSWORD, captcha_token: await solvedToken(a) })
    expect(res.json().step).toBe('exist')
  })

  it('refuses a missing, wrong, forged, expired or reused captcha with the spec codes and creates nothing', async () => {
    const a = new Agent(t.app)
    const body = (captcha_token: string) => ({ username: 'bot@example.com', password: STRONG_PASSWORD, captcha_token })
    expect((await a.post('/api/nuitrack-analytics/signup/', body(''))).json()).toMatchObject({ error_code: '824d29c0', field: 'captcha_token' })
    expect((await a.post('/api/nuitrack-analytics/signup/', body('not base64 json'))).json().error_code).toBe('1fb53c53')
    const c = (await a.get('/api/captcha/challenge/')).json()
    const wrongNumber = Buffer.from(JSON.stringify({ ...c, number: (solveChallenge(c)! + 1) % c.maxnumber })).toString('base64')
    expect((await a.post('/api/nuitrack-analytics/signup/', body(wrongNumber))).json().error_code).toBe('1fb53c53')
    const forged = await createChallenge('another-secret-another-secret-another-secret')
    const forgedToken = Buffer.from(JSON.stringify({ ...forged, number: solveChallenge(forged) })).toString('base64')
    expect((await a.post('/api/nuitrack-analytics/signup/', body(forgedToken))).json().error_code).toBe('1fb53c53')
    const old = await createChallenge(t.app.ctx.secrets.sessionSecret, Date.now() - 3600_000)
    const oldToken = Buffer.from(JSON.stringify({ ...old, number: solveChallenge(old) })).toString('base64')
    expect((await a.post('/api/nuitrack-analytics/signup/', body(oldToken))).json().error_code).toBe('824d29c0')
    expect((await t.db.query('SELECT count(*)::int AS n FROM clients'))[0]).toEqual({ n: 0 })
    const token = await solvedToken(a)
    expect((await a.post('/api/nuitrack-analytics/signup/', body(token))).statusCode).toBe(200)
    const reused = await a.post('/api/nuitrack-analytics/signup/', { ...body(token), username: 'bot2@example.com' })
    expect(reused.json().error_code).toBe('1fb53c53')
  })
})
