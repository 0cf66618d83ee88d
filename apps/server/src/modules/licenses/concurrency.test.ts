import { describe, expect, it } from 'vitest'
import { runCommand } from '../../cli/commands.ts'
import { signedInClient, useTestApp } from '../../test/harness.ts'

/**
 * Parallel requests against one client's groups. On PostgreSQL these race for real (a pool of 20
 * connections); on PGlite they are queued, which the same assertions must also survive.
 */
const t = useTestApp()

async function clientWithGroup(product: string, count: number) {
  const c = await signedInClient(t)
  expect((await runCommand(t.db, ['licenses:grant', c.email, product, String(count), '--os-type', '1'])).code).toBe(0)
  const group = (await c.agent.get('/api/group/')).json().groups[0]
  return { ...c, group }
}

const statuses = (rs: { statusCode: number }[]) => rs.map((r) => r.statusCode).sort()

describe('licenses and groups under parallel requests', () => {
  it('20 parallel generate calls on a group of 5 create exactly 5 licenses', async () => {
    const { agent, group } = await clientWithGroup('nuitrack_subscribe', 5)
    const results = await Promise.all(Array.from({ length: 20 }, () => agent.post(`/api/group/${group.id}/new-license/`, {})))
    const ok = results.filter((r) => r.statusCode === 200)
    expect(ok).toHaveLength(5)
    for (const r of results.filter((r) => r.statusCode !== 200)) {
      expect(r.statusCode).toBe(409)
      expect(r.json().error_code).toBe('1b5b8c37')
    }
    const after = (await agent.get('/api/group/')).json().groups[0]
    expect(after).toMatchObject({ limit: 0, used_licenses: 5, total: 5 })
    expect((await agent.get('/api/license/')).json().licenses).toHaveLength(5)
  })

  it('the 10-unactivated rule holds under parallel calls', async () => {
    const { agent, group } = await clientWithGroup('nuitrack_subscribe', 30)
    const results = await Promise.all(Array.from({ length: 25 }, () => agent.post(`/api/group/${group.id}/new-license/`, {})))
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(10)
    expect(results.filter((r) => r.statusCode === 400).every((r) => r.json().error_code === '50484dd7')).toBe(true)
    expect(statuses(results).every((s) => s < 500)).toBe(true)
    const after = (await agent.get('/api/group/')).json().groups[0]
    expect(after).toMatchObject({ limit: 20, used_licenses: 10 })
  })

  it('parallel splits and resizes keep source plus keys constant and never negative', async () => {
    const { agent, group } = await clientWithGroup('nuitrack_subscribe', 20)
    const first = await agent.post(`/api/group/${group.id}/split/`, { title: 'Key 0', limit: 2 })
    expect(first.statusCode).toBe(200)
    const key = first.json().dest_group.id
    const calls = [
      ...Array.from({ length: 8 }, (_, i) => agent.post(`/api/group/${group.id}/split/`, { title: `Key ${i + 1}`, limit: 3 })),
      ...Array.from({ length: 8 }, (_, i) => agent.post(`/api/group/${key}/resize/`, { limit: 2 + (i % 4) * 3 })),
    ]
    const results = await Promise.all(calls)
    expect(results.every((r) => r.statusCode < 500)).toBe(true)
    for (const r of results.filter((r) => r.statusCode !== 200)) expect(['e9cff808', 'fe501c38']).toContain(r.json().error_code)
    const groups = (await agent.get('/api/group/')).json().groups as { limit: number; total: number }[]
    expect(groups.every((g) => g.limit >= 0)).toBe(true)
    expect(groups.reduce((sum, g) => sum + g.total, 0)).toBe(20)
  })

  it('a trial is granted once under parallel requests', async () => {
    const { agent } = await signedInClient(t)
    const results = await Promise.all(
      Array.from({ length: 6 }, () => agent.post('/api/resource/create/', { count: 1, config: { product: 'na_subscribe', tag: 'NA Trial' } })),
    )
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1)
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().error_code === '153b99a1')).toBe(true)
  })
})
