import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { encodeBase64, formatRequestFile, parseLicenseFile } from '@portal/domain'
import { runLicenseCommand } from '../../cli/license-commands.ts'
import { runCommand } from '../../cli/commands.ts'
import { verifyLicenseFile } from '../../platform/signing.ts'
import { Agent, expectError, signedInClient, useTestApp } from '../../test/harness.ts'
import { licenseFilePayload } from '../../test/license-file.ts'

const t = useTestApp()
const sdk = () => new Agent(t.app)
const post = (a: Agent, url: string, body: unknown) => a.post(url, body, { csrf: false })

async function customLicense(config: Record<string, unknown> = {}, customTags: Record<string, unknown> = {}, count = 1) {
  const client = await signedInClient(t)
  const staff = await signedInClient(t)
  await t.db.query('UPDATE clients SET is_staff = true WHERE id = $1', [staff.client.id])
  const res = await staff.agent.post('/api/resource/custom/create/', {
    title: 'Custom',
    count,
    client_email: client.email,
    config: {
      product: 'face_offline_custom',
      license_expire_delta: 31104000,
      device_bound: true,
      max_version: '3.24',
      license_content: { matcher: 1 },
      ...config,
    },
    custom_tags: customTags,
  })
  expect(res.statusCode).toBe(200)
  return { ...client, licenses: res.json().licenses as { id: number; token: string; group_id: number }[] }
}

const request = (serial: string, reg = `REG-${serial}`) => encodeBase64(formatRequestFile({ serial, sensor_name: 'RealSense D435', reg }))
const fileOf = (view: { data: string }) => Buffer.from(view.data, 'base64').toString('utf8')

describe('offline activation', () => {
  it('a request file binds a device and answers a signed file that verifies against the public keys', async () => {
    const { agent, licenses } = await customLicense()
    const res = await agent.post(`/api/license/${licenses[0]!.id}/activate/offline/`, { data: request('SN-1') })
    expect(res.statusCode).toBe(200)
    const view = res.json()
    expect(view).toMatchObject({ license_status: 'active', locked_to: 'hardware_id', serial_sensor: 'SN-1 / RealSense D435' })
    expect(view.activations).toEqual([
      expect.objectContaining({ kind: 'request_file', signature_properties: { serial: 'SN-1', sensor_name: 'RealSense D435', reg: 'REG-SN-1' } }),
    ])
    const keys = (await agent.get('/api/license/public-key/')).json().keys
    const verified = verifyLicenseFile(fileOf(view), keys)
    expect(verified.ok).toBe(true)
    expect(parseLicenseFile(fileOf(view))!.payload).toMatchObject({
      license_id: licenses[0]!.id,
      product: 'face_offline_custom',
      license_content: { matcher: 1 },
      max_version: '3.24',
      lock: { type: 'hardware_id', value: 'REG-SN-1' },
      device_id: view.activations[0].id,
    })
    // the same request again: the same device, no new seat
    const again = await agent.post(`/api/license/${licenses[0]!.id}/activate/offline/`, { data: request('SN-1') })
    expect(again.json().activations).toHaveLength(1)
    // another machine needs a free seat
    const other = await agent.post(`/api/license/${licenses[0]!.id}/activate/offline/`, { data: request('SN-2') })
    expect(other.statusCode).toBe(409)
    expect(other.json().error_code).toBe('2ea83a29')
  })

  it('refuses empty and malformed input and changes nothing', async () => {
    const { agent, licenses } = await customLicense()
    const id = licenses[0]!.id
    for (const body of [{}, { data: '' }, { data: '   ', hardware_key_serial: ' ' }]) {
      const res = await agent.post(`/api/license/${id}/activate/offline/`, body)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error_code: 'internal_server_error', error: 'empty data or usb token' })
    }
    for (const data of [
      encodeBase64('hello'),
      '%%%not base64%%%',
      encodeBase64('3DIVI-LICENSE-REQUEST v1\nsensor_name=x\n'),
      encodeBase64('3DIVI-LICENSE-REQUEST v1\nserial=1\nevil=2\n'),
    ]) {
      const res = await agent.post(`/api/license/${id}/activate/offline/`, { data })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ error_code: '71e4fc02', error: expect.stringMatching(/not a valid activation request file/) })
    }
    const usb = await agent.post(`/api/license/${id}/activate/offline/`, { hardware_key_serial: 'TOKEN' })
    expect(usb.json().error_code).toBe('9febaea3')
    const view = (await agent.get(`/api/license/${id}/`)).json()
    expect(view).toMatchObject({ activations: [], data: null, activation_date: null, license_status: 'new' })
  })

  it('a USB-token license takes the trimmed serial, at most 256 characters', async () => {
    const { agent, licenses } = await customLicense({ device_bound: false }, { hardware_key_serial: true })
    const id = licenses[0]!.id
    expect((await agent.post(`/api/license/${id}/activate/offline/`, { data: request('SN') })).json().error_code).toBe('9febaea3')
    expect((await agent.post(`/api/license/${id}/activate/offline/`, { hardware_key_serial: 'x'.repeat(257) })).statusCode).toBe(400)
    // the body schema's rule, the one the activation form checks with, named at its field
    expectError(await agent.post(`/api/license/${id}/activate/offline/`, { usbToken: ` ${'x'.repeat(257)} ` }), 400, '6a38afc1', 'usbToken')
    const ok = await agent.post(`/api/license/${id}/activate/offline/`, { usbToken: '  USB-0042  ' })
    expect(ok.statusCode).toBe(200)
    expect(ok.json()).toMatchObject({
      locked_to: 'usb_token',
      activations: [expect.objectContaining({ kind: 'usb_token', signature_properties: expect.objectContaining({ serial: 'USB-0042' }) })],
    })
    expect(parseLicenseFile(fileOf(ok.json()))!.payload.lock).toEqual({ type: 'usb_token', value: 'USB-0042' })
  })

  it('group offline activation makes a license (limit -1); a refusal gives the slot back', async () => {
    const { agent, licenses } = await customLicense()
    const groupId = licenses[0]!.group_id
    await t.db.query('UPDATE license_groups SET available = 2 WHERE id = $1', [groupId])
    const bad = await agent.post(`/api/group/${groupId}/activate/offline/`, { data: encodeBase64('nope') })
    expect(bad.json().error_code).toBe('71e4fc02')
    expect((await agent.get('/api/group/')).json().groups[0].limit).toBe(2)
    const ok = await agent.post(`/api/group/${groupId}/activate/offline/`, { data: request('SN-9') })
    expect(ok.statusCode).toBe(200)
    expect(ok.json()).toMatchObject({ group_id: groupId, license_status: 'active' })
    expect((await agent.get('/api/group/')).json().groups[0].limit).toBe(1)
  })
})

