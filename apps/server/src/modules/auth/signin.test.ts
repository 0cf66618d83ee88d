import { describe, expect, it } from 'vitest'
import { Agent, STRONG_PASSWORD, count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'
import { signin } from './service.ts'

const t = useTestApp()

describe('POST /api/client/signin/', () => {
  it('answers e1a53088 for an unknown e-mail, 3fc79796 for a wrong password, e6f34eac when unconfirmed; no session is made', async () => {
    const { email } = await signedInClient(t)
    await t.db.query('DELETE FROM sessions')
    const a = new Agent(t.app)
    const unknown = await a.post('/api/client/signin/', { username: 'nobody@example.com', password: STRONG_PASSWORD })
    expectError(unknown, 400, 'e1a53088', 'username')
    expect(unknown.json().error).toBe("A user with this e-mail doesn't exist")
    expectError(await a.post('/api/client/signin/', { username: email, password: 'Wrong-pass1' }), 400, '3fc79796', 'password')
    await a.post('/api/client/signup/', { username: 'fresh@example.com', password: STRONG_PASSWORD })
    expectError(await a.post('/api/client/signin/', { username: 'fresh@example.com', password: STRONG_PASSWORD }), 403, 'e6f34eac')
    expect(a.cookies.has('sessionid')).toBe(false)
    expect(a.cookies.has('user_status')).toBe(false)
    expect(await count(t.db, 'sessions')).toBe(0)
  })

  it('matches the e-mail in any letter case and with spaces around it', async () => {
    const { client } = await signedInClient(t, 'MixedCase@Example.com')
    const res = await new Agent(t.app).post('/api/client/signin/', { username: '  mixedcase@EXAMPLE.com ', password: STRONG_PASSWORD })
    expect(res.statusCode).toBe(200)
    expect(res.json().client_info).toMatchObject({ id: client.id, email: 'MixedCase@Example.com' })
  })

  it('sets an HttpOnly session cookie stored hashed, a readable user_status and a fresh CSRF token', async () => {
    const { client } = await signedInClient(t)
    await t.db.query('DELETE FROM sessions')
    const fresh = new Agent(t.app)
    await fresh.get('/api/health/')
    const csrfBefore = fresh.cookies.get('csrftoken')
    const signin = await fresh.post('/api/client/signin/', { username: client.email, password: STRONG_PASSWORD })
    expect(signin.statusCode).toBe(200)
    const cookies = signin.cookies as { name: string; httpOnly?: boolean; sameSite?: string; value: string }[]
    expect(cookies.find((c) => c.name === 'sessionid')).toMatchObject({ httpOnly: true, sameSite: 'Lax' })
    expect(cookies.find((c) => c.name === 'user_status')).toMatchObject({ value: 'logged' })
    expect(cookies.find((c) => c.name === 'user_status')?.httpOnly).toBeFalsy()
    expect(fresh.cookies.get('csrftoken')).not.toBe(csrfBefore)
    const stored = await t.db.query<{ id_hash: string }>('SELECT id_hash FROM sessions WHERE client_id = $1', [client.id])
    expect(stored).toHaveLength(1)
    expect(stored[0]!.id_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(stored[0]!.id_hash).not.toBe(fresh.cookies.get('sessionid'))
    expect((await fresh.get('/api/client/')).json().client_info.id).toBe(client.id)
  })
})

describe('GET /api/client/ without a session', () => {
  it('answers 401 1920e203 Unauthorized user AnonymousUser on every signed-in call', async () => {
    const a = new Agent(t.app)
    for (const [method, url] of [
      ['GET', '/api/client/'],
      ['POST', '/api/client/'],
      ['POST', '/api/client/change-password/'],
    ] as const) {
      const res = method === 'GET' ? await a.get(url) : await a.post(url, { old_password: 'x', new_password: STRONG_PASSWORD })
      expect(res.statusCode, url).toBe(401)
      expect(res.json()).toEqual({ error_code: '1920e203', error: 'Unauthorized user AnonymousUser' })
    }
  })

  it('an expired session answers 401 and its cookies are cleared', async () => {
    const { agent } = await signedInClient(t)
    await t.db.query(`UPDATE sessions SET expires_at = now() - interval '1 minute'`)
    expectError(await agent.get('/api/client/'), 401, '1920e203')
    expect(agent.cookies.has('sessionid')).toBe(false)
    expect(agent.cookies.has('user_status')).toBe(false)
  })
})

describe('GET /api/client/logout/', () => {
  it('ends the session on the server: the old cookie value no longer works', async () => {
    const { agent, client } = await signedInClient(t)
    const other = await new Agent(t.app).post('/api/client/signin/', { username: client.email, password: STRONG_PASSWORD })
    expect(other.statusCode).toBe(200)
    const sid = agent.cookies.get('sessionid')!
    const out = await agent.get('/api/client/logout/')
    expect(out.statusCode).toBe(200)
    expect(out.json()).toEqual({ status: 'ok' })
    expect(agent.cookies.has('sessionid')).toBe(false)
    expect(agent.cookies.has('user_status')).toBe(false)
    // only this session ended
    expect(await count(t.db, 'sessions WHERE client_id = $1', [client.id])).toBe(1)
    expectError(await agent.get('/api/client/'), 401, '1920e203')
    const replay = new Agent(t.app)
    replay.cookies.set('sessionid', sid)
    expectError(await replay.get('/api/client/'), 401, '1920e203')
  })

  it('without a session it still answers ok', async () => {
    const res = await new Agent(t.app).get('/api/client/logout/')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ status: 'ok' })
  })
})

