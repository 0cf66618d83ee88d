import { describe, expect, it } from 'vitest'
import { Agent, STRONG_PASSWORD, count, expectError, lastMailTo, signedInClient, useTestApp } from '../../test/harness.ts'

const t = useTestApp()

const signin = (email: string, password = STRONG_PASSWORD) => new Agent(t.app).post('/api/client/signin/', { username: email, password })

describe('GET /api/client/', () => {
  it('answers every client_info field of section 3, prices per platform and the payment keys', async () => {
    const { agent, client, email } = await signedInClient(t)
    const res = await agent.get('/api/client/')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(Object.keys(body).sort()).toEqual([
      'acting_person',
      'client_info',
      'payment_provider_key',
      'paypal_client_id',
      'paypal_merchant_id',
      'prices',
      'role',
      'trials_used',
    ])
    expect(body.trials_used).toEqual([])
    expect(body.client_info).toEqual({
      id: client.id,
      balance: 0,
      owed: 0,
      token: client.token,
      options: {
        balance_autofill: false,
        bills_mail: true,
        news_notification: false,
        updates_notification: true,
        corporate_member: false,
        facesdk_allow_subscribe: false,
      },
      company: { name: '', address: '', vat: '', type: '', site: '', position: '' },
      email,
      pending_email: null,
      name: '',
      last_name: '',
      phone: '',
      position: '',
      is_staff: false,
    })
    expect(Object.keys(body.prices).sort()).toEqual(['face', 'face-machine', 'nuitrack', 'nuitrack-analytics'])
    for (const platform of Object.keys(body.prices)) expect(body.prices[platform].length, platform).toBeGreaterThan(0)
    expect(body.prices.nuitrack[0]).toEqual(
      expect.objectContaining({
        product: expect.any(String),
        cost: expect.any(Number),
        old_price: expect.toBeOneOf([null, expect.any(Number)]),
        discount: expect.toBeOneOf([null, expect.any(Number)]),
      }),
    )
    // the analytics cloud price is read from tier 4 of na_subscribe
    expect(body.prices['nuitrack-analytics'].find((p: { product: string; tier: number }) => p.product === 'na_subscribe' && p.tier === 4)).toBeTruthy()
    // no Stripe or PayPal keys configured here (modules/payments/providers.test.ts sets them)
    expect(body.payment_provider_key).toBe('')
    expect(body.paypal_merchant_id).toBe('')
    expect(body.paypal_client_id).toBe('')
  })

  it('shows the balance in dollars with 2 decimals', async () => {
    const { agent, client } = await signedInClient(t)
    await t.db.query('UPDATE clients SET balance_cents = 12345 WHERE id = $1', [client.id])
    expect((await agent.get('/api/client/')).json().client_info.balance).toBe(123.45)
  })

  it('anonymous: 401 1920e203 Unauthorized user AnonymousUser', async () => {
    const res = await new Agent(t.app).get('/api/client/')
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ error_code: '1920e203', error: 'Unauthorized user AnonymousUser' })
  })
})

