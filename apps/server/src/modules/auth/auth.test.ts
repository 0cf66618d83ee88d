import { describe, expect, it } from 'vitest'
import { Agent, STRONG_PASSWORD, lastMailTo, signedInClient, useTestApp } from '../../test/harness.ts'

const t = useTestApp()

describe('sign-in', () => {
  it('answers the named codes for an unknown e-mail, a wrong password and an unconfirmed account', async () => {
    const { email } = await signedInClient(t)
    const a = new Agent(t.app)
    const unknown = await a.post('/api/client/signin/', { username: 'nobody@example.com', password: STRONG_PASSWORD })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json()).toEqual({ error_code: 'e1a53088', error: "A user with this e-mail doesn't exist", field: 'username' })
    const wrong = await a.post('/api/client/signin/', { username: email, password: 'Wrong-pass1' })
    expect(wrong.json()).toMatchObject({ error_code: '3fc79796', field: 'password' })
    expect(a.cookies.has('sessionid')).toBe(false)
    await a.post('/api/client/signup/', { username: 'fresh@example.com', password: STRONG_PASSWORD })
    const unconfirmed = await a.post('/api/client/signin/', { username: 'fresh@example.com', password: STRONG_PASSWORD })
    expect(unconfirmed.statusCode).toBe(403)
    expect(unconfirmed.json().error_code).toBe('e6f34eac')
  })

  it('sets an HttpOnly session cookie stored hashed, a readable user_status and a fresh CSRF token', async () => {
    const { agent, client } = await signedInClient(t)
    const res = await agent.get('/api/client/')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(Object.keys(body.client_info).sort()).toEqual(
      ['balance', 'company', 'email', 'id', 'is_staff', 'last_name', 'name', 'options', 'pending_email', 'phone', 'position', 'token'].sort(),
    )
    expect(Object.keys(body.client_info.options).sort()).toEqual(
      ['balance_autofill', 'bills_mail', 'corporate_member', 'facesdk_allow_subscribe', 'news_notification', 'updates_notification'].sort(),
    )
    expect(Object.keys(body.client_info.company).sort()).toEqual(['address', 'name', 'position', 'site', 'type', 'vat'])
    expect(Object.keys(body.prices).sort()).toEqual(['face', 'face-machine', 'nuitrack', 'nuitrack-analytics'])
    expect(body.prices['nuitrack-analytics'].find((p: { tier: number }) => p.tier === 4).cost).toBe(20)
    expect(body).toHaveProperty('payment_provider_key')
    const sid = agent.cookies.get('sessionid')!
    const stored = await t.db.query<{ id_hash: string }>('SELECT id_hash FROM sessions WHERE client_id = $1', [client.id])
    expect(stored).toHaveLength(1)
    expect(stored[0]!.id_hash).not.toBe(sid)
    expect(stored[0]!.id_hash).toMatch(/^[0-9a-f]{64}$/)
    const fresh = new Agent(t.app)
    const signin = await fresh.post('/api/client/signin/', { username: client.email, password: STRONG_PASSWORD })
    const cookies = signin.cookies as { name: string; httpOnly?: boolean; sameSite?: string }[]
    expect(cookies.find((c) => c.name === 'sessionid')).toMatchObject({ httpOnly: true, sameSite: 'Lax' })
    expect(cookies.find((c) => c.name === 'user_status')?.httpOnly).toBeFalsy()
  })

  it('an anonymous call to a signed-in endpoint answers 401 Unauthorized user AnonymousUser', async () => {
    const a = new Agent(t.app)
    for (const [method, url] of [['GET', '/api/client/'], ['POST', '/api/client/'], ['POST', '/api/client/change-password/']] as const) {
      const res = method === 'GET' ? await a.get(url) : await a.post(url, { old_password: 'x', new_password: STRONG_PASSWORD })
      expect(res.statusCode, url).toBe(401)
      expect(res.json()).toEqual({ error_code: '1920e203', error: 'Unauthorized user AnonymousUser' })
    }
  })

  it('logout ends the session on the server: the old cookie no longer works', async () => {
    const { agent, client } = await signedInClient(t)
    const sid = agent.cookies.get('sessionid')!
    const out = await agent.get('/api/client/logout/')
    expect(out.json()).toEqual({ status: 'ok' })
    expect(agent.cookies.has('sessionid')).toBe(false)
    expect(agent.cookies.has('user_status')).toBe(false)
    expect((await t.db.query('SELECT 1 FROM sessions WHERE client_id = $1', [client.id])).length).toBe(0)
    const replay = new Agent(t.app)
    replay.cookies.set('sessionid', sid)
    expect((await replay.get('/api/client/')).statusCode).toBe(401)
  })
})

