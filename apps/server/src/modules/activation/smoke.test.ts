import { expect, it } from 'vitest'
import { encodeBase64, formatRequestFile } from '@portal/domain'
import { verifyLicenseFile } from '../../platform/signing.ts'
import { Agent, signedInClient, useTestApp } from '../../test/harness.ts'

const t = useTestApp()

it('offline activation with a request file, then the device API', async () => {
  const { agent, email } = await signedInClient(t)
  const staff = await signedInClient(t, 'staff@example.com')
  await t.db.query(`UPDATE clients SET is_staff = true WHERE email = 'staff@example.com'`)
  const created = await staff.agent.post('/api/resource/custom/create/', {
    title: 'Door camera', count: 2, client_email: email,
    config: { product: 'face_offline_custom', license_expire_delta: 31104000, device_bound: true, max_version: '3.24', license_content: { matcher: 1, detector: 1 } },
    custom_tags: {},
  })
  expect(created.statusCode).toBe(200)
  const [lic] = created.json().licenses
  const empty = await agent.post(`/api/license/${lic.id}/activate/offline/`, {})
  expect(empty.statusCode).toBe(400)
  expect(empty.json()).toEqual({ error_code: 'internal_server_error', error: 'empty data or usb token' })
  const bad = await agent.post(`/api/license/${lic.id}/activate/offline/`, { data: encodeBase64('hello') })
  expect(bad.json().error).toBe('Invalid license file')
  const data = encodeBase64(formatRequestFile({ serial: 'SN-1', sensor_name: 'Cam', reg: 'REG-1' }))
  const ok = await agent.post(`/api/license/${lic.id}/activate/offline/`, { data })
  expect(ok.statusCode).toBe(200)
  const view = ok.json()
  expect(view.activations).toHaveLength(1)
  expect(view.license_status).toBe('active')
  const fileText = Buffer.from(view.data, 'base64').toString()
  const keys = (await agent.get('/api/license/public-key/')).json().keys
  expect(verifyLicenseFile(fileText, keys)).toMatchObject({ ok: true })
  const tampered = fileText.replace(/^(.+\n)(.)/, (_m, a, c) => a + (c === 'e' ? 'f' : 'e'))
  expect(verifyLicenseFile(tampered, keys).ok).toBe(false)
  const second = await agent.post(`/api/license/${lic.id}/activate/offline/`, { data: encodeBase64(formatRequestFile({ serial: 'SN-2', sensor_name: null, reg: null })) })
  expect(second.json().error_code).toBe('2ea83a29')

  const sdk = new Agent(t.app)
  const v0 = await sdk.post('/api/sdk/validate/', { key: created.json().licenses[1].token, fingerprint: 'fp-1' }, { csrf: false })
  expect(v0.json()).toMatchObject({ valid: false, code: 'NOT_ACTIVATED' })
  const a = await sdk.post('/api/sdk/activate/', { key: created.json().licenses[1].token, fingerprint: 'fp-1', name: 'Kiosk' }, { csrf: false })
  expect(a.statusCode).toBe(200)
  const v1 = await sdk.post('/api/sdk/validate/', { key: created.json().licenses[1].token, fingerprint: 'fp-1' }, { csrf: false })
  expect(v1.json()).toMatchObject({ valid: true, code: 'VALID' })
  const nf = await sdk.post('/api/sdk/validate/', { key: 'nope', fingerprint: 'fp-1' }, { csrf: false })
  expect(nf.json().code).toBe('NOT_FOUND')
})
