import { createPublicKey, verify } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import { Agent, expectError, signedInClient, useTestApp } from '../../test/harness.ts'
import { SERVICE_URLS } from './redirect.ts'

const t = useTestApp({ NUITRACK_ANALYTICS_SERVICE_URL: 'https://analytics.example.test/sso/login' })

/** The verifier of docs/sso.md, as a service would write it. */
function verifySso(token: string, publicKeyPem: string, audience: string, now = Date.now()) {
  const [header, payload, signature] = token.split('.')
  const ok = verify(null, Buffer.from(`${header}.${payload}`), createPublicKey(publicKeyPem), Buffer.from(signature!, 'base64url'))
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>
  if (!ok || claims.aud !== audience || (claims.exp as number) * 1000 < now) return null
  return { header: JSON.parse(Buffer.from(header!, 'base64url').toString()) as Record<string, unknown>, claims }
}

const publicKey = async () => (await new Agent(t.app).get('/api/service/sso-public-key/')).json() as { public_key: string; kid: string; issuer: string }

describe('GET /api/service/redirect/', () => {
  it('hands a signed-in client to a cloud service with a signed token the public key verifies', async () => {
    const { agent, client } = await signedInClient(t, 'ann@example.com')
    const res = await agent.get('/api/service/redirect/?service=face-machine')
    expect(res.statusCode).toBe(302)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers['referrer-policy']).toBe('no-referrer')
    const url = new URL(String(res.headers.location))
    expect(`${url.origin}${url.pathname}`).toBe(SERVICE_URLS['face-machine'])
    const key = await publicKey()
    const verified = verifySso(url.searchParams.get('sso')!, key.public_key, 'face-machine')
    expect(verified?.header).toEqual({ alg: 'EdDSA', typ: 'JWT', kid: key.kid })
    expect(verified?.claims).toMatchObject({ iss: 'http://portal.test/api/service/', aud: 'face-machine', sub: String(client.id), email: 'ann@example.com' })
    const { iat, exp } = verified!.claims as { iat: number; exp: number }
    expect(exp - iat).toBe(120)
    expect(Math.abs(iat * 1000 - Date.now())).toBeLessThan(60_000)
    // the token is for this service only, and a changed byte breaks it
    expect(verifySso(url.searchParams.get('sso')!, key.public_key, 'nuitrack-analytics')).toBeNull()
    const token = url.searchParams.get('sso')!
    const tampered = token.replace(
      /\.([^.]+)\./,
      (_, p: string) => `.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: '999999' })).toString('base64url')}.`,
    )
    expect(verifySso(tampered, key.public_key, 'face-machine')).toBeNull()
  })

  it("carries the client's own license id, in the address and the token, and leaves out another client's", async () => {
    const owner = await signedInClient(t)
    const stranger = await signedInClient(t)
    const created = await owner.agent.post('/api/resource/create/', { count: 1, config: { product: 'nuitrack_trial' } })
    const id = created.json().licenses[0].id as number
    const own = new URL(String((await owner.agent.get(`/api/service/redirect/?service=face-machine&license_id=${id}`)).headers.location))
    expect(own.searchParams.get('license_id')).toBe(String(id))
    expect(verifySso(own.searchParams.get('sso')!, (await publicKey()).public_key, 'face-machine')?.claims.license_id).toBe(id)
    const foreign = new URL(String((await stranger.agent.get(`/api/service/redirect/?service=face-machine&license_id=${id}`)).headers.location))
    expect(foreign.searchParams.has('license_id')).toBe(false)
    expect(verifySso(foreign.searchParams.get('sso')!, (await publicKey()).public_key, 'face-machine')?.claims).not.toHaveProperty('license_id')
  })

  it('goes to the configured address of a service', async () => {
    const { agent } = await signedInClient(t)
    const url = new URL(String((await agent.get('/api/service/redirect/?service=nuitrack-analytics')).headers.location))
    expect(`${url.origin}${url.pathname}`).toBe('https://analytics.example.test/sso/login')
    expect(url.searchParams.get('sso')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
  })

  it('sends a signed-out visitor to sign in first, then back to the redirect (no token)', async () => {
    const res = await new Agent(t.app).get('/api/service/redirect/?service=face-machine&license_id=12')
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe(`/app/login/?next=${encodeURIComponent('/app/service-redirect/?service=face-machine&license_id=12')}`)
    expect(String(res.headers.location)).not.toMatch(/sso=/)
  })

  it('refuses an unknown service or a bad license id instead of redirecting anywhere', async () => {
    const { agent } = await signedInClient(t)
    for (const q of ['service=evil', 'service=freshdesk&license_id=abc', 'service=freshdesk&license_id=-1', '']) {
      const res = await agent.get(`/api/service/redirect/?${q}`)
      expectError(res, 400, ERRORS.validation_failed.code)
      expect(res.headers.location).toBeUndefined()
    }
  })
})