describe('CSRF', () => {
  it('refuses a POST without the header, with a wrong one, or without the cookie (403, 2ac46899) and changes nothing', async () => {
    const { agent, client } = await signedInClient(t)
    const missing = await agent.post('/api/client/', { name: 'Mallory' }, { csrf: false })
    expect(missing.statusCode).toBe(403)
    expect(missing.json().error_code).toBe('2ac46899')
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/client/',
      headers: { cookie: [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrftoken': 'forged', 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Mallory' }),
    })
    expect(wrong.statusCode).toBe(403)
    const noCookie = await t.app.inject({
      method: 'POST',
      url: '/api/client/signin/',
      headers: { 'x-csrftoken': 'anything', 'content-type': 'application/json' },
      payload: JSON.stringify({ username: client.email, password: STRONG_PASSWORD }),
    })
    expect(noCookie.statusCode).toBe(403)
    expect((await agent.get('/api/client/')).json().client_info.name).toBe('')
  })
})

describe('registration', () => {
  it('validates e-mail (e4a5b8f4) and password (4f37c7da) on their fields', async () => {
    const a = new Agent(t.app)
    for (const [body, code, field] of [
      [{ username: 'not-an-email', password: STRONG_PASSWORD }, 'e4a5b8f4', 'username'],
      [{ username: `${'x'.repeat(145)}@ex.com`, password: STRONG_PASSWORD }, 'e4a5b8f4', 'username'],
      [{ username: 'a@example.com', password: 'short1A' }, '4f37c7da', 'password'],
      [{ username: 'b@example.com', password: 'alllowercase1' }, '4f37c7da', 'password'],
      [{ username: 'c@example.com', password: 'Has space 1A' }, '4f37c7da', 'password'],
      [{ username: 'carol@example.com', password: 'Carol-2026x' }, '4f37c7da', 'password'],
    ] as const) {
      const res = await a.post('/api/client/signup/', body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json()).toMatchObject({ error_code: code, field })
    }
    expect((await t.db.query('SELECT count(*)::int AS n FROM clients'))[0]).toEqual({ n: 0 })
  })

  it('resends the confirmation; an old link stops working and an expired one answers 403', async () => {
    const a = new Agent(t.app)
    await a.post('/api/client/signup/', { username: 'late@example.com', password: STRONG_PASSWORD, segment: 'nuitrack' })
    const first = await lastMailTo(t.db, 'late@example.com')
    const again = await a.post('/api/client/send-confirmation-url/', { client_email: 'late@example.com', segment: 'face' })
    expect(again.json()).toEqual({ status: 'ok' })
    const second = await lastMailTo(t.db, 'late@example.com')
    expect(second!.link).toContain('?platform=face')
    expect((await a.post('/api/client/confirm/', { client_id: first!.clientId, confirmation_token: first!.token })).statusCode).toBe(403)
    await t.db.query(`UPDATE email_tokens SET expires_at = now() - interval '1 minute' WHERE purpose = 'confirm'`)
    const expired = await a.post('/api/client/confirm/', { client_id: second!.clientId, confirmation_token: second!.token })
    expect(expired.statusCode).toBe(403)
    expect(expired.json().error_code).toBe('4bdf9f69')
    expect((await a.post('/api/client/send-confirmation-url/', { client_email: 'ghost@example.com' })).json().error_code).toBe('e1a53088')
    const wrongClient = await a.post('/api/client/confirm/', { client_id: 999999, confirmation_token: second!.token })
    expect(wrongClient.json().error_code).toBe('96b731f4')
  })

  it('refuses to resend for a confirmed account (f47d90f9)', async () => {
    const { email } = await signedInClient(t)
    const res = await new Agent(t.app).post('/api/client/send-confirmation-url/', { client_email: email })
    expect(res.json().error_code).toBe('f47d90f9')
  })
})

