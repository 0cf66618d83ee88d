import { describe, expect, it } from 'vitest'
import { Agent, signedInClient, useTestApp } from '../test/harness.ts'
import { runCommand } from './commands.ts'

const t = useTestApp()

describe('the portal CLI', () => {
  it('staff:grant marks a client as staff and staff:revoke takes it back', async () => {
    const { agent, email } = await signedInClient(t)
    expect(await runCommand(t.db, ['staff:grant', email])).toEqual({ code: 0, output: `${email} is now staff.` })
    expect((await agent.get('/api/client/')).json().client_info.is_staff).toBe(true)
    expect((await runCommand(t.db, ['staff:revoke', email])).code).toBe(0)
    expect((await agent.get('/api/client/')).json().client_info.is_staff).toBe(false)
    expect((await runCommand(t.db, ['staff:grant', 'nobody@example.com'])).code).toBe(1)
  })

  it('demo:seed prints a password that signs in, once per run', async () => {
    const first = await runCommand(t.db, ['demo:seed'])
    const password = /Password: (\S+)/.exec(first.output)![1]!
    const res = await new Agent(t.app).post('/api/client/signin/', { username: 'demo@portal.local', password })
    expect(res.statusCode).toBe(200)
    const second = await runCommand(t.db, ['demo:seed'])
    expect(/Password: (\S+)/.exec(second.output)![1]).not.toBe(password)
  })

  it('licenses:grant checks its arguments; unknown commands print the help', async () => {
    const { email } = await signedInClient(t)
    expect((await runCommand(t.db, ['licenses:grant', email, 'no_such_product', '3'])).code).toBe(2)
    expect((await runCommand(t.db, ['licenses:grant', email, 'old', '0'])).code).toBe(2)
    expect((await runCommand(t.db, ['licenses:grant', email, 'old', '2', '--os-type', '7'])).code).toBe(2)
    expect((await runCommand(t.db, ['licenses:grant', email, 'old', '2', '--os-type', '0'])).output).toMatch(/now has 2 available/)
    const unknown = await runCommand(t.db, ['frobnicate'])
    expect(unknown.code).toBe(2)
    expect(unknown.output).toContain('staff:grant <email>')
  })
})
