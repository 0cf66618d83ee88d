import { describe, expect, it } from 'vitest'
import { runCommand } from '../../cli/commands.ts'
import { count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'

/** The license service acts on the catalogue's records and the shared rules. */
const t = useTestApp()

async function granted(product: string, n: number, osType?: string) {
  const c = await signedInClient(t)
  const args = ['licenses:grant', c.email, product, String(n), ...(osType ? ['--os-type', osType] : [])]
  expect((await runCommand(t.db, args)).code).toBe(0)
  const groups = (await c.agent.get('/api/group/')).json().groups
  return { ...c, group: groups[groups.length - 1] as { id: number; limit: number } }
}

describe('licenses carry what their product grants (the catalogue)', () => {
  it('an old Nuitrack Pro perpetual license moves between 10 devices; an online one carries the online timings', async () => {
    const old = await granted('old', 1, '0')
    const license = (await old.agent.post(`/api/group/${old.group.id}/new-license/`, {})).json()
    expect(license.config).toMatchObject({ product: 'old', os_type: 0, max_reactivation_count: 10 })
    expect(license.config.online ?? null).toBeNull()
    expect(license.upgradeable).toEqual({ toAI: 'self' })

    const online = await granted('nuitrack_subscribe', 1, '1')
    const sub = (await online.agent.post(`/api/group/${online.group.id}/new-license/`, {})).json()
    expect(sub.config).toMatchObject({ online: { offline_timeout: 86400 }, update_timeout: 3600, try_update_timeout: 300, auto_prolongation: false })
    expect(sub.config.max_reactivation_count ?? null).toBeNull()
  })

  it('a license on hold cannot be upgraded: upgradeable.toAI is null until the hold ends', async () => {
    const { agent, group } = await granted('nuitrack_online', 1, '1')
    const license = (await agent.post(`/api/group/${group.id}/new-license/`, {})).json()
    expect(license.upgradeable).toEqual({ toAI: 'self' })
    await t.db.query(`UPDATE licenses SET held_until = now() + interval '15 minutes' WHERE id = $1`, [license.id])
    expect((await agent.get(`/api/license/${license.id}/`)).json().upgradeable).toEqual({ toAI: null })
  })

  it('only a pausable product pauses: a Face Machine server license of the same platform does not', async () => {
    const { agent, group } = await granted('facemachine_server', 1)
    const license = (await agent.post(`/api/group/${group.id}/new-license/`, {})).json()
    expect(license.type).toBe('face-machine')
    expectError(await agent.post(`/api/license/${license.id}/pause/`, {}), 400, '9febaea3')
  })
})

describe('the group-key rules the form uses (checkSplit, defaultGroupSize)', () => {
  it('a split without a size makes a key of the default size: the lesser of 2 and what the source has', async () => {
    const { agent, group } = await granted('nuitrack_subscribe', 5, '1')
    const res = await agent.post(`/api/group/${group.id}/split/`, { title: 'Key' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().dest_group).toMatchObject({ limit: 2, source_group_id: group.id })
    expect(res.json().source_group.limit).toBe(3)
  })

  it('from a source with one license the default is 1, below a group’s minimum of 2 (3073f8c2)', async () => {
    const { agent, client, group } = await granted('nuitrack_unlimited', 1, '2')
    expectError(await agent.post(`/api/group/${group.id}/split/`, { title: 'Key' }), 400, '3073f8c2', 'limit')
    expect(await count(t.db, 'license_groups WHERE client_id = $1', [client.id])).toBe(1)
  })
})

describe('a staff subscription needs a validity (checkStaffValidity), on the server as on the form', () => {
  async function staffOrder(product: string, license_expire_delta: number | null) {
    const client = await signedInClient(t)
    const staff = await signedInClient(t)
    await t.db.query('UPDATE clients SET is_staff = true WHERE id = $1', [staff.client.id])
    const res = await staff.agent.post('/api/resource/custom/create/', {
      title: 'Custom',
      count: 1,
      client_email: client.email,
      config: { product, license_expire_delta, device_bound: false, max_version: null, license_content: { matcher: 1 } },
      custom_tags: {},
    })
    return { res, client }
  }

  it('refuses a subscription-tab product without a validity and creates nothing', async () => {
    for (const product of ['face_online_custom_subscribe', 'face_offline_custom']) {
      const { res, client } = await staffOrder(product, null)
      expectError(res, 400, '6a38afc1', 'config.license_expire_delta')
      expect(await count(t.db, 'licenses WHERE client_id = $1', [client.client.id])).toBe(0)
    }
  })

  it('accepts it with a validity, and a perpetual-tab product without one', async () => {
    expect((await staffOrder('face_online_custom_subscribe', 2_592_000)).res.statusCode).toBe(200)
    expect((await staffOrder('face_offline_perpetual', null)).res.statusCode).toBe(200)
    expect((await staffOrder('face_online_custom', null)).res.statusCode).toBe(200)
  })
})
