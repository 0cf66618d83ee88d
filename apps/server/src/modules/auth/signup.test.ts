import { describe, expect, it } from 'vitest'
import { Agent, STRONG_PASSWORD, count, expectError, lastMailTo, signedInClient, useTestApp } from '../../test/harness.ts'

const t = useTestApp()

const confirmedAt = async (email: string) =>
  (await t.db.query<{ confirmed_at: Date | null }>('SELECT confirmed_at FROM clients WHERE lower(email) = lower($1)', [email]))[0]?.confirmed_at ?? null

describe('POST /api/client/signup/ and /api/client/confirm/', () => {
  it('registers, mails a confirmation link, confirms once, then signs in', async () => {
    const agent = new Agent(t.app)
    const email = 'newcomer@example.com'
    const signup = await agent.post('/api/client/signup/', { username: email, email, password: STRONG_PASSWORD, is_corporate: true, segment: 'face' })
    expect(signup.statusCode).toBe(201)
    expect(signup.json()).toEqual({ client_id: expect.any(Number), email })
    expect(await confirmedAt(email)).toBeNull()

    expectError(await agent.post('/api/client/signin/', { username: email, password: STRONG_PASSWORD }), 403, 'e6f34eac')
    expect(agent.cookies.has('sessionid')).toBe(false)

    const mail = await lastMailTo(t.db, email)
    expect(mail!.subject).toBe('Confirm your registration')
    expect(mail!.link).toMatch(/^http:\/\/portal\.test\/app\/registration-confirm\/\d+\/[\w-]+\/\?platform=face$/)
    expect(mail!.clientId).toBe(signup.json().client_id)
    const confirm = await agent.post('/api/client/confirm/', { client_id: mail!.clientId, confirmation_token: mail!.token })
    expect(confirm.statusCode).toBe(200)
    expect(confirm.json()).toEqual({ status: 'ok', kind: 'registration', email })
    expect(await confirmedAt(email)).toBeInstanceOf(Date)

    // the link works once
    expectError(await agent.post('/api/client/confirm/', { client_id: mail!.clientId, confirmation_token: mail!.token }), 403, '4bdf9f69')

    const signin = await agent.post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })
    expect(signin.statusCode).toBe(200)
    expect(signin.json().client_info).toMatchObject({ email, options: { corporate_member: true } })
    expect(agent.cookies.get('user_status')).toBe('logged')
  })

  it('refuses a second account for the same e-mail in any letter case (6352926b)', async () => {
    const agent = new Agent(t.app)
    expect((await agent.post('/api/client/signup/', { username: 'Dup@Example.com', password: STRONG_PASSWORD })).statusCode).toBe(201)
    expectError(await agent.post('/api/client/signup/', { username: 'dup@example.com', password: 'Other-9pass' }), 400, '6352926b', 'username')
    expect(await count(t.db, 'clients')).toBe(1)
    expect(await count(t.db, 'mail_outbox')).toBe(1)
  })

  it('validates the e-mail (e4a5b8f4) and the password (4f37c7da) on their fields and stores nothing', async () => {
    const a = new Agent(t.app)
    for (const [body, code, field] of [
      [{ username: 'not-an-email', password: STRONG_PASSWORD }, 'e4a5b8f4', 'username'],
      [{ username: '', password: STRONG_PASSWORD }, 'e4a5b8f4', 'username'],
      [{ username: `${'x'.repeat(145)}@ex.com`, password: STRONG_PASSWORD }, 'e4a5b8f4', 'username'],
      [{ username: 'a@example.com', password: 'short1A' }, '4f37c7da', 'password'],
      [{ username: 'b@example.com', password: 'alllowercase1' }, '4f37c7da', 'password'],
      [{ username: 'c@example.com', password: 'Has space 1A' }, '4f37c7da', 'password'],
      [{ username: 'd@example.com', password: `Aa1${'x'.repeat(254)}` }, '4f37c7da', 'password'],
      // the part of the e-mail before the at-sign may not be in the password
      [{ username: 'carol@example.com', password: 'Carol-2026x' }, '4f37c7da', 'password'],
    ] as const) {
      expectError(await a.post('/api/client/signup/', body), 400, code, field)
    }
    expect(await count(t.db, 'clients')).toBe(0)
    expect(await count(t.db, 'mail_outbox')).toBe(0)
  })
})

