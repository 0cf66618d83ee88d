import { describe, expect, it } from 'vitest'
import { Agent, lastMailTo, STRONG_PASSWORD, useTestApp } from '../../test/harness.ts'

const t = useTestApp()

describe('registration and confirmation', () => {
  it('registers, mails a confirmation link, confirms once, then signs in', async () => {
    const agent = new Agent(t.app)
    const email = 'newcomer@example.com'
    const signup = await agent.post('/api/client/signup/', { username: email, email, password: STRONG_PASSWORD, is_corporate: true, segment: 'face' })
    expect(signup.statusCode).toBe(201)

    const early = await agent.post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })
    expect(early.statusCode).toBe(403)
    expect(early.json().error_code).toBe('e6f34eac')

    const mail = await lastMailTo(t.db, email)
    expect(mail?.link).toMatch(/^http:\/\/portal\.test\/app\/registration-confirm\/\d+\/[\w-]+\/\?platform=face$/)
    const confirm = await agent.post('/api/client/confirm/', { client_id: mail!.clientId, confirmation_token: mail!.token })
    expect(confirm.json()).toEqual({ status: 'ok', kind: 'registration', email })

    const again = await agent.post('/api/client/confirm/', { client_id: mail!.clientId, confirmation_token: mail!.token })
    expect(again.statusCode).toBe(403)

    const signin = await agent.post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })
    expect(signin.statusCode).toBe(200)
    expect(signin.json().client_info.options.corporate_member).toBe(true)
    expect(agent.cookies.get('user_status')).toBe('logged')
  })

  it('refuses a second account for the same e-mail in any letter case', async () => {
    const agent = new Agent(t.app)
    await agent.post('/api/client/signup/', { username: 'Dup@Example.com', password: STRONG_PASSWORD })
    const res = await agent.post('/api/client/signup/', { username: 'dup@example.com', password: STRONG_PASSWORD })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ error_code: '6352926b', field: 'username' })
  })
})
