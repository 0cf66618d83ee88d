import { describe, expect, it } from 'vitest'
import { Agent, STRONG_PASSWORD, count, expectError, lastMailTo, signedInClient, useTestApp } from '../../test/harness.ts'

const t = useTestApp()

const signin = (email: string, password: string) => new Agent(t.app).post('/api/client/signin/', { username: email, password })

async function resetLink(email: string) {
  const res = await new Agent(t.app).post('/api/client/send-password-reset-url/', { client_email: email })
  expect(res.statusCode).toBe(200)
  expect(res.json()).toEqual({ status: 'ok' })
  return (await lastMailTo(t.db, email))!
}

describe('POST /api/client/send-password-reset-url/', () => {
  it('mails a set-password link, by e-mail or by client id', async () => {
    const { client, email } = await signedInClient(t)
    const mail = await resetLink(email)
    expect(mail.subject).toBe('Set a new password')
    expect(mail.link).toMatch(new RegExp(`^http://portal\\.test/app/set-password/${client.id}/[\\w-]+/$`))
    const byId = await new Agent(t.app).post('/api/client/send-password-reset-url/', { client_id: client.id, segment: 'face' })
    expect(byId.json()).toEqual({ status: 'ok' })
    expect((await lastMailTo(t.db, email))!.link).toMatch(/\/\?platform=face$/)
    expect(await count(t.db, 'mail_outbox WHERE to_address = $1', [email])).toBe(2)
  })

  it('answers e1a53088 for an unknown e-mail and sends nothing', async () => {
    await signedInClient(t)
    const a = new Agent(t.app)
    expectError(await a.post('/api/client/send-password-reset-url/', { client_email: 'ghost@example.com' }), 400, 'e1a53088', 'client_email')
    expectError(await a.post('/api/client/send-password-reset-url/', { client_id: 999999 }), 400, 'e1a53088', 'client_email')
    expect(await count(t.db, 'mail_outbox')).toBe(0)
    expect(await count(t.db, 'email_tokens')).toBe(0)
  })
})

describe('GET /api/client/{id}/validate-confirmation-token/{token}/', () => {
  it('answers 200 with the e-mail; 400 invalid path, 404 client not found, 403 invalid token', async () => {
    const { client, email } = await signedInClient(t)
    const other = await signedInClient(t)
    const mail = await resetLink(email)
    const a = new Agent(t.app)
    const ok = await a.get(`/api/client/${client.id}/validate-confirmation-token/${mail.token}/`)
    expect(ok.statusCode).toBe(200)
    expect(ok.json()).toEqual({ status: 'ok', email })
    const badId = await a.get(`/api/client/abc/validate-confirmation-token/${mail.token}/`)
    expectError(badId, 400, '636e6338')
    expect(badId.json().error).toBe('Invalid path')
    expectError(await a.get(`/api/client/${client.id}/validate-confirmation-token/short/`), 400, '636e6338')
    expectError(await a.get(`/api/client/${client.id}/validate-confirmation-token/${'x'.repeat(20)}%21/`), 400, '636e6338')
    expectError(await a.get(`/api/client/999999/validate-confirmation-token/${mail.token}/`), 404, '96b731f4')
    expectError(await a.get(`/api/client/${client.id}/validate-confirmation-token/${'A'.repeat(32)}/`), 403, '4bdf9f69')
    // a real token under another client's id
    expectError(await a.get(`/api/client/${other.client.id}/validate-confirmation-token/${mail.token}/`), 403, '4bdf9f69')
    // checking does not spend the link
    expect((await a.get(`/api/client/${client.id}/validate-confirmation-token/${mail.token}/`)).statusCode).toBe(200)
  })

  it('an expired link answers 403, at the check and at the reset, and the password stays', async () => {
    const { client, email } = await signedInClient(t)
    const mail = await resetLink(email)
    await t.db.query(`UPDATE email_tokens SET expires_at = now() - interval '1 minute' WHERE purpose = 'reset'`)
    const a = new Agent(t.app)
    expectError(await a.get(`/api/client/${client.id}/validate-confirmation-token/${mail.token}/`), 403, '4bdf9f69')
    expectError(
      await a.post('/api/client/reset-password/', { client_id: client.id, confirmation_token: mail.token, new_password: 'Another-9pass' }),
      403,
      '4bdf9f69',
    )
    expect(a.cookies.has('sessionid')).toBe(false)
    expect((await signin(email, STRONG_PASSWORD)).statusCode).toBe(200)
  })

  it('an older link stops working when a newer one is sent', async () => {
    const { client, email } = await signedInClient(t)
    const first = await resetLink(email)
    const second = await resetLink(email)
    const a = new Agent(t.app)
    expectError(await a.get(`/api/client/${client.id}/validate-confirmation-token/${first.token}/`), 403, '4bdf9f69')
    expectError(
      await a.post('/api/client/reset-password/', { client_id: client.id, confirmation_token: first.token, new_password: 'Another-9pass' }),
      403,
      '4bdf9f69',
    )
    expect((await signin(email, STRONG_PASSWORD)).statusCode).toBe(200)
    expect(
      (await a.post('/api/client/reset-password/', { client_id: client.id, confirmation_token: second.token, new_password: 'Another-9pass' })).statusCode,
    ).toBe(200)
  })
})