describe('password reset', () => {
  it('validates the link: 400 invalid path, 404 client not found, 403 invalid or outdated', async () => {
    const { client, email } = await signedInClient(t)
    const a = new Agent(t.app)
    await a.post('/api/client/send-password-reset-url/', { client_email: email })
    const mail = await lastMailTo(t.db, email)
    expect(mail!.subject).toBe('Set a new password')
    expect(mail!.link).toMatch(new RegExp(`/app/set-password/${client.id}/[\\w-]+/$`))
    expect((await a.get(`/api/client/${client.id}/validate-confirmation-token/${mail!.token}/`)).json()).toEqual({ status: 'ok', email })
    const badPath = await a.get(`/api/client/abc/validate-confirmation-token/${mail!.token}/`)
    expect(badPath.statusCode).toBe(400)
    expect(badPath.json()).toMatchObject({ error_code: '636e6338', error: 'Invalid path' })
    expect((await a.get(`/api/client/${client.id}/validate-confirmation-token/short/`)).statusCode).toBe(400)
    expect((await a.get(`/api/client/999999/validate-confirmation-token/${mail!.token}/`)).statusCode).toBe(404)
    expect((await a.get(`/api/client/${client.id}/validate-confirmation-token/${'A'.repeat(32)}/`)).statusCode).toBe(403)
    await t.db.query(`UPDATE email_tokens SET expires_at = now() - interval '1 second'`)
    expect((await a.get(`/api/client/${client.id}/validate-confirmation-token/${mail!.token}/`)).statusCode).toBe(403)
  })

  it('sets the new password once, ends every old session, signs in, and refuses reuse', async () => {
    const { agent: old, client, email } = await signedInClient(t)
    const a = new Agent(t.app)
    await a.post('/api/client/send-password-reset-url/', { client_id: client.id })
    const mail = await lastMailTo(t.db, email)
    const same = await a.post('/api/client/reset-password/', { client_id: client.id, confirmation_token: mail!.token, new_password: STRONG_PASSWORD })
    expect(same.json()).toMatchObject({ error_code: '0c21cb17', field: 'new_password' })
    const local = email.split('@')[0]!
    const withEmail = await a.post('/api/client/reset-password/', { client_id: client.id, confirmation_token: mail!.token, new_password: `X1-${local}` })
    expect(withEmail.json()).toMatchObject({ error_code: '59991e53', field: 'new_password' })
    const weak = await a.post('/api/client/reset-password/', { client_id: client.id, confirmation_token: mail!.token, new_password: 'weak' })
    expect(weak.json().error_code).toBe('4f37c7da')
    const ok = await a.post('/api/client/reset-password/', { client_id: client.id, confirmation_token: mail!.token, new_password: 'Another-9pass' })
    expect(ok.statusCode).toBe(200)
    expect(ok.json().client_info.email).toBe(email)
    expect((await a.get('/api/client/')).statusCode).toBe(200)
    expect((await old.get('/api/client/')).statusCode).toBe(401)
    const reuse = await a.post('/api/client/reset-password/', { client_id: client.id, confirmation_token: mail!.token, new_password: 'Third-9pass' })
    expect(reuse.statusCode).toBe(403)
    expect((await new Agent(t.app).post('/api/client/signin/', { username: email, password: 'Another-9pass' })).statusCode).toBe(200)
  })

  it('an unknown e-mail answers e1a53088 and sends nothing', async () => {
    const res = await new Agent(t.app).post('/api/client/send-password-reset-url/', { client_email: 'ghost@example.com' })
    expect(res.json()).toMatchObject({ error_code: 'e1a53088', field: 'client_email' })
    expect((await t.db.query('SELECT count(*)::int AS n FROM mail_outbox'))[0]).toEqual({ n: 0 })
  })
})

describe('change password', () => {
  it('checks the current password, refuses the same or e-mail-based one, and ends the other sessions only', async () => {
    const { agent, email } = await signedInClient(t)
    const other = new Agent(t.app)
    await other.post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })
    expect((await agent.post('/api/client/change-password/', { old_password: 'Wrong-1pass', new_password: 'Fresh-9pass' })).json()).toMatchObject({ error_code: '3fc79796', field: 'old_password' })
    expect((await agent.post('/api/client/change-password/', { old_password: STRONG_PASSWORD, new_password: STRONG_PASSWORD })).json().error_code).toBe('0c21cb17')
    expect((await agent.post('/api/client/change-password/', { old_password: STRONG_PASSWORD, new_password: `Zz9-${email.split('@')[0]}` })).json().error_code).toBe('59991e53')
    const ok = await agent.post('/api/client/change-password/', { old_password: STRONG_PASSWORD, new_password: 'Fresh-9pass' })
    expect(ok.json()).toEqual({ status: 'ok' })
    expect((await agent.get('/api/client/')).statusCode).toBe(200)
    expect((await other.get('/api/client/')).statusCode).toBe(401)
    expect((await new Agent(t.app).post('/api/client/signin/', { username: email, password: 'Fresh-9pass' })).statusCode).toBe(200)
  })
})

describe('rate limits', () => {
  it('sign-in: more than 10 tries for one e-mail in 15 minutes answer 429 8221e1b0', async () => {
    const { email } = await signedInClient(t)
    const a = new Agent(t.app, '10.9.9.9')
    const codes: number[] = []
    for (let i = 0; i < 11; i++) codes.push((await a.post('/api/client/signin/', { username: email, password: 'Wrong-pass1' })).statusCode)
    expect(codes.slice(0, 9).every((c) => c === 400)).toBe(true)
    const limited = await a.post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })
    expect(limited.statusCode).toBe(429)
    expect(limited.json()).toEqual({ error_code: '8221e1b0', error: 'Too many requests. Please wait a few minutes and try again' })
  })

  it('e-mail sending: at most 5 mails to one address in 15 minutes, also when fired in parallel', async () => {
    const { email } = await signedInClient(t)
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => new Agent(t.app, `10.1.1.${i}`).post('/api/client/send-password-reset-url/', { client_email: email })))
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(5)
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(5)
    expect((await t.db.query('SELECT count(*)::int AS n FROM mail_outbox WHERE to_address = $1', [email]))[0]).toEqual({ n: 5 })
  })

  it('sign-up: at most 20 per address in an hour', async () => {
    const a = new Agent(t.app, '10.2.2.2')
    let last = 0
    for (let i = 0; i < 21; i++) last = (await a.post('/api/client/signup/', { username: `many${i}@example.com`, password: STRONG_PASSWORD })).statusCode
    expect(last).toBe(429)
    expect((await t.db.query('SELECT count(*)::int AS n FROM clients'))[0]).toEqual({ n: 20 })
  })
})