describe('POST /api/client/', () => {
  it('updates profile, company and options; only what is sent changes, and it is stored', async () => {
    const { agent } = await signedInClient(t)
    const res = await agent.post('/api/client/', {
      name: '  Ada ',
      last_name: 'Lovelace',
      phone: '+44 20 7946 0958',
      position: 'CTO',
      company: { name: 'Engines', vat: 'GB123', site: 'engines.example', type: 'Ltd', position: 'Founder' },
      options: { corporate_member: true, news_notification: false },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().email_confirmation_sent).toBe(false)
    const info = res.json().client_info
    expect(info).toMatchObject({
      name: 'Ada',
      last_name: 'Lovelace',
      phone: '+44 20 7946 0958',
      position: 'CTO',
      company: { name: 'Engines', vat: 'GB123', site: 'engines.example', type: 'Ltd', position: 'Founder', address: '' },
      options: { corporate_member: true, news_notification: false, bills_mail: true, updates_notification: true, balance_autofill: false },
    })
    const second = await agent.post('/api/client/', { company: { address: 'London' }, options: { balance_autofill: true } })
    expect(second.statusCode).toBe(200)
    const stored = (await agent.get('/api/client/')).json().client_info
    expect(stored).toMatchObject({
      name: 'Ada',
      last_name: 'Lovelace',
      company: { name: 'Engines', address: 'London', vat: 'GB123' },
      options: { corporate_member: true, news_notification: false, balance_autofill: true },
    })
    // switching back to a personal account
    await agent.post('/api/client/', { options: { corporate_member: false } })
    expect((await agent.get('/api/client/')).json().client_info.options.corporate_member).toBe(false)
  })

  it('accepts every field at its section-5 maximum', async () => {
    const { agent } = await signedInClient(t)
    const body = {
      name: 'n'.repeat(30),
      last_name: 'l'.repeat(150),
      phone: '1'.repeat(30),
      position: 'p'.repeat(150),
      company: {
        name: 'c'.repeat(30),
        address: 'a'.repeat(999),
        vat: 'v'.repeat(150),
        type: 't'.repeat(150),
        site: 's'.repeat(150),
        position: 'q'.repeat(150),
      },
    }
    const res = await agent.post('/api/client/', body)
    expect(res.statusCode, res.body).toBe(200)
    expect((await agent.get('/api/client/')).json().client_info).toMatchObject(body)
  })

  it('refuses a value over its maxlength with 400 6a38afc1 naming the field by its whole path, and changes nothing', async () => {
    const { agent } = await signedInClient(t)
    for (const [body, field] of [
      [{ name: 'x'.repeat(31) }, 'name'],
      [{ last_name: 'x'.repeat(151) }, 'last_name'],
      [{ phone: '1'.repeat(31) }, 'phone'],
      [{ phone: 'call me' }, 'phone'],
      [{ position: 'x'.repeat(151) }, 'position'],
      [{ company: { name: 'x'.repeat(31) } }, 'company.name'],
      [{ company: { address: 'x'.repeat(1000) } }, 'company.address'],
      [{ company: { vat: 'x'.repeat(151) } }, 'company.vat'],
      [{ company: { type: 'x'.repeat(151) } }, 'company.type'],
      [{ company: { site: 'x'.repeat(151) } }, 'company.site'],
      [{ company: { position: 'x'.repeat(151) } }, 'company.position'],
    ] as const) {
      // a valid field alongside must not be saved either
      expectError(await agent.post('/api/client/', { ...body, last_name: field === 'last_name' ? body.last_name : 'Saved?' }), 400, '6a38afc1', field)
    }
    const info = (await agent.get('/api/client/')).json().client_info
    expect(info).toMatchObject({
      name: '',
      last_name: '',
      phone: '',
      position: '',
      company: { name: '', address: '', vat: '', type: '', site: '', position: '' },
    })
  })

  it('refuses to let the client set the staff-only option facesdk_allow_subscribe', async () => {
    const { agent } = await signedInClient(t)
    expectError(await agent.post('/api/client/', { options: { facesdk_allow_subscribe: true } }), 400, '6a38afc1')
    expect((await agent.get('/api/client/')).json().client_info.options.facesdk_allow_subscribe).toBe(false)
  })
})

describe('changing the e-mail', () => {
  it('mails the new address; the change takes effect only after confirm, and the old e-mail signs in until then', async () => {
    const { agent, email, client } = await signedInClient(t)
    const res = await agent.post('/api/client/', { email: 'new-address@example.com', name: 'Ada' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ email_confirmation_sent: true, client_info: { email, pending_email: 'new-address@example.com', name: 'Ada' } })
    expect(await count(t.db, 'mail_outbox WHERE to_address = $1', [email])).toBe(0)
    const mail = await lastMailTo(t.db, 'new-address@example.com')
    expect(mail!.subject).toBe('Confirm your new e-mail')
    expect(mail!.link).toContain(`/app/registration-confirm/${client.id}/`)

    // before confirmation: the old e-mail signs in, the new one is unknown
    expect((await signin(email)).statusCode).toBe(200)
    expectError(await signin('new-address@example.com'), 400, 'e1a53088', 'username')
    expect((await agent.get('/api/client/')).json().client_info).toMatchObject({ email, pending_email: 'new-address@example.com' })

    const confirmed = await new Agent(t.app).post('/api/client/confirm/', { client_id: client.id, confirmation_token: mail!.token })
    expect(confirmed.statusCode).toBe(200)
    expect(confirmed.json()).toEqual({ status: 'ok', kind: 'email_change', email: 'new-address@example.com' })
    expect((await agent.get('/api/client/')).json().client_info).toMatchObject({ email: 'new-address@example.com', pending_email: null })
    expectError(await signin(email), 400, 'e1a53088', 'username')
    expect((await signin('new-address@example.com')).statusCode).toBe(200)
    // the link works once
    expectError(await new Agent(t.app).post('/api/client/confirm/', { client_id: client.id, confirmation_token: mail!.token }), 403, '4bdf9f69')
  })

  it('refuses an e-mail in use (6352926b) or malformed (e4a5b8f4), and mails nothing', async () => {
    const { agent, email } = await signedInClient(t)
    const taken = await signedInClient(t)
    expectError(await agent.post('/api/client/', { email: taken.email.toUpperCase() }), 400, '6352926b', 'email')
    expectError(await agent.post('/api/client/', { email: 'not-an-email' }), 400, 'e4a5b8f4', 'email')
    expect((await agent.get('/api/client/')).json().client_info).toMatchObject({ email, pending_email: null })
    expect(await count(t.db, 'mail_outbox')).toBe(0)
  })

  it('sending the current e-mail again changes nothing and mails nothing', async () => {
    const { agent, email } = await signedInClient(t)
    const res = await agent.post('/api/client/', { email: email.toUpperCase() })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ email_confirmation_sent: false, client_info: { email, pending_email: null } })
    expect(await count(t.db, 'mail_outbox')).toBe(0)
  })

  it('an expired link answers 403, and a second change makes the first link useless', async () => {
    const { agent, email, client } = await signedInClient(t)
    await agent.post('/api/client/', { email: 'first@example.com' })
    const first = await lastMailTo(t.db, 'first@example.com')
    await agent.post('/api/client/', { email: 'second@example.com' })
    const second = await lastMailTo(t.db, 'second@example.com')
    expect((await agent.get('/api/client/')).json().client_info.pending_email).toBe('second@example.com')
    expectError(await new Agent(t.app).post('/api/client/confirm/', { client_id: client.id, confirmation_token: first!.token }), 403, '4bdf9f69')
    await t.db.query(`UPDATE email_tokens SET expires_at = now() - interval '1 minute' WHERE purpose = 'email_change'`)
    expectError(await new Agent(t.app).post('/api/client/confirm/', { client_id: client.id, confirmation_token: second!.token }), 403, '4bdf9f69')
    expect((await agent.get('/api/client/')).json().client_info.email).toBe(email)
    expect((await signin(email)).statusCode).toBe(200)
  })

  it('an e-mail taken by someone else before confirmation is refused at confirmation (6352926b)', async () => {
    const { agent, client, email } = await signedInClient(t)
    await agent.post('/api/client/', { email: 'race@example.com' })
    const mail = await lastMailTo(t.db, 'race@example.com')
    const rival = await signedInClient(t, 'race@example.com')
    expectError(await new Agent(t.app).post('/api/client/confirm/', { client_id: client.id, confirmation_token: mail!.token }), 400, '6352926b')
    expect((await agent.get('/api/client/')).json().client_info.email).toBe(email)
    expect((await rival.agent.get('/api/client/')).json().client_info.email).toBe('race@example.com')
  })
})