describe('POST /api/client/reset-password/', () => {
  it('checks the new password (0c21cb17, 59991e53, 4f37c7da) without spending the link', async () => {
    const { client, email } = await signedInClient(t, 'walter@example.com')
    const mail = await resetLink(email)
    const a = new Agent(t.app)
    const reset = (new_password: string) => a.post('/api/client/reset-password/', { client_id: client.id, confirmation_token: mail.token, new_password })
    expectError(await reset(STRONG_PASSWORD), 400, '0c21cb17', 'new_password')
    expectError(await reset('Xx9-Walter'), 400, '59991e53', 'new_password')
    expectError(await reset('weak'), 400, '4f37c7da', 'new_password')
    expectError(await reset('nouppercase1'), 400, '4f37c7da', 'new_password')
    expect(a.cookies.has('sessionid')).toBe(false)
    expect((await signin(email, STRONG_PASSWORD)).statusCode).toBe(200)
    expect((await a.get(`/api/client/${client.id}/validate-confirmation-token/${mail.token}/`)).statusCode).toBe(200)
  })

  it('sets the password, ends every old session, signs the resetting agent in, and refuses reuse', async () => {
    const { agent: old, client, email } = await signedInClient(t)
    const old2 = new Agent(t.app)
    expect((await old2.post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })).statusCode).toBe(200)
    expect(await count(t.db, 'sessions WHERE client_id = $1', [client.id])).toBe(2)
    const mail = await resetLink(email)
    const a = new Agent(t.app)
    const ok = await a.post('/api/client/reset-password/', { client_id: client.id, confirmation_token: mail.token, new_password: 'Another-9pass' })
    expect(ok.statusCode).toBe(200)
    expect(ok.json().client_info).toMatchObject({ id: client.id, email })
    expect(ok.json()).toHaveProperty('prices')
    expect(a.cookies.get('user_status')).toBe('logged')
    expect((await a.get('/api/client/')).json().client_info.id).toBe(client.id)
    expectError(await old.get('/api/client/'), 401, '1920e203')
    expectError(await old2.get('/api/client/'), 401, '1920e203')
    expect(await count(t.db, 'sessions WHERE client_id = $1', [client.id])).toBe(1)

    const reuse = await new Agent(t.app).post('/api/client/reset-password/', {
      client_id: client.id,
      confirmation_token: mail.token,
      new_password: 'Third-9pass',
    })
    expectError(reuse, 403, '4bdf9f69')
    expectError(await new Agent(t.app).get(`/api/client/${client.id}/validate-confirmation-token/${mail.token}/`), 403, '4bdf9f69')
    expectError(await signin(email, STRONG_PASSWORD), 400, '3fc79796', 'password')
    expectError(await signin(email, 'Third-9pass'), 400, '3fc79796', 'password')
    expect((await signin(email, 'Another-9pass')).statusCode).toBe(200)
  })

  it('answers 404 96b731f4 for an unknown client', async () => {
    const { email } = await signedInClient(t)
    const mail = await resetLink(email)
    expectError(
      await new Agent(t.app).post('/api/client/reset-password/', { client_id: 999999, confirmation_token: mail.token, new_password: 'Another-9pass' }),
      404,
      '96b731f4',
    )
  })

  it('confirms an unconfirmed account, since the link proved the mailbox', async () => {
    const a = new Agent(t.app)
    await a.post('/api/client/signup/', { username: 'unconf@example.com', password: STRONG_PASSWORD })
    const mail = await resetLink('unconf@example.com')
    expect(
      (await a.post('/api/client/reset-password/', { client_id: mail.clientId, confirmation_token: mail.token, new_password: 'Another-9pass' })).statusCode,
    ).toBe(200)
    expect((await signin('unconf@example.com', 'Another-9pass')).statusCode).toBe(200)
  })
})

