import { describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import { runCommand } from '../../cli/commands.ts'
import { Agent, count, signedInClient, useTestApp } from '../../test/harness.ts'

/**
 * A group key on the device API: each new device gets a license of its own from the key's capacity;
 * the same device again answers its own license. Making and resizing a key are history lines.
 */
const t = useTestApp()
const sdk = (a: Agent, path: string, body: unknown) => a.post(`/api/sdk/${path}/`, body, { csrf: false })

async function groupKeyOf(size: number, product = 'nuitrack_subscribe') {
  const c = await signedInClient(t)
  expect((await runCommand(t.db, ['licenses:grant', c.email, product, '10', '--os-type', '1'])).code).toBe(0)
  const source = (await c.agent.get('/api/group/')).json().groups[0] as { id: number }
  const split = await c.agent.post(`/api/group/${source.id}/split/`, { title: 'Stores', limit: size })
  expect(split.statusCode, split.body).toBe(200)
  const key = split.json().dest_group as { id: number; token: string }
  return { ...c, source, key }
}

const licensesOfGroup = (groupId: number) => count(t.db, 'licenses WHERE group_id = $1 AND revoked_at IS NULL', [groupId])

describe('a group key on the device API', () => {
  it('gives each new device its own license; the same device gets its own back; validate and deactivate take the group key', async () => {
    const c = await groupKeyOf(2)
    const device = new Agent(t.app)
    const first = await sdk(device, 'activate', { key: c.key.token, fingerprint: 'kiosk-1', name: 'Kiosk 1' })
    expect(first.statusCode, first.body).toBe(200)
    const own = first.json().license_key as string
    expect(own).not.toBe(c.key.token)
    expect(first.json().license_file).toContain('3DIVI-LICENSE')
    expect(await licensesOfGroup(c.key.id)).toBe(1)
    const made = (await c.agent.get('/api/license/')).json().licenses.find((l: { token: string }) => l.token === own)
    expect(made).toMatchObject({ group_id: c.key.id, title: 'Kiosk 1', state: 'active' })

    // the same device again: the same license, no new one
    const again = await sdk(device, 'activate', { key: c.key.token, fingerprint: 'kiosk-1' })
    expect(again.json().license_key).toBe(own)
    expect(await licensesOfGroup(c.key.id)).toBe(1)
    // its own key works too, as any license key
    expect((await sdk(device, 'activate', { key: own, fingerprint: 'kiosk-1' })).json().license_key).toBe(own)

    expect((await sdk(device, 'validate', { key: c.key.token, fingerprint: 'kiosk-1' })).json()).toMatchObject({ valid: true, code: 'VALID' })
    expect((await sdk(device, 'validate', { key: c.key.token, fingerprint: 'kiosk-9' })).json()).toMatchObject({ valid: false, code: 'NOT_ACTIVATED' })
    expect((await sdk(device, 'validate', { key: 'NO-SUCH-KEY', fingerprint: 'kiosk-1' })).json()).toMatchObject({ valid: false, code: 'NOT_FOUND' })

    const second = await sdk(device, 'activate', { key: c.key.token, fingerprint: 'kiosk-2' })
    expect(second.statusCode).toBe(200)
    expect(second.json().license_key).not.toBe(own)
    // the key is used up: a third device is refused and nothing is made
    const third = await sdk(device, 'activate', { key: c.key.token, fingerprint: 'kiosk-3' })
    expect(third.statusCode).toBe(409)
    expect(third.json()).toMatchObject({ error_code: ERRORS.too_many_devices.code, code: 'TOO_MANY_DEVICES', valid: false })
    expect(await licensesOfGroup(c.key.id)).toBe(2)
    expect((await c.agent.get('/api/group/')).json().groups.find((g: { id: number }) => g.id === c.key.id)).toMatchObject({ limit: 0, used_licenses: 2 })

    // deactivation by the group key frees the device of its own license; it comes back to that license
    expect((await sdk(device, 'deactivate', { key: c.key.token, fingerprint: 'kiosk-2' })).json()).toEqual({ status: 'ok', released: true })
    expect((await sdk(device, 'validate', { key: c.key.token, fingerprint: 'kiosk-2' })).json()).toMatchObject({ code: 'NOT_ACTIVATED' })
    const back = await sdk(device, 'activate', { key: c.key.token, fingerprint: 'kiosk-2' })
    expect(back.json().license_key).toBe(second.json().license_key)
    expect(await licensesOfGroup(c.key.id)).toBe(2)
    expect((await sdk(device, 'deactivate', { key: c.key.token, fingerprint: 'kiosk-7' })).statusCode).toBe(404)

    const lines = await t.db.query<{ kind: string; details: Record<string, unknown> }>(
      "SELECT kind, details FROM activity_events WHERE client_id = $1 AND kind = 'generated' ORDER BY id",
      [c.client.id],
    )
    expect(lines.map((l) => l.details.origin)).toEqual(['group_key', 'group_key'])
  })

  it('parallel activations never overdraw the key, and one device activating in parallel gets one license', async () => {
    const c = await groupKeyOf(3)
    const device = new Agent(t.app)
    const many = await Promise.all(Array.from({ length: 8 }, (_, i) => sdk(device, 'activate', { key: c.key.token, fingerprint: `machine-${i}` })))
    expect(many.filter((r) => r.statusCode === 200)).toHaveLength(3)
    expect(many.filter((r) => r.statusCode !== 200).every((r) => r.statusCode === 409 && r.json().code === 'TOO_MANY_DEVICES')).toBe(true)
    expect(await licensesOfGroup(c.key.id)).toBe(3)

    const other = await groupKeyOf(3)
    const same = await Promise.all(Array.from({ length: 6 }, () => sdk(device, 'activate', { key: other.key.token, fingerprint: 'one-machine' })))
    expect(same.every((r) => r.statusCode === 200)).toBe(true)
    expect(new Set(same.map((r) => r.json().license_key)).size).toBe(1)
    expect(await licensesOfGroup(other.key.id)).toBe(1)
  })

  it('an offline product’s key is refused as offline and makes no license', async () => {
    const c = await groupKeyOf(2, 'nuitrack_unlimited')
    const res = await sdk(new Agent(t.app), 'activate', { key: c.key.token, fingerprint: 'kiosk-1' })
    expect(res.json()).toMatchObject({ code: 'OFFLINE_LICENSE', valid: false })
    expect(await licensesOfGroup(c.key.id)).toBe(0)
  })

  it('making and resizing a group key are lines of the history', async () => {
    const c = await groupKeyOf(2)
    expect((await c.agent.post(`/api/group/${c.key.id}/resize/`, { limit: 5 })).statusCode).toBe(200)
    // the same size again changes nothing and says nothing
    expect((await c.agent.post(`/api/group/${c.key.id}/resize/`, { limit: 5 })).statusCode).toBe(200)
    const events = (await c.agent.get('/api/account/history/')).json().events as { kind: string; group_id: number; details: Record<string, unknown> }[]
    const keyLines = events.filter((e) => e.group_id === c.key.id)
    expect(keyLines.map((e) => e.kind)).toEqual(['group_key_resized', 'group_key_created'])
    expect(keyLines[1]!.details).toMatchObject({ title: 'Stores', size: 2, product: 'nuitrack_subscribe', source_group_id: c.source.id })
    expect(keyLines[0]!.details).toMatchObject({ title: 'Stores', from: 2, to: 5 })
  })
})