describe('POST /api/client/send-confirmation-url/', () => {
  it('resends the link with the platform; the older link stops working, the newer one confirms', async () => {
    const a = new Agent(t.app)
    await a.post('/api/client/signup/', { username: 'late@example.com', password: STRONG_PASSWORD, segment: 'nuitrack' })
    const first = await lastMailTo(t.db, 'late@example.com')
    expect(first!.link).toContain('?platform=nuitrack')
    const again = await a.post('/api/client/send-confirmation-url/', { client_email: 'LATE@example.com', segment: 'face' })
    expect(again.statusCode).toBe(200)
    expect(again.json()).toEqual({ status: 'ok' })
    expect(await count(t.db, 'mail_outbox WHERE to_address = $1', ['late@example.com'])).toBe(2)
    const second = await lastMailTo(t.db, 'late@example.com')
    expect(second!.link).toContain('?platform=face')
    expect(second!.token).not.toBe(first!.token)

    expectError(await a.post('/api/client/confirm/', { client_id: first!.clientId, confirmation_token: first!.token }), 403, '4bdf9f69')
    expect(await confirmedAt('late@example.com')).toBeNull()
    const ok = await a.post('/api/client/confirm/', { client_id: second!.clientId, confirmation_token: second!.token })
    expect(ok.json()).toEqual({ status: 'ok', kind: 'registration', email: 'late@example.com' })
    expect(await confirmedAt('late@example.com')).toBeInstanceOf(Date)
  })

  it('an expired confirmation link answers 403 and leaves the account unconfirmed', async () => {
    const a = new Agent(t.app)
    await a.post('/api/client/signup/', { username: 'slow@example.com', password: STRONG_PASSWORD })
    const mail = await lastMailTo(t.db, 'slow@example.com')
    await t.db.query(`UPDATE email_tokens SET expires_at = now() - interval '1 minute' WHERE purpose = 'confirm'`)
    expectError(await a.post('/api/client/confirm/', { client_id: mail!.clientId, confirmation_token: mail!.token }), 403, '4bdf9f69')
    expect(await confirmedAt('slow@example.com')).toBeNull()
    expectError(await a.post('/api/client/signin/', { username: 'slow@example.com', password: STRONG_PASSWORD }), 403, 'e6f34eac')
  })

  it('answers e1a53088 for an unknown e-mail and f47d90f9 for a confirmed account, and mails nothing', async () => {
    const { email } = await signedInClient(t)
    const a = new Agent(t.app)
    expectError(await a.post('/api/client/send-confirmation-url/', { client_email: 'ghost@example.com' }), 400, 'e1a53088', 'client_email')
    expectError(await a.post('/api/client/send-confirmation-url/', { client_email: email }), 400, 'f47d90f9', 'client_email')
    expect(await count(t.db, 'mail_outbox')).toBe(0)
  })
})

describe('confirmation errors', () => {
  it("404 96b731f4 for an unknown client, 403 for another client's or a set-password token, 400 for a malformed one", async () => {
    const a = new Agent(t.app)
    await a.post('/api/client/signup/', { username: 'one@example.com', password: STRONG_PASSWORD })
    await a.post('/api/client/signup/', { username: 'two@example.com', password: STRONG_PASSWORD })
    const one = await lastMailTo(t.db, 'one@example.com')
    const two = await lastMailTo(t.db, 'two@example.com')
    expectError(await a.post('/api/client/confirm/', { client_id: 999999, confirmation_token: one!.token }), 404, '96b731f4')
    expectError(await a.post('/api/client/confirm/', { client_id: two!.clientId, confirmation_token: one!.token }), 403, '4bdf9f69')
    expectError(await a.post('/api/client/confirm/', { client_id: one!.clientId, confirmation_token: 'bad token!' }), 400, '6a38afc1', 'confirmation_token')
    // a set-password link is no confirmation link
    await a.post('/api/client/send-password-reset-url/', { client_email: 'two@example.com' })
    const reset = await lastMailTo(t.db, 'two@example.com')
    expect(reset!.subject).toBe('Set a new password')
    expectError(await a.post('/api/client/confirm/', { client_id: two!.clientId, confirmation_token: reset!.token }), 403, '4bdf9f69')
    expect(await count(t.db, 'clients WHERE confirmed_at IS NOT NULL')).toBe(0)
    // the failures did not spend the real links
    expect((await a.post('/api/client/confirm/', { client_id: one!.clientId, confirmation_token: one!.token })).statusCode).toBe(200)
  })
})