describe('POST /api/client/change-password/', () => {
  it('refuses a wrong current password (3fc79796), the same password (0c21cb17), one with the e-mail (59991e53), a weak one (4f37c7da)', async () => {
    const { agent, email } = await signedInClient(t, 'zelda@example.com')
    const change = (old_password: string, new_password: string) => agent.post('/api/client/change-password/', { old_password, new_password })
    expectError(await change('Wrong-1pass', 'Fresh-9pass'), 400, '3fc79796', 'old_password')
    expectError(await change(STRONG_PASSWORD, STRONG_PASSWORD), 400, '0c21cb17', 'new_password')
    expectError(await change(STRONG_PASSWORD, 'My-ZELDA-9'), 400, '59991e53', 'new_password')
    expectError(await change(STRONG_PASSWORD, 'weakpass'), 400, '4f37c7da', 'new_password')
    expect((await agent.get('/api/client/')).statusCode).toBe(200)
    expect((await signin(email, STRONG_PASSWORD)).statusCode).toBe(200)
  })

  it('changes the password and ends the other sessions only', async () => {
    const { agent, client, email } = await signedInClient(t)
    const other = new Agent(t.app)
    expect((await other.post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })).statusCode).toBe(200)
    const ok = await agent.post('/api/client/change-password/', { old_password: STRONG_PASSWORD, new_password: 'Fresh-9pass' })
    expect(ok.statusCode).toBe(200)
    expect(ok.json()).toEqual({ status: 'ok' })
    expect((await agent.get('/api/client/')).json().client_info.id).toBe(client.id)
    expectError(await other.get('/api/client/'), 401, '1920e203')
    expect(await count(t.db, 'sessions WHERE client_id = $1', [client.id])).toBe(1)
    expectError(await signin(email, STRONG_PASSWORD), 400, '3fc79796', 'password')
    expect((await signin(email, 'Fresh-9pass')).statusCode).toBe(200)
  })

  it('ends every link mailed before it: set-password, registration and e-mail change', async () => {
    const { agent, client, email } = await signedInClient(t)
    const reset = await resetLink(email)
    // a registration link, as an unconfirmed account would still hold it
    await t.db.query('UPDATE clients SET confirmed_at = NULL WHERE id = $1', [client.id])
    expect((await new Agent(t.app).post('/api/client/send-confirmation-url/', { client_email: email })).statusCode).toBe(200)
    const confirmation = (await lastMailTo(t.db, email))!
    await t.db.query('UPDATE clients SET confirmed_at = now() WHERE id = $1', [client.id])
    expect((await agent.post('/api/client/', { email: 'moved@example.com' })).statusCode).toBe(200)
    const change = (await lastMailTo(t.db, 'moved@example.com'))!

    expect((await agent.post('/api/client/change-password/', { old_password: STRONG_PASSWORD, new_password: 'Fresh-9pass' })).statusCode).toBe(200)

    const a = new Agent(t.app)
    expectError(await a.get(`/api/client/${client.id}/validate-confirmation-token/${reset.token}/`), 403, '4bdf9f69')
    expectError(
      await a.post('/api/client/reset-password/', { client_id: client.id, confirmation_token: reset.token, new_password: 'Other-9pass' }),
      403,
      '4bdf9f69',
    )
    expectError(await a.post('/api/client/confirm/', { client_id: client.id, confirmation_token: confirmation.token }), 403, '4bdf9f69')
    expectError(await a.post('/api/client/confirm/', { client_id: client.id, confirmation_token: change.token }), 403, '4bdf9f69')
    expect((await agent.get('/api/client/')).json().client_info).toMatchObject({ email, pending_email: null })
    expect((await signin(email, 'Fresh-9pass')).statusCode).toBe(200)
  })
})