describe('devices panel', () => {
  it('releases up to 3 devices per license in any 30 days, then names the next possible date', async () => {
    const { agent, licenses } = await customLicense()
    const id = licenses[0]!.id
    for (let i = 0; i < 3; i++) {
      const view = (await agent.post(`/api/license/${id}/activate/offline/`, { data: request(`SN-${i}`) })).json()
      const released = await agent.post(`/api/license/${id}/devices/${view.activations[0].id}/release/`, {})
      expect(released.statusCode).toBe(200)
      expect(released.json().activations).toEqual([])
    }
    const view = (await agent.post(`/api/license/${id}/activate/offline/`, { data: request('SN-3') })).json()
    const refused = await agent.post(`/api/license/${id}/devices/${view.activations[0].id}/release/`, {})
    expect(refused.statusCode).toBe(429)
    expect(refused.json().error_code).toBe('59ff98bd')
    const next = new Date(Date.now() + 30 * 86400_000).toISOString().slice(0, 10)
    expect(refused.json().error).toContain(next)
    await t.db.query(`UPDATE devices SET released_at = now() - interval '31 days' WHERE license_id = $1 AND release_kind = 'customer'`, [id])
    expect((await agent.post(`/api/license/${id}/devices/${view.activations[0].id}/release/`, {})).statusCode).toBe(200)
    expect((await agent.post(`/api/license/${id}/devices/999999/release/`, {})).json().error_code).toBe('63f560db')
  })
})

