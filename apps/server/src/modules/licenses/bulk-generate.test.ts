import { describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import { runCommand } from '../../cli/commands.ts'
import { count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'

/**
 * "Generate all": POST /api/group/{id}/new-licenses/ makes `count` licenses from one group in one
 * transaction, all or none, within the group's free licenses and the rule of at most 10 unactivated
 * licenses. On PostgreSQL the parallel calls race for real; on PGlite they queue.
 */
const t = useTestApp()

async function clientWithGroup(product: string, n: number) {
  const c = await signedInClient(t)
  expect((await runCommand(t.db, ['licenses:grant', c.email, product, String(n), '--os-type', '1'])).code).toBe(0)
  const group = (await c.agent.get('/api/group/')).json().groups[0] as { id: number; limit: number }
  return { ...c, group }
}

const groupsOf = async (c: Awaited<ReturnType<typeof signedInClient>>) =>
  (await c.agent.get('/api/group/')).json() as { groups: { id: number; limit: number; used_licenses: number }[]; unactivated_licenses: number }

describe('POST /api/group/{id}/new-licenses/', () => {
  it('makes count licenses with default titles and keys, one history line each, and answers them with the group', async () => {
    const c = await clientWithGroup('nuitrack_subscribe', 5)
    expect((await groupsOf(c)).unactivated_licenses).toBe(0)
    const res = await c.agent.post(`/api/group/${c.group.id}/new-licenses/`, { count: 4 })
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json() as { licenses: { id: number; title: string; token: string; group_id: number; state: string }[]; group: { limit: number } }
    expect(body.licenses).toHaveLength(4)
    for (const l of body.licenses) {
      expect(l).toMatchObject({ group_id: c.group.id, state: 'new', title: `Nuitrack subscription #${l.id}` })
      expect(l.token).toMatch(/\S{8,}/)
    }
    expect(new Set(body.licenses.map((l) => l.token)).size).toBe(4)
    expect(body.group).toMatchObject({ limit: 1, used_licenses: 4 })
    const after = await groupsOf(c)
    expect(after.unactivated_licenses).toBe(4)
    expect(after.groups[0]).toMatchObject({ limit: 1, used_licenses: 4 })
    expect(await count(t.db, "activity_events WHERE client_id = $1 AND kind = 'generated'", [c.client.id])).toBe(4)
  })

  it('refuses, changing nothing: more than the group has (1b5b8c37), past 10 unactivated (50484dd7), a bad count, another client’s group', async () => {
    const c = await clientWithGroup('nuitrack_subscribe', 30)
    expectError(await c.agent.post(`/api/group/${c.group.id}/new-licenses/`, { count: 11 }), 400, ERRORS.validation_failed.code, 'count')
    for (const bad of [0, -1, 2.5, '3'])
      expectError(await c.agent.post(`/api/group/${c.group.id}/new-licenses/`, { count: bad }), 400, ERRORS.validation_failed.code, 'count')
    expect((await c.agent.post(`/api/group/${c.group.id}/new-licenses/`, { count: 7 })).statusCode).toBe(200)
    // 7 wait unactivated: 4 more would make 11
    expectError(await c.agent.post(`/api/group/${c.group.id}/new-licenses/`, { count: 4 }), 400, ERRORS.unactivated_limit.code)
    expect((await groupsOf(c)).groups[0]).toMatchObject({ limit: 23, used_licenses: 7 })

    const small = await clientWithGroup('nuitrack_subscribe', 2)
    expectError(await small.agent.post(`/api/group/${small.group.id}/new-licenses/`, { count: 3 }), 409, ERRORS.not_enough_licenses.code)
    expect((await groupsOf(small)).groups[0]).toMatchObject({ limit: 2, used_licenses: 0 })
    expectError(await small.agent.post(`/api/group/${c.group.id}/new-licenses/`, { count: 1 }), 404, ERRORS.not_found.code)
    expectError(await small.agent.post('/api/group/abc/new-licenses/', { count: 1 }), 404, ERRORS.not_found.code)
    expect(await count(t.db, 'licenses WHERE client_id = $1', [small.client.id])).toBe(0)
    expect(await count(t.db, 'licenses WHERE client_id = $1', [c.client.id])).toBe(7)
  })

  it('parallel calls never pass the 10 unactivated licenses, and never make a part of a call', async () => {
    const c = await clientWithGroup('nuitrack_subscribe', 30)
    const results = await Promise.all(Array.from({ length: 8 }, () => c.agent.post(`/api/group/${c.group.id}/new-licenses/`, { count: 3 })))
    const ok = results.filter((r) => r.statusCode === 200)
    expect(ok).toHaveLength(3)
    for (const r of results.filter((r) => r.statusCode !== 200)) expectError(r, 400, ERRORS.unactivated_limit.code)
    expect(await count(t.db, 'licenses WHERE client_id = $1', [c.client.id])).toBe(9)
    expect((await groupsOf(c)).groups[0]).toMatchObject({ limit: 21, used_licenses: 9 })
  })

  it('parallel calls never take more licenses than the group has', async () => {
    const c = await clientWithGroup('nuitrack_subscribe', 5)
    const results = await Promise.all(Array.from({ length: 8 }, () => c.agent.post(`/api/group/${c.group.id}/new-licenses/`, { count: 2 })))
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(2)
    for (const r of results.filter((r) => r.statusCode !== 200)) expectError(r, 409, ERRORS.not_enough_licenses.code)
    expect((await groupsOf(c)).groups[0]).toMatchObject({ limit: 1, used_licenses: 4 })
    expect(await count(t.db, 'licenses WHERE client_id = $1', [c.client.id])).toBe(4)
  })
})
