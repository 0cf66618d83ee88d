import { describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import { Agent, STRONG_PASSWORD, count, lastMailTo, signedInClient, useTestApp } from '../../test/harness.ts'

const t = useTestApp()

async function inviteToken(agent: Agent, email: string, role: string) {
  expect((await agent.post('/api/org/invitations/', { email, role })).statusCode).toBe(200)
  return /\/app\/invitation\/([A-Za-z0-9_-]+)\//.exec((await lastMailTo(t.db, email))?.link ?? '')![1]!
}

describe('owners in parallel', () => {
  it('two owners stepping down at once leave one owner', async () => {
    const first = await signedInClient(t)
    await first.agent.post('/api/client/', { options: { corporate_member: true } })
    const second = await signedInClient(t)
    await second.agent.post(`/api/invitation/${await inviteToken(first.agent, second.email, 'owner')}/accept/`)
    const answers = await Promise.all([
      first.agent.post(`/api/org/members/${first.client.id}/role/`, { role: 'viewer' }),
      second.agent.post(`/api/org/members/${second.client.id}/role/`, { role: 'developer' }),
    ])
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409])
    expect(answers.find((r) => r.statusCode === 409)!.json().error_code).toBe(ERRORS.last_owner.code)
    expect(await count(t.db, "memberships WHERE org_id = $1 AND role = 'owner'", [first.client.id])).toBe(1)
  })

  it('one invitation registers one account, however many tabs send it', async () => {
    const owner = await signedInClient(t)
    await owner.agent.post('/api/client/', { options: { corporate_member: true } })
    const token = await inviteToken(owner.agent, 'twice@example.com', 'developer')
    const answers = await Promise.all([1, 2, 3].map(() => new Agent(t.app).post(`/api/invitation/${token}/register/`, { password: STRONG_PASSWORD })))
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1)
    for (const r of answers.filter((a) => a.statusCode !== 200))
      expect([ERRORS.invitation_invalid.code, ERRORS.email_in_use.code]).toContain(r.json().error_code)
    expect(await count(t.db, 'memberships WHERE org_id = $1', [owner.client.id])).toBe(2)
  })
})
