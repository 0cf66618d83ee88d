import { describe, expect, it } from 'vitest'
import { encodeBase64, formatRequestFile } from '@portal/domain'
import { runCommand } from '../../cli/commands.ts'
import { verifyLicenseFile } from '../../platform/signing.ts'
import { Agent, count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'

/** A seat freed is never another machine, and a lock is binding on the device API. */
const t = useTestApp()
const sdk = () => new Agent(t.app)
const post = (a: Agent, url: string, body: unknown) => a.post(url, body, { csrf: false })

async function staffLicense(config: Record<string, unknown>, customTags: Record<string, unknown> = {}) {
  const client = await signedInClient(t)
  const staff = await signedInClient(t)
  await t.db.query('UPDATE clients SET is_staff = true WHERE id = $1', [staff.client.id])
  const res = await staff.agent.post('/api/resource/custom/create/', {
    title: 'Locked',
    count: 1,
    client_email: client.email,
    config: {
      product: 'face_offline_perpetual',
      license_expire_delta: null,
      device_bound: false,
      max_version: null,
      license_content: { matcher: 1 },
      ...config,
    },
    custom_tags: customTags,
  })
  expect(res.statusCode, res.body).toBe(200)
  const license = res.json().licenses[0] as { id: number; token: string }
  return { ...client, id: license.id, key: license.token }
}

const liveDevices = (id: number) => count(t.db, 'devices WHERE license_id = $1 AND released_at IS NULL', [id])
const request = (serial: string) => encodeBase64(formatRequestFile({ serial, sensor_name: 'Cam', reg: `REG-${serial}` }))

/** Activates through the SDK and answers the verified file's payload. */
async function activated(a: Agent, body: Record<string, unknown>) {
  const res = await post(a, '/api/sdk/activate/', body)
  expect(res.statusCode, res.body).toBe(200)
  const keys = (await a.get('/api/license/public-key/')).json().keys
  const verified = verifyLicenseFile(res.json().license_file, keys)
  expect(verified.ok).toBe(true)
  return { device: res.json().device as { id: number }, payload: verified.file!.payload, expires_at: res.json().expires_at as string }
}

describe('an offline license is not served by the device API (B12)', () => {
  for (const deviceBound of [false, true]) {
    it(`activate then deactivate on machine after machine gives no file and no device (device_bound ${deviceBound})`, async () => {
      const { agent, id, key } = await staffLicense({ device_bound: deviceBound })
      const a = sdk()
      for (let i = 0; i < 4; i++) {
        const on = await post(a, '/api/sdk/activate/', { key, fingerprint: `machine-${i}`, hardware_id: `HW-${i}` })
        expectError(on, 403, '16c9fab7')
        expect(on.json().code).toBe('OFFLINE_LICENSE')
        expect(on.json()).not.toHaveProperty('license_file')
        const off = await post(a, '/api/sdk/deactivate/', { key, fingerprint: `machine-${i}` })
        expectError(off, 403, '16c9fab7')
        expect(off.json().code).toBe('OFFLINE_LICENSE')
      }
      expect((await post(a, '/api/sdk/validate/', { key, fingerprint: 'machine-0' })).json()).toMatchObject({ valid: false, code: 'OFFLINE_LICENSE' })
      expect(await count(t.db, 'devices WHERE license_id = $1', [id])).toBe(0)
      expect((await agent.get(`/api/license/${id}/`)).json()).toMatchObject({ data: null, activation_date: null, activations: [], license_status: 'new' })
    })
  }

  it('a device bound offline is freed only by the customer, 3 times in any 30 days', async () => {
    const { agent, id, key } = await staffLicense({ device_bound: true, product: 'face_offline_custom', license_expire_delta: 31104000 })
    const a = sdk()
    const view = (await agent.post(`/api/license/${id}/activate/offline/`, { data: request('SN-1') })).json()
    const device = view.activations[0]
    // the SDK cannot release it, not even by naming the stored fingerprint
    expectError(await post(a, '/api/sdk/deactivate/', { key, fingerprint: device.fingerprint }), 403, '16c9fab7')
    expect(await liveDevices(id)).toBe(1)
    // the customer can, within the quota
    let current = device.id as number
    for (let i = 0; i < 3; i++) {
      expect((await agent.post(`/api/license/${id}/devices/${current}/release/`, {})).statusCode).toBe(200)
      current = (await agent.post(`/api/license/${id}/activate/offline/`, { data: request(`SN-${i + 2}`) })).json().activations[0].id
    }
    expectError(await agent.post(`/api/license/${id}/devices/${current}/release/`, {}), 429, '59ff98bd')
    expect(await liveDevices(id)).toBe(1)
  })

  it('on an online license the SDK neither releases nor takes over a device bound offline', async () => {
    const { agent, id, key } = await staffLicense({ product: 'face_online_custom', online: true })
    const a = sdk()
    const device = (await agent.post(`/api/license/${id}/activate/offline/`, { data: request('SN-1') })).json().activations[0]
    const off = await post(a, '/api/sdk/deactivate/', { key, fingerprint: device.fingerprint })
    expect(off.statusCode).toBe(404)
    expect(off.json().code).toBe('NOT_ACTIVATED')
    expect((await post(a, '/api/sdk/validate/', { key, fingerprint: device.fingerprint })).json().code).toBe('NOT_ACTIVATED')
    const on = await post(a, '/api/sdk/activate/', { key, fingerprint: device.fingerprint })
    expectError(on, 403, 'ee8d27cb')
    expect(on.json().code).toBe('LOCK_MISMATCH')
    expect(await liveDevices(id)).toBe(1)
    expect((await agent.post(`/api/license/${id}/devices/${device.id}/release/`, {})).statusCode).toBe(200)
  })

  it('an online license: its SDK file expires after offline_timeout and the SDK frees the seat', async () => {
    const { id, key } = await staffLicense({ product: 'face_online_custom', online: true })
    const a = sdk()
    const first = await activated(a, { key, fingerprint: 'fp-1' })
    expect(first.payload.lock).toEqual({ type: 'fingerprint', value: 'fp-1' })
    expect(new Date(first.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(86_400_000)
    expect((await post(a, '/api/sdk/deactivate/', { key, fingerprint: 'fp-1' })).json()).toEqual({ status: 'ok', released: true })
    expect(await liveDevices(id)).toBe(0)
  })

  it('the bulk CLI makes online licenses the device API serves, as a group would', async () => {
    const { email, agent } = await signedInClient(t)
    expect((await runCommand(t.db, ['licenses:bulk', email, '2'])).code).toBe(0)
    const [license] = (await agent.get('/api/license/')).json().licenses
    expect(license.config.online).toEqual({ offline_timeout: 86400 })
    await activated(sdk(), { key: license.token, fingerprint: 'fp-1' })
  })
})

describe('a lock is binding on the device API (B13)', () => {
  it('hardware: the hardware id is required, bound, and stated in the file', async () => {
    const { agent, id, key } = await staffLicense({ product: 'face_online_custom', online: true, device_bound: true })
    const a = sdk()
    const none = await post(a, '/api/sdk/activate/', { key, fingerprint: 'fp-1' })
    expectError(none, 403, 'ee8d27cb')
    expect(none.json().code).toBe('LOCK_MISMATCH')
    expect(await liveDevices(id)).toBe(0)

    const first = await activated(a, { key, fingerprint: 'fp-1', hardware_id: 'HW-1' })
    expect(first.payload.lock).toEqual({ type: 'hardware_id', value: 'HW-1' })
    // the same fingerprint claiming other hardware
    expect((await post(a, '/api/sdk/activate/', { key, fingerprint: 'fp-1', hardware_id: 'HW-2' })).json()).toMatchObject({
      code: 'LOCK_MISMATCH',
      error_code: 'ee8d27cb',
    })
    // other hardware needs a seat; the license has one
    expect((await post(a, '/api/sdk/activate/', { key, fingerprint: 'fp-2', hardware_id: 'HW-2' })).json()).toMatchObject({ code: 'TOO_MANY_DEVICES' })
    // the bound hardware with a new fingerprint (software re-installed) is the same device
    const again = await activated(a, { key, fingerprint: 'fp-3', properties: { reg: 'HW-1' } })
    expect(again.device.id).toBe(first.device.id)
    expect(again.payload.lock).toEqual({ type: 'hardware_id', value: 'HW-1' })
    expect((await post(a, '/api/sdk/validate/', { key, fingerprint: 'fp-1' })).json().code).toBe('NOT_ACTIVATED')
    expect((await post(a, '/api/sdk/validate/', { key, fingerprint: 'fp-3' })).json().code).toBe('VALID')
    expect(await liveDevices(id)).toBe(1)
    expect((await agent.get(`/api/license/${id}/`)).json()).toMatchObject({
      locked_to: 'hardware_id',
      activations: [expect.objectContaining({ signature_properties: expect.objectContaining({ reg: 'HW-1' }) })],
    })
  })

  it('parallel activations: one hardware id is one device, other hardware gets no seat', async () => {
    const { id, key } = await staffLicense({ product: 'face_online_custom', online: true, device_bound: true })
    const a = sdk()
    const same = await Promise.all(Array.from({ length: 12 }, (_, i) => post(a, '/api/sdk/activate/', { key, fingerprint: `fp-${i}`, hardware_id: 'HW-1' })))
    expect(same.every((r) => r.statusCode === 200)).toBe(true)
    expect(new Set(same.map((r) => r.json().device.id)).size).toBe(1)
    const other = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(a, '/api/sdk/activate/', { key, fingerprint: `other-${i}`, hardware_id: `HW-X${i}` })),
    )
    expect(other.every((r) => r.statusCode === 409 && r.json().code === 'TOO_MANY_DEVICES')).toBe(true)
    expect(await liveDevices(id)).toBe(1)
  })

  it('USB token: the token serial is required, bound, and stated in the file', async () => {
    const { agent, id, key } = await staffLicense({ product: 'face_online_custom', online: true }, { hardware_key_serial: true })
    const a = sdk()
    expectError(await post(a, '/api/sdk/activate/', { key, fingerprint: 'fp-1', hardware_id: 'HW-1' }), 403, 'ee8d27cb')
    const first = await activated(a, { key, fingerprint: 'fp-1', usb_token: ' TOKEN-1 ' })
    expect(first.payload.lock).toEqual({ type: 'usb_token', value: 'TOKEN-1' })
    expect((await post(a, '/api/sdk/activate/', { key, fingerprint: 'fp-1', usb_token: 'TOKEN-2' })).json().code).toBe('LOCK_MISMATCH')
    expect((await post(a, '/api/sdk/activate/', { key, fingerprint: 'fp-2', usb_token: 'TOKEN-2' })).json().code).toBe('TOO_MANY_DEVICES')
    expect(await liveDevices(id)).toBe(1)
    expect((await agent.get(`/api/license/${id}/`)).json().locked_to).toBe('usb_token')
  })

  for (const tag of ['ios_app_id', 'android_app_id'] as const) {
    it(`${tag}: only the app the license names, and the file says so`, async () => {
      const { id, key } = await staffLicense({ product: 'face_online_custom', online: true }, { [tag]: 'com.vendor.app' })
      const a = sdk()
      for (const body of [{}, { app_id: 'com.other.app' }, { hardware_id: 'HW-1' }]) {
        const res = await post(a, '/api/sdk/activate/', { key, fingerprint: 'fp-1', ...body })
        expectError(res, 403, 'ee8d27cb')
        expect(res.json().code).toBe('LOCK_MISMATCH')
      }
      expect(await liveDevices(id)).toBe(0)
      const ok = await activated(a, { key, fingerprint: 'fp-1', app_id: 'com.vendor.app' })
      expect(ok.payload.lock).toEqual({ type: tag, value: 'com.vendor.app' })
    })
  }

  it('the portal states the real lock too: a request file for an app-locked license gets the app lock', async () => {
    const { agent, id } = await staffLicense({ product: 'face_offline_custom', license_expire_delta: 31104000 }, { ios_app_id: 'com.vendor.app' })
    const view = (await agent.post(`/api/license/${id}/activate/offline/`, { data: request('SN-1') })).json()
    const keys = (await agent.get('/api/license/public-key/')).json().keys
    const verified = verifyLicenseFile(Buffer.from(view.data, 'base64').toString('utf8'), keys)
    expect(verified.ok).toBe(true)
    expect(verified.file!.payload.lock).toEqual({ type: 'ios_app_id', value: 'com.vendor.app' })
    expect(view.locked_to).toBe('ios_app_id')
  })
})
