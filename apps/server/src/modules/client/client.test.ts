import { describe, expect, it } from 'vitest'
import { Agent, STRONG_PASSWORD, lastMailTo, signedInClient, useTestApp } from '../../test/harness.ts'

const t = useTestApp()

describe('POST /api/client/', () => {
  it('updates profile, company and options; only what is sent changes', async () => {
    const { agent } = await signedInClient(t)
    const res = await agent.post('/api/client/', {
      name: '  Ada ',
      last_name: 'Lovelace',
      phone: '+44 20 7946 0958',
      position: 'CTO',
      company: { name: 'Engines', vat: 'GB123', site: 'engines.example' },
      options: { corporate_member: true, news_notification: false },
    })
    expect(res.statusCode).toBe(200)
    const info = res.json().client_info
    expect(info).toMatchObject({ name: 'Ada', last_name: 'Lovelace', phone: '+44 20 7946 0958', position: 'CTO', company: { name: 'Engines', vat: 'GB123', address: '' } })
    expect(info.options).toMatchObject({ corporate_member: true, news_notification: false, bills_mail: true })
    const second = (await agent.post('/api/client/', { company: { address: 'London' } })).json().client_info
    expect(second.company).toMatchObject({ name: 'Engines', address: 'London' })
    expect(second.name).toBe('Ada')
    expect((await agent.get('/api/client/')).json().client_info.options.corporate_member).toBe(true)
  })

  it('refuses values over the section-5 maxlengths with the field named, and changes nothing', async () => {
    const { agent } = await signedInClient(t)
    for (const [body, field] of [
      [{ name: 'x'.repeat(31) }, 'name'],
      [{ last_name: 'x'.repeat(151) }, 'last_name'],
      [{ phone: '1'.repeat(31) }, 'phone'],
      [{ phone: 'call me' }, 'phone'],
      [{ position: 'x'.repeat(151) }, 'position'],
      [{ company: { name: 'x'.repeat(31) } }, 'name'],
      [{ company: { address: 'x'.repeat(1000) } }, 'address'],
      [{ company: { vat: 'x'.repeat(151) } }, 'vat'],
      [{ options: { facesdk_allow_subscribe: true } }, undefined],
    ] as const) {
      const res = await agent.post('/api/client/', body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json().error_code).toBe('6a38afc1')
      if (field) expect(res.json().field).toBe(field)
    }
    const info = (await agent.get('/api/client/')).json().client_info
    expect(info).toMatchObject({ name: '', phone: '', options: { facesdk_allow_subscribe: false } })
  })

  it('a new e-mail waits for confirmation at the new address; the old one works until then', async () => {
    const { agent, email, client } = await signedInClient(t)
    const taken = await signedInClient(t)
    expect((await agent.post('/api/client/', { email: taken.email.toUpperCase() })).json()).toMatchObject({ error_code: '6352926b', field: 'email' })
    const res = await agent.post('/api/client/', { email: 'new-address@example.com' })
    expect(res.json()).toMatchObject({ email_confirmation_sent: true, client_info: { email, pending_email: 'new-address@example.com' } })
    const mail = await lastMailTo(t.db, 'new-address@example.com')
    expect(mail!.subject).toBe('Confirm your new e-mail')
    expect(mail!.link).toContain(`/app/registration-confirm/${client.id}/`)
    expect((await new Agent(t.app).post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })).statusCode).toBe(200)
    const confirmed = await new Agent(t.app).post('/api/client/confirm/', { client_id: client.id, confirmation_token: mail!.token })
    expect(confirmed.json()).toEqual({ status: 'ok', kind: 'email_change', email: 'new-address@example.com' })
    const info = (await agent.get('/api/client/')).json().client_info
    expect(info).toMatchObject({ email: 'new-address@example.com', pending_email: null })
    expect((await new Agent(t.app).post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })).json().error_code).toBe('e1a53088')
    expect((await new Agent(t.app).post('/api/client/signin/', { username: 'new-address@example.com', password: STRONG_PASSWORD })).statusCode).toBe(200)
  })

  it('an e-mail taken by someone else before confirmation is refused at confirmation', async () => {
    const { agent, client } = await signedInClient(t)
    await agent.post('/api/client/', { email: 'race@example.com' })
    const mail = await lastMailTo(t.db, 'race@example.com')
    await signedInClient(t, 'race@example.com')
    const res = await new Agent(t.app).post('/api/client/confirm/', { client_id: client.id, confirmation_token: mail!.token })
    expect(res.json().error_code).toBe('6352926b')
  })
})
