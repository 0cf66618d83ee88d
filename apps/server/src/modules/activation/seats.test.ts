import { describe, expect, it } from 'vitest'
import { Agent, count, signedInClient, useTestApp } from '../../test/harness.ts'

/** A seat freed by the SDK is never a way to run more machines than the license has seats. */
const t = useTestApp()
const post = (a: Agent, url: string, body: unknown) => a.post(url, body, { csrf: false })

async function oneSeatOnlineKey() {
  const client = await signedInClient(t)
  const staff = await signedInClient(t)
  await t.db.query('UPDATE clients SET is_staff = true WHERE id = $1', [staff.client.id])
  const res = await staff.agent.post('/api/resource/custom/create/', {
    title: 'One seat',
    count: 1,
    client_email: client.email,
    config: {
      product: 'face_online_custom',
      online: true,
      device_bound: false,
      license_expire_delta: 31104000,
      max_version: null,
      license_content: { matcher: 1 },
    },
    custom_tags: {},
  })
  expect(res.statusCode, res.body).toBe(200)
  const license = res.json().licenses[0] as { id: number; token: string }
  return { ...client, id: license.id, key: license.token }
}

describe('SDK seats', () => {
  it('20 activate/deactivate cycles from 20 machines bind at most 4 within 30 days; a refusal says when the seat frees', async () => {
    const { agent, id, key } = await oneSeatOnlineKey()
    const a = new Agent(t.app)
    const files: string[] = []
    let refused: { statusCode: number; body: Record<string, unknown> } | null = null
    for (let i = 0; i < 20; i++) {
      const on = await post(a, '/api/sdk/activate/', { key, fingerprint: `machine-${i}` })
      if (on.statusCode === 200) {
        files.push(on.json().expires_at)
        expect((await post(a, '/api/sdk/deactivate/', { key, fingerprint: `machine-${i}` })).json()).toEqual({ status: 'ok', released: true })
      } else {
        refused ??= { statusCode: on.statusCode, body: on.json() }
      }
    }
    // three releases within the quota free the seat at once; the fourth device keeps it until its file expires
    expect(files).toHaveLength(4)
    expect(await count(t.db, 'devices WHERE license_id = $1', [id])).toBe(4)
    expect(refused!.statusCode).toBe(409)
    expect(refused!.body).toMatchObject({ error_code: '2ea83a29', code: 'TOO_MANY_DEVICES', valid: false, retry_at: files[3] })
    expect(refused!.body.detail).toMatch(/until its file expires/)

    // the machine that holds the seat may come back on it; another may not
    expect((await post(a, '/api/sdk/activate/', { key, fingerprint: 'machine-3' })).statusCode).toBe(200)
    expect((await post(a, '/api/sdk/deactivate/', { key, fingerprint: 'machine-3' })).statusCode).toBe(200)
    const again = await post(a, '/api/sdk/activate/', { key, fingerprint: 'machine-next' })
    expect(again.json()).toMatchObject({ code: 'TOO_MANY_DEVICES', retry_at: expect.any(String) })

    // when that file has expired, the seat is free for one more machine
    t.clock.set(new Date(new Date(again.json().retry_at).getTime() + 1000))
    expect((await post(a, '/api/sdk/activate/', { key, fingerprint: 'machine-next' })).statusCode).toBe(200)
    expect((await post(a, '/api/sdk/activate/', { key, fingerprint: 'machine-other' })).json()).toMatchObject({ code: 'TOO_MANY_DEVICES', retry_at: null })

    // the customer's release shares the quota: none is left in these 30 days
    const device = (await agent.get(`/api/license/${id}/`)).json().activations[0].id
    expect((await agent.post(`/api/license/${id}/devices/${device}/release/`, {})).json().error_code).toBe('59ff98bd')
  })

  it('a seat freed within the quota is free at once, and the releases of 30 days ago no longer count', async () => {
    const { key } = await oneSeatOnlineKey()
    const a = new Agent(t.app)
    for (let i = 0; i < 3; i++) {
      expect((await post(a, '/api/sdk/activate/', { key, fingerprint: `m-${i}` })).statusCode).toBe(200)
      expect((await post(a, '/api/sdk/deactivate/', { key, fingerprint: `m-${i}` })).statusCode).toBe(200)
    }
    t.clock.advance(31 * 86_400)
    expect((await post(a, '/api/sdk/activate/', { key, fingerprint: 'm-3' })).statusCode).toBe(200)
    expect((await post(a, '/api/sdk/deactivate/', { key, fingerprint: 'm-3' })).statusCode).toBe(200)
    expect((await post(a, '/api/sdk/activate/', { key, fingerprint: 'm-4' })).statusCode).toBe(200)
  })
})
