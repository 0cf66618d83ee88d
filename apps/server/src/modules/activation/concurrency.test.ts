import { describe, expect, it } from 'vitest'
import { encodeBase64, formatRequestFile } from '@portal/domain'
import { Agent, signedInClient, useTestApp } from '../../test/harness.ts'

const t = useTestApp()

async function staffLicenses(email: string, count: number, config: Record<string, unknown>) {
  const staff = await signedInClient(t, `staff-${Math.random().toString(36).slice(2, 8)}@example.com`)
  await t.db.query('UPDATE clients SET is_staff = true WHERE id = $1', [staff.client.id])
  const res = await staff.agent.post('/api/resource/custom/create/', {
    title: 'Parallel',
    count,
    client_email: email,
    config: {
      product: 'face_offline_custom',
      license_expire_delta: 31104000,
      device_bound: false,
      max_version: null,
      license_content: { matcher: 1 },
      ...config,
    },
    custom_tags: {},
  })
  expect(res.statusCode).toBe(200)
  return res.json().licenses as { id: number; token: string; group_id: number }[]
}

describe('activation under parallel requests', () => {
  it('30 parallel SDK activations with distinct fingerprints bind exactly N devices', async () => {
    const { email } = await signedInClient(t)
    const [license] = await staffLicenses(email, 1, { online: true })
    await t.db.query(`UPDATE licenses SET config = config || '{"max_reactivation_count": 4}' WHERE id = $1`, [license!.id])
    const sdk = new Agent(t.app)
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => sdk.post('/api/sdk/activate/', { key: license!.token, fingerprint: `fp-${i}` }, { csrf: false })),
    )
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(4)
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().code === 'TOO_MANY_DEVICES')).toBe(true)
    const live = await t.db.query('SELECT count(*)::int AS n FROM devices WHERE license_id = $1 AND released_at IS NULL', [license!.id])
    expect(live[0]).toEqual({ n: 4 })
  })

  it('20 parallel offline group activations on a group of 5 activate exactly 5', async () => {
    const { agent, email } = await signedInClient(t)
    const [license] = await staffLicenses(email, 1, { device_bound: true })
    // return the generated license to its group and top the group up to 5
    await t.db.query('UPDATE license_groups SET available = 5 WHERE id = $1', [license!.group_id])
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        agent.post(`/api/group/${license!.group_id}/activate/offline/`, {
          data: encodeBase64(formatRequestFile({ serial: `SN-${i}`, sensor_name: 'Cam', reg: `R-${i}` })),
        }),
      ),
    )
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(5)
    expect(results.every((r) => r.statusCode < 500)).toBe(true)
    const group = (await agent.get('/api/group/')).json().groups.find((g: { id: number }) => g.id === license!.group_id)
    expect(group.limit).toBe(0)
    const activated = (await agent.get('/api/license/')).json().licenses.filter((l: { activations: unknown[] }) => l.activations.length === 1)
    expect(activated).toHaveLength(5)
  })

  it('parallel releases never free more seats than were bound', async () => {
    const { agent, email } = await signedInClient(t)
    const [license] = await staffLicenses(email, 1, { online: true })
    await t.db.query(`UPDATE licenses SET config = config || '{"max_reactivation_count": 3}' WHERE id = $1`, [license!.id])
    const sdk = new Agent(t.app)
    for (const fp of ['a', 'b', 'c'])
      expect((await sdk.post('/api/sdk/activate/', { key: license!.token, fingerprint: fp }, { csrf: false })).statusCode).toBe(200)
    const view = (await agent.get(`/api/license/${license!.id}/`)).json()
    const device = view.activations[0].id
    const both = await Promise.all([
      ...Array.from({ length: 5 }, () => agent.post(`/api/license/${license!.id}/devices/${device}/release/`, {})),
      ...Array.from({ length: 5 }, () => sdk.post('/api/sdk/deactivate/', { key: license!.token, fingerprint: 'a' }, { csrf: false })),
    ])
    expect(both.filter((r) => r.statusCode === 200)).toHaveLength(1)
    const live = await t.db.query('SELECT count(*)::int AS n FROM devices WHERE license_id = $1 AND released_at IS NULL', [license!.id])
    expect(live[0]).toEqual({ n: 2 })
  })
})