describe('device API', () => {
  it('activates idempotently, validates with every code, deactivates', async () => {
    const { licenses } = await customLicense({ online: true, device_bound: false, product: 'face_online_custom' })
    const key = licenses[0]!.token
    const a = sdk()
    const first = await post(a, '/api/sdk/activate/', { key, fingerprint: 'fp-1', name: 'Kiosk', properties: { serial: 'S1' } })
    expect(first.statusCode).toBe(200)
    const body = first.json()
    const ttl = new Date(body.expires_at).getTime() - Date.now()
    expect(ttl).toBeGreaterThan(86_000_000)
    expect(ttl).toBeLessThanOrEqual(86_400_000)
    expect(parseLicenseFile(body.license_file)!.payload.lock).toEqual({ type: 'fingerprint', value: 'fp-1' })
    const again = await post(a, '/api/sdk/activate/', { key, fingerprint: 'fp-1' })
    expect(again.json().device.id).toBe(body.device.id)
    expect((await post(a, '/api/sdk/activate/', { key, fingerprint: 'fp-2' })).json()).toMatchObject({ code: 'TOO_MANY_DEVICES', error_code: '2ea83a29' })
    expect((await post(a, '/api/sdk/activate/', { key: 'NOPE', fingerprint: 'fp-2' })).json()).toMatchObject({ code: 'NOT_FOUND', error_code: '63f560db' })

    const v = async (fingerprint = 'fp-1') => (await post(a, '/api/sdk/validate/', { key, fingerprint })).json()
    expect(await v()).toMatchObject({ valid: true, code: 'VALID' })
    expect(await v('fp-x')).toMatchObject({ valid: false, code: 'NOT_ACTIVATED' })
    const id = licenses[0]!.id
    await t.db.query(`UPDATE licenses SET held_until = now() + interval '15 minutes' WHERE id = $1`, [id])
    expect((await v()).code).toBe('ON_HOLD')
    await t.db.query(`UPDATE licenses SET held_until = NULL, status = 1 WHERE id = $1`, [id])
    expect((await v()).code).toBe('SUSPENDED')
  })

  it('answers EXPIRED and PAUSED, records last seen, frees the seat on deactivate', async () => {
    const { agent, licenses } = await customLicense({ online: true, device_bound: false, product: 'face_online_custom' })
    const key = licenses[0]!.token
    const id = licenses[0]!.id
    const a = sdk()
    await post(a, '/api/sdk/activate/', { key, fingerprint: 'fp-1' })
    await t.db.query(`UPDATE devices SET last_seen = now() - interval '2 hours' WHERE license_id = $1`, [id])
    await post(a, '/api/sdk/validate/', { key, fingerprint: 'fp-1' })
    // last seen is written off the request path, within the buffer's second (seen.ts)
    const seen = async () => (await agent.get(`/api/license/${id}/`)).json().activations[0].last_seen as string
    await expect.poll(async () => Date.now() - new Date(await seen()).getTime(), { timeout: 3000 }).toBeLessThan(60_000)
    await t.db.query(`UPDATE licenses SET config = config || '{"paused": true}' WHERE id = $1`, [id])
    expect((await post(a, '/api/sdk/validate/', { key, fingerprint: 'fp-1' })).json().code).toBe('PAUSED')
    await t.db.query(`UPDATE licenses SET expire_date = now() - interval '1 day' WHERE id = $1`, [id])
    expect((await post(a, '/api/sdk/validate/', { key, fingerprint: 'fp-1' })).json().code).toBe('EXPIRED')
    expect((await post(a, '/api/sdk/activate/', { key, fingerprint: 'fp-9' })).statusCode).toBe(403)
    const off = await post(a, '/api/sdk/deactivate/', { key, fingerprint: 'fp-1' })
    expect(off.json()).toEqual({ status: 'ok', released: true })
    expect((await post(a, '/api/sdk/deactivate/', { key, fingerprint: 'fp-1' })).json().code).toBe('NOT_ACTIVATED')
    expect((await agent.get(`/api/license/${id}/`)).json().activations).toEqual([])
  })
})

