import { describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import { RATE_LIMITS } from '../../context.ts'
import { Agent, count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'
import { loadConfig } from '../../platform/config.ts'

const t = useTestApp({ SALES_RECIPIENTS: JSON.stringify({ sales: 'deals@vendor.test', partners: 'partners@vendor.test' }) })

const URL = '/api/support/contacts-sales/'
const message = {
  recipient: 'sales',
  name: 'Ann Lee',
  email: 'ann@customer.test',
  message: 'We would like 40 Nuitrack AI licenses for our stores. <b>Prices?</b>',
}

interface Mail {
  to_address: string
  reply_to: string | null
  subject: string
  text_body: string
  html_body: string
  status: string
}
const outbox = () => t.db.query<Mail>('SELECT to_address, reply_to, subject, text_body, html_body, status FROM mail_outbox ORDER BY id')

describe('POST /api/support/contacts-sales/', () => {
  it("delivers the message to the recipient's configured address through the outbox, reply-to the sender", async () => {
    const { agent, email, client } = await signedInClient(t)
    const res = await agent.post(URL, message)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ status: 'ok' })
    const [mail, ...rest] = await outbox()
    expect(rest).toEqual([])
    expect(mail).toMatchObject({ to_address: 'deals@vendor.test', reply_to: 'ann@customer.test', subject: 'Contact sales: Ann Lee', status: 'dev' })
    expect(mail!.text_body).toContain('From: Ann Lee <ann@customer.test>')
    expect(mail!.text_body).toContain(`Portal account: ${email} (client #${client.id})`)
    expect(mail!.text_body).toContain(message.message)
    // the customer's text is escaped in the HTML part
    expect(mail!.html_body).toContain('&lt;b&gt;Prices?&lt;/b&gt;')
    expect(mail!.html_body).not.toContain('<b>Prices?')
    // the dev mailbox shows it with its reply-to
    const box = (await agent.get('/dev/mailbox.json?to=deals@vendor.test')).json()
    expect(box.messages[0]).toMatchObject({ to: 'deals@vendor.test', reply_to: 'ann@customer.test', subject: 'Contact sales: Ann Lee' })
  })

  it("a corporate account's mail names its company and phone (in both parts, escaped); a personal account's does not", async () => {
    const corporate = await signedInClient(t)
    await t.db.query(`UPDATE clients SET options = options || '{"corporate_member": true}'::jsonb, company = company || $2::jsonb, phone = $3 WHERE id = $1`, [
      corporate.client.id,
      JSON.stringify({ name: 'Acme & Sons' }),
      '+1 555 0100',
    ])
    expect((await corporate.agent.post(URL, message)).statusCode).toBe(200)
    const personal = await signedInClient(t)
    await t.db.query('UPDATE clients SET phone = $2 WHERE id = $1', [personal.client.id, '+44 20 7946 0000'])
    expect((await personal.agent.post(URL, { ...message, email: 'bob@customer.test' })).statusCode).toBe(200)
    const [forCorporate, forPersonal] = await outbox()
    expect(forCorporate!.text_body).toContain('Company: Acme & Sons\nPhone: +1 555 0100\n')
    expect(forCorporate!.html_body).toContain('Company: Acme &amp; Sons<br>Phone: +1 555 0100')
    expect(forPersonal!.text_body).not.toContain('Company:')

    // a corporate account that gave neither says so, so sales knows to ask
    await t.db.query(`UPDATE clients SET options = options || '{"corporate_member": true}'::jsonb WHERE id = $1`, [personal.client.id])
    await t.db.query("UPDATE clients SET phone = '' WHERE id = $1", [personal.client.id])
    expect((await personal.agent.post(URL, { ...message, email: 'bob@customer.test' })).statusCode).toBe(200)
    expect((await outbox())[2]!.text_body).toContain('Company: not given\nPhone: not given\n')
  })

  it('goes to another configured recipient; the recipient defaults to sales', async () => {
    const { agent } = await signedInClient(t)
    expect((await agent.post(URL, { ...message, recipient: 'partners' })).statusCode).toBe(200)
    const { recipient: _recipient, ...withoutRecipient } = message
    expect((await agent.post(URL, withoutRecipient)).statusCode).toBe(200)
    expect((await outbox()).map((m) => m.to_address)).toEqual(['partners@vendor.test', 'deals@vendor.test'])
  })

  it('an unknown recipient answers 9ee0dd80 and sends nothing', async () => {
    const { agent } = await signedInClient(t)
    expectError(await agent.post(URL, { ...message, recipient: 'ceo' }), 400, ERRORS.sales_recipient_unknown.code, 'recipient')
    // a name of Object.prototype is not a recipient either
    expectError(await agent.post(URL, { ...message, recipient: 'constructor' }), 400, ERRORS.sales_recipient_unknown.code, 'recipient')
    expect(await count(t.db, 'mail_outbox')).toBe(0)
  })

  it('validates each field (section 5) with the field named, and sends nothing', async () => {
    const { agent } = await signedInClient(t)
    const bad: [Record<string, unknown>, string, string][] = [
      [{ name: ' ' }, 'name', 'Please enter your name'],
      [{ name: 'x'.repeat(31) }, 'name', 'Must be at most 30 characters'],
      [{ email: 'not-an-email' }, 'email', 'Incorrect email format'],
      [{ email: `${'a'.repeat(140)}@example.com` }, 'email', 'Email must be at most 150 characters'],
      [{ message: 'too short' }, 'message', 'Please write at least 20 characters'],
      [{ message: 'x'.repeat(10_001) }, 'message', 'The details must be at most 10000 characters'],
      [{ recipient: 'Not A Name' }, 'recipient', 'Choose who the message is for'],
    ]
    for (const [change, field, text] of bad) {
      const res = await agent.post(URL, { ...message, ...change })
      expectError(res, 400, ERRORS.validation_failed.code, field)
      expect(res.json().error).toBe(text)
    }
    expect((await agent.post(URL, { ...message, name: 'x'.repeat(30), message: 'y'.repeat(10_000) })).statusCode).toBe(200)
    expect(await count(t.db, 'mail_outbox')).toBe(1)
  })

  it('needs a signed-in client', async () => {
    expectError(await new Agent(t.app).post(URL, message), 401, ERRORS.unauthorized.code)
    expect(await count(t.db, 'mail_outbox')).toBe(0)
  })

  it('is rate limited per sender address and per client; a refused message is not sent', async () => {
    const { agent } = await signedInClient(t)
    const { agent: other } = await signedInClient(t)
    const max = RATE_LIMITS.salesPerSender.max
    for (let i = 0; i < max; i++) expect((await agent.post(URL, message)).statusCode).toBe(200)
    expectError(await agent.post(URL, message), 429, ERRORS.rate_limited.code)
    // the same client under another sender address is still held back
    expectError(await agent.post(URL, { ...message, email: 'bob@customer.test' }), 429, ERRORS.rate_limited.code)
    // another client writing as the same sender address is held back too
    expectError(await other.post(URL, message), 429, ERRORS.rate_limited.code)
    expect((await other.post(URL, { ...message, email: 'carol@customer.test' })).statusCode).toBe(200)
    expect(await count(t.db, 'mail_outbox')).toBe(max + 1)
  })
})

describe('SALES_RECIPIENTS', () => {
  const base = { DATA_DIR: '/tmp/portal-config-test', SESSION_SECRET: 'x'.repeat(32) }
  it('defaults to sales and is laid over that default', () => {
    expect(loadConfig(base).SALES_RECIPIENTS).toEqual({ sales: 'sales@portal.local' })
    expect(loadConfig({ ...base, SALES_RECIPIENTS: '{"partners":"p@vendor.test"}' }).SALES_RECIPIENTS).toEqual({
      sales: 'sales@portal.local',
      partners: 'p@vendor.test',
    })
  })

  it('refuses what is not a map of names to addresses', () => {
    expect(() => loadConfig({ ...base, SALES_RECIPIENTS: 'sales@vendor.test' })).toThrow(/SALES_RECIPIENTS: must be a JSON object/)
    expect(() => loadConfig({ ...base, SALES_RECIPIENTS: '{"sales":"nope"}' })).toThrow(/must be an e-mail address/)
    expect(() => loadConfig({ ...base, SALES_RECIPIENTS: '{"Sales Team":"a@b.co"}' })).toThrow(/recipient names are/)
  })
})