describe('undoing an e-mail change from the old address', () => {
  /** Changes the e-mail of the signed-in client and follows the link to the new address. */
  async function change(agent: Agent, clientId: number, to: string) {
    expect((await agent.post('/api/client/', { email: to })).statusCode).toBe(200)
    const mail = await lastMailTo(t.db, to)
    expect((await new Agent(t.app).post('/api/client/confirm/', { client_id: clientId, confirmation_token: mail!.token })).statusCode).toBe(200)
  }
  const revert = (clientId: number, token: string) => new Agent(t.app).post('/api/client/revert-email/', { client_id: clientId, confirmation_token: token })

  it('tells the old address, whose link gives it back, signs everyone out and ends the links of the taker', async () => {
    const { agent, email, client } = await signedInClient(t)
    await change(agent, client.id, 'taker@example.com')
    const notice = await lastMailTo(t.db, email)
    expect(notice!.subject).toBe('The e-mail of your account was changed')
    expect(notice!.text_body).toContain(`from ${email} to taker@example.com`)
    expect(notice!.text_body).toContain('within 7 days')
    expect(notice!.link).toBe(`http://portal.test/app/email-revert/${client.id}/${notice!.token}/`)
    // the link lives 7 days
    const [ttl] = await t.db.query<{ days: number }>(
      `SELECT round(extract(epoch FROM expires_at - created_at) / 86400)::int AS days FROM email_tokens WHERE purpose = 'email_revert' AND client_id = $1`,
      [client.id],
    )
    expect(ttl!.days).toBe(7)

    // the taker signs in with the new address, asks for a password reset and sets a new password
    const taker = new Agent(t.app, '10.20.0.1')
    expect((await taker.post('/api/client/signin/', { username: 'taker@example.com', password: STRONG_PASSWORD })).statusCode).toBe(200)
    expect((await taker.post('/api/client/change-password/', { old_password: STRONG_PASSWORD, new_password: 'Taken-0ver!' })).statusCode).toBe(200)
    expect((await taker.post('/api/client/send-password-reset-url/', { client_email: 'taker@example.com' })).statusCode).toBe(200)
    const reset = await lastMailTo(t.db, 'taker@example.com')

    // the owner's link still works after the new password
    const res = await revert(client.id, notice!.token!)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ status: 'ok', email })
    expect(await count(t.db, 'sessions WHERE client_id = $1', [client.id])).toBe(0)
    expect((await taker.get('/api/client/')).statusCode).toBe(401)
    expect((await agent.get('/api/client/')).statusCode).toBe(401)
    // the taker's reset link no longer works; the owner resets the password through the old address
    expectError(await new Agent(t.app).get(`/api/client/${client.id}/validate-confirmation-token/${reset!.token}/`), 403, '4bdf9f69')
    expectError(await signin('taker@example.com', 'Taken-0ver!'), 400, 'e1a53088', 'username')
    expect((await new Agent(t.app).post('/api/client/send-password-reset-url/', { client_email: email })).statusCode).toBe(200)
    // the link works once
    expectError(await revert(client.id, notice!.token!), 403, '4bdf9f69')
  })

  it("after two changes the first link restores the owner's address and ends the second's; the second's cannot undo the first's", async () => {
    const { agent, email, client } = await signedInClient(t)
    await change(agent, client.id, 'step1@example.com')
    const first = await lastMailTo(t.db, email)
    await change(agent, client.id, 'step2@example.com')
    const second = await lastMailTo(t.db, 'step1@example.com')
    expect(second!.subject).toBe('The e-mail of your account was changed')
    expect((await revert(client.id, first!.token!)).json()).toEqual({ status: 'ok', email })
    expectError(await revert(client.id, second!.token!), 403, '4bdf9f69')
    expect((await signin(email)).statusCode).toBe(200)

    // the other way round: the later link restores its own address and leaves the earlier one working
    const other = await signedInClient(t)
    await change(other.agent, other.client.id, 'o1@example.com')
    const earlier = await lastMailTo(t.db, other.email)
    await change(other.agent, other.client.id, 'o2@example.com')
    const later = await lastMailTo(t.db, 'o1@example.com')
    expect((await revert(other.client.id, later!.token!)).json()).toEqual({ status: 'ok', email: 'o1@example.com' })
    expect((await revert(other.client.id, earlier!.token!)).json()).toEqual({ status: 'ok', email: other.email })
  })

  it('refuses an expired link, another client id, and an old address someone else took since', async () => {
    const { agent, email, client } = await signedInClient(t)
    await change(agent, client.id, 'moved@example.com')
    const notice = await lastMailTo(t.db, email)
    const stranger = await signedInClient(t)
    expectError(await revert(stranger.client.id, notice!.token!), 403, '4bdf9f69')
    expectError(await revert(999_999_999, notice!.token!), 404, '96b731f4')
    // the old address registered by someone else: the link cannot take it from them
    const [token] = await t.db.query<{ id: number }>(`SELECT id FROM email_tokens WHERE purpose = 'email_revert' AND client_id = $1`, [client.id])
    await signedInClient(t, email)
    expectError(await revert(client.id, notice!.token!), 400, '6352926b')
    expect((await agent.get('/api/client/')).json().client_info.email).toBe('moved@example.com')
    // a refused undo changes nothing, the link included
    expect((await t.db.query<{ used: boolean }>('SELECT used_at IS NOT NULL AS used FROM email_tokens WHERE id = $1', [token!.id]))[0]!.used).toBe(false)
    await t.db.query(`UPDATE email_tokens SET expires_at = now() - interval '1 minute' WHERE id = $1`, [token!.id])
    await t.db.query(`DELETE FROM clients WHERE lower(email) = lower($1)`, [email])
    expectError(await revert(client.id, notice!.token!), 403, '4bdf9f69')
  })
})