describe('signing keys', () => {
  it('rotation keeps old files valid until their key retires; tampering and expiry fail', async () => {
    const ring = t.app.ctx.keyring
    const payload = licenseFilePayload()
    const old = ring.sign(payload)
    const oldKid = parseLicenseFile(old)!.kid
    await ring.rotate()
    const fresh = ring.sign(payload)
    const freshKid = parseLicenseFile(fresh)!.kid
    expect(freshKid).not.toBe(oldKid)
    expect(verifyLicenseFile(old, ring.publicKeys()).ok).toBe(true)
    await ring.retire(oldKid, new Date(Date.now() - 1000))
    expect(verifyLicenseFile(old, ring.publicKeys())).toMatchObject({ ok: false, reason: 'retired_key' })
    expect(verifyLicenseFile(fresh, ring.publicKeys()).ok).toBe(true)
    expect(ring.publicKeys().find((k) => k.kid === oldKid)!.retire_at).not.toBeNull()
    // flip one character of the payload
    const lines = fresh.split('\n')
    const tampered = [lines[0], lines[1]!.slice(0, 10) + (lines[1]![10] === 'A' ? 'B' : 'A') + lines[1]!.slice(11), lines[2]].join('\n')
    expect(verifyLicenseFile(tampered, ring.publicKeys()).ok).toBe(false)
    const expired = ring.sign({ ...payload, expires_at: new Date(Date.now() - 1000).toISOString() })
    expect(verifyLicenseFile(expired, ring.publicKeys())).toMatchObject({ ok: false, reason: 'expired' })
    expect(
      verifyLicenseFile(
        fresh,
        ring.publicKeys().filter((k) => k.kid !== freshKid),
      ),
    ).toMatchObject({ ok: false, reason: 'unknown_key' })
  })

  it('the CLI writes request files, verifies files and rotates and retires keys', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'))
    const req = runLicenseCommand(['license:request', '--serial', 'SN-7', '--sensor', 'Cam', '--reg', 'R7'])!
    expect(req.output).toBe('3DIVI-LICENSE-REQUEST v1\nserial=SN-7\nsensor_name=Cam\nreg=R7')
    const file = join(dir, 'lic.lic')
    const ring = t.app.ctx.keyring
    const cli = (...argv: string[]) => runCommand(t.db, argv, { keyring: () => Promise.resolve(ring) })
    writeFileSync(
      file,
      ring.sign({
        license_id: 9,
        product: 'p',
        license_content: {},
        max_version: null,
        issued_at: new Date().toISOString(),
        license_expires_at: null,
        expires_at: null,
        lock: { type: 'no_bound', value: null },
        device_id: null,
      }),
    )
    const ok = await cli('license:verify', file)
    expect(ok.code).toBe(0)
    expect(ok.output).toContain('"license_id": 9')
    // against a saved key list, without the database
    const keysFile = join(dir, 'keys.json')
    writeFileSync(keysFile, JSON.stringify({ keys: ring.publicKeys() }))
    expect(runLicenseCommand(['license:verify', file, '--keys', keysFile])!.code).toBe(0)
    writeFileSync(file, readFileSync(file, 'utf8').replace('3DIVI-LICENSE v1 ', '3DIVI-LICENSE v1 x'))
    expect((await cli('license:verify', file)).code).toBe(1)
    const kid = ring.publicKeys()[0]!.kid
    expect((await cli('license:keys', 'rotate')).code).toBe(0)
    expect((await cli('license:keys', 'retire', kid, '--at', '2020-01-01')).code).toBe(0)
    expect((await cli('license:keys', 'list')).output).toContain(`${kid}  created`)
    expect((await cli('license:keys', 'retire', kid)).code).toBe(2)
  })

  it('the 26-line verifier in docs/license-file.md accepts a real file and refuses a changed one', async () => {
    const { agent, licenses } = await customLicense()
    const view = (await agent.post(`/api/license/${licenses[0]!.id}/activate/offline/`, { data: request('SN-1') })).json()
    const keys = (await agent.get('/api/license/public-key/')).json().keys
    const { verifyLicense } = (await import('../../../../../docs/examples/verify-license.mjs')) as {
      verifyLicense: (
        text: string,
        keys: unknown[],
        now?: Date,
        device?: Record<string, string>,
      ) => { ok: boolean; reason?: string; payload?: { license_id: number } }
    }
    expect(verifyLicense(fileOf(view), keys)).toMatchObject({ ok: true, payload: { license_id: licenses[0]!.id } })
    // with the device's identity it checks the lock the file states
    expect(verifyLicense(fileOf(view), keys, new Date(), { hardware_id: 'REG-SN-1' }).ok).toBe(true)
    expect(verifyLicense(fileOf(view), keys, new Date(), { hardware_id: 'REG-OTHER' })).toMatchObject({ ok: false, reason: 'lock mismatch' })
    const changed = fileOf(view).replace(/\n(.)/, (_m, c: string) => `\n${c === 'e' ? 'f' : 'e'}`)
    expect(verifyLicense(changed, keys).ok).toBe(false)
    const doc = readFileSync(new URL('../../../../../docs/license-file.md', import.meta.url), 'utf8')
    expect(doc).toContain(
      readFileSync(new URL('../../../../../docs/examples/verify-license.mjs', import.meta.url), 'utf8')
        .split('\n')
        .slice(4, 20)
        .join('\n'),
    )
  })
})