describe('CSRF', () => {
  it('refuses a POST without X-CSRFToken or with a wrong one (403 2ac46899) and changes nothing', async () => {
    const { agent } = await signedInClient(t)
    expectError(await agent.post('/api/client/', { name: 'Mallory' }, { csrf: false }), 403, '2ac46899')
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/client/',
      headers: { cookie: [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrftoken': 'forged', 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Mallory' }),
    })
    expectError(wrong, 403, '2ac46899')
    const res = await agent.get('/api/client/')
    expect(res.statusCode).toBe(200)
    expect(res.json().client_info.name).toBe('')
    // the same call with the token goes through
    expect((await agent.post('/api/client/', { name: 'Alice' })).json().client_info.name).toBe('Alice')
  })

  it('refuses a sign-in without the token or without the CSRF cookie, and makes no session', async () => {
    const { client } = await signedInClient(t)
    await t.db.query('DELETE FROM sessions')
    const a = new Agent(t.app)
    expectError(await a.post('/api/client/signin/', { username: client.email, password: STRONG_PASSWORD }, { csrf: false }), 403, '2ac46899')
    const noCookie = await t.app.inject({
      method: 'POST',
      url: '/api/client/signin/',
      headers: { 'x-csrftoken': 'anything', 'content-type': 'application/json' },
      payload: JSON.stringify({ username: client.email, password: STRONG_PASSWORD }),
    })
    expectError(noCookie, 403, '2ac46899')
    expect(a.cookies.has('sessionid')).toBe(false)
    expect(await count(t.db, 'sessions')).toBe(0)
  })
})

describe('the sign-in service, without HTTP', () => {
  it('answers a session id that the API then accepts as the session cookie', async () => {
    const { client, email } = await signedInClient(t)
    const { sessionId, profile } = await signin(t.app.ctx, '10.9.8.7', 'a job, not a browser', email, STRONG_PASSWORD)
    expect(profile.client_info.id).toBe(client.id)
    const me = await t.app.inject({ method: 'GET', url: '/api/client/', cookies: { sessionid: sessionId } })
    expect(me.statusCode, me.body).toBe(200)
    expect(me.json().client_info.id).toBe(client.id)
  })
})
