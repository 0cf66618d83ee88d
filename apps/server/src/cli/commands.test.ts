import { describe, expect, it } from 'vitest'
import { Agent, count, expectError, signedInClient, useTestApp } from '../test/harness.ts'
import { HELP, runCommand } from './commands.ts'

const t = useTestApp()

describe('the portal CLI (runCommand)', () => {
  it('staff:grant marks a client as staff, visible as client_info.is_staff; staff:revoke takes it back', async () => {
    const { agent, email } = await signedInClient(t)
    expect((await agent.get('/api/client/')).json().client_info.is_staff).toBe(false)
    expect(await runCommand(t.db, ['staff:grant', email.toUpperCase()])).toEqual({ code: 0, output: `${email.toUpperCase()} is now staff.` })
    expect((await agent.get('/api/client/')).json().client_info.is_staff).toBe(true)
    expect(await runCommand(t.db, ['staff:revoke', email])).toEqual({ code: 0, output: `${email} is no longer staff.` })
    expect((await agent.get('/api/client/')).json().client_info.is_staff).toBe(false)
  })

  it('staff:grant answers 1 for an unknown e-mail and 2 without one, and changes nothing', async () => {
    await signedInClient(t)
    expect(await runCommand(t.db, ['staff:grant', 'nobody@example.com'])).toEqual({ code: 1, output: 'No client with the e-mail nobody@example.com.' })
    expect((await runCommand(t.db, ['staff:grant'])).code).toBe(2)
    expect(await count(t.db, 'clients WHERE is_staff')).toBe(0)
  })

  it('demo:seed prints a password that signs in; running it again replaces the password', async () => {
    const first = await runCommand(t.db, ['demo:seed'])
    expect(first.code).toBe(0)
    const password = /Password: (\S+)/.exec(first.output)![1]!
    const res = await new Agent(t.app).post('/api/client/signin/', { username: 'demo@portal.local', password })
    expect(res.statusCode).toBe(200)
    expect(res.json().client_info.email).toBe('demo@portal.local')
    const second = await runCommand(t.db, ['demo:seed'])
    const next = /Password: (\S+)/.exec(second.output)![1]!
    expect(next).not.toBe(password)
    expect(await count(t.db, 'clients')).toBe(1)
    expectError(await new Agent(t.app).post('/api/client/signin/', { username: 'demo@portal.local', password }), 400, '3fc79796', 'password')
    expect((await new Agent(t.app).post('/api/client/signin/', { username: 'demo@portal.local', password: next })).statusCode).toBe(200)
  })

  it('licenses:grant checks its arguments', async () => {
    const { email } = await signedInClient(t)
    expect((await runCommand(t.db, ['licenses:grant', email, 'no_such_product', '3'])).code).toBe(2)
    expect((await runCommand(t.db, ['licenses:grant', email, 'old', '0'])).code).toBe(2)
    expect((await runCommand(t.db, ['licenses:grant', email, 'old', '2', '--os-type', '7'])).code).toBe(2)
    expect((await runCommand(t.db, ['licenses:grant', 'nobody@example.com', 'old', '2'])).code).toBe(1)
    expect((await runCommand(t.db, ['licenses:grant', email, 'old', '2', '--os-type', '0'])).output).toMatch(/now has 2 available/)
  })

  it('an unknown command answers code 2 with the help text; help answers 0', async () => {
    const unknown = await runCommand(t.db, ['frobnicate'])
    expect(unknown.code).toBe(2)
    expect(unknown.output).toContain('Unknown command: frobnicate')
    expect(unknown.output).toContain(HELP)
    expect(unknown.output).toContain('staff:grant <email>')
    expect(await runCommand(t.db, ['help'])).toEqual({ code: 0, output: HELP })
    expect(await runCommand(t.db, [])).toEqual({ code: 0, output: HELP })
  })
})
