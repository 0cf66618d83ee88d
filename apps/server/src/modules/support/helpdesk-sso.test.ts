import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { importSPKI, jwtVerify, type JWTPayload } from 'jose'
import { ERRORS } from '@portal/domain'
import { loadConfig } from '../../platform/config.ts'
import { Agent, expectError, signedInClient, testConfig, useTestApp } from '../../test/harness.ts'

const REDIRECT_URI = 'https://help.example.com/sp/OIDC/302836020429100183/implicit'
const CLIENT_ID = '302836020429100183'
const t = useTestApp({ FRESHDESK_SSO_CLIENT_ID: CLIENT_ID, FRESHDESK_SSO_REDIRECT_URI: REDIRECT_URI })

/** The helpdesk's request, as Freshworks sends the browser with it. */
const authorize = (over: Record<string, string> = {}) =>
  `/api/service/freshdesk/authorize/?${new URLSearchParams({
    response_type: 'id_token',
    client_id: CLIENT_ID,
    scope: 'openid email profile',
    state: 'Y2xhc2g7QVR5MUhESndrY3p2c3pqRFN4WjE=',
    redirect_uri: REDIRECT_URI,
    nonce: 'xb2Ce5AGSDGhWYQI',
    ...over,
  }).toString()}`

/** The helpdesk's check: the RS256 signature with the registered public key, and the claims. */
async function verify(idToken: string) {
  const { public_key } = (await new Agent(t.app).get('/api/service/freshdesk/public-key/')).json() as { public_key: string }
  const key = await importSPKI(public_key, 'RS256')
  return jwtVerify(idToken, key, { algorithms: ['RS256'], audience: CLIENT_ID, issuer: 'http://portal.test/api/service/' })
}

describe('GET /api/service/freshdesk/authorize/ (the helpdesk sign-on)', () => {
  it('sends a signed-in client back to the redirect URI with the same state and an RS256 id_token a JWT library verifies', async () => {
    const { agent, client } = await signedInClient(t, 'ann.lee@example.com')
    await agent.post('/api/client/', { name: 'Ann', last_name: 'Lee' })
    const res = await agent.get(authorize())
    expect(res.statusCode).toBe(302)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers['referrer-policy']).toBe('no-referrer')
    const url = new URL(String(res.headers.location))
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT_URI)
    expect(url.searchParams.get('state')).toBe('Y2xhc2g7QVR5MUhESndrY3p2c3pqRFN4WjE=')
    const { payload, protectedHeader } = await verify(url.searchParams.get('id_token')!)
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'JWT' })
    expect(payload).toMatchObject<JWTPayload>({
      sub: String(client.id),
      email: 'ann.lee@example.com',
      nonce: 'xb2Ce5AGSDGhWYQI',
      given_name: 'Ann',
      family_name: 'Lee',
      aud: CLIENT_ID,
    })
    expect(payload.exp! - payload.iat!).toBe(300)
    expect(Math.abs(payload.iat! * 1000 - Date.now())).toBeLessThan(60_000)
    // a changed claim breaks the signature
    const [h, p, s] = url.searchParams.get('id_token')!.split('.')
    const forged = Buffer.from(JSON.stringify({ ...payload, sub: String(client.id + 1) })).toString('base64url')
    await expect(verify(`${h}.${forged}.${s}`)).rejects.toThrow()
    expect(p).not.toBe(forged)
  })

  it('names a client without a name by the e-mail before the at-sign', async () => {
    const { agent } = await signedInClient(t, 'nameless@example.com')
    const url = new URL(String((await agent.get(authorize())).headers.location))
    expect((await verify(url.searchParams.get('id_token')!)).payload).toMatchObject({ given_name: 'nameless', family_name: '' })
  })

  it('sends a signed-out visitor to sign in first, and back to the same request after', async () => {
    const res = await new Agent(t.app).get(authorize())
    expect(res.statusCode).toBe(302)
    const login = new URL(String(res.headers.location), 'http://portal.test')
    expect(login.pathname).toBe('/app/login/')
    const next = new URL(login.searchParams.get('next')!, 'http://portal.test')
    expect(next.pathname).toBe('/app/service-redirect/')
    const resumed = new URLSearchParams(next.searchParams.get('helpdesk')!)
    expect(Object.fromEntries(resumed)).toMatchObject({ client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, nonce: 'xb2Ce5AGSDGhWYQI' })
    // no token before the sign-in
    expect(String(res.headers.location)).not.toMatch(/eyJ/)
  })

  it('accepts only the configured client id and redirect URI, and never redirects elsewhere', async () => {
    const { agent } = await signedInClient(t)
    for (const over of [
      { redirect_uri: 'https://evil.example/sp/OIDC/302836020429100183/implicit' },
      { redirect_uri: `${REDIRECT_URI}/more` },
      { redirect_uri: REDIRECT_URI.replace('https', 'http') },
      { client_id: '1' },
    ] as Record<string, string>[]) {
      const res = await agent.get(authorize(over))
      expectError(res, 400, ERRORS.sso_client_unknown.code)
      expect(res.headers.location).toBeUndefined()
    }
    for (const missing of ['state', 'nonce', 'redirect_uri', 'client_id']) {
      const q = new URL(authorize(), 'http://portal.test').searchParams
      q.delete(missing)
      const res = await agent.get(`/api/service/freshdesk/authorize/?${q.toString()}`)
      expectError(res, 400, ERRORS.validation_failed.code, missing)
    }
    expectError(await agent.get(authorize({ response_type: 'code' })), 400, ERRORS.validation_failed.code, 'response_type')
  })

  it('answers sso_client_unknown while the helpdesk is not configured', async () => {
    // another app of the same build, without the helpdesk settings
    const { buildApp } = await import('../../app.ts')
    const bare = await buildApp({ config: testConfig(), db: t.db, runJobs: false })
    try {
      expectError(await new Agent(bare).get(authorize()), 400, ERRORS.sso_client_unknown.code)
    } finally {
      await bare.close()
    }
  })

  it('the helpdesk link of the portal goes to the helpdesk without a token of its own; the cloud services keep theirs', async () => {
    const { agent } = await signedInClient(t)
    const help = new URL(String((await agent.get('/api/service/redirect/?service=freshdesk')).headers.location))
    expect(help.searchParams.has('sso')).toBe(false)
    const cloud = new URL(String((await agent.get('/api/service/redirect/?service=face-machine')).headers.location))
    expect(cloud.searchParams.get('sso')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
  })
})

describe('SSO_RSA_SIGNING_KEY', () => {
  it('signs with the configured RSA key (the same on every instance); refuses what is no private key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    const { buildApp } = await import('../../app.ts')
    const pinned = await buildApp({ config: testConfig({ SSO_RSA_SIGNING_KEY: pem }), db: t.db, runJobs: false })
    try {
      const answer = (await new Agent(pinned).get('/api/service/freshdesk/public-key/')).json()
      expect(answer).toMatchObject({ algorithm: 'RS256', public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString() })
    } finally {
      await pinned.close()
    }
    expect(() => loadConfig({ DATA_DIR: '/tmp', SSO_RSA_SIGNING_KEY: 'not a key' })).toThrow(/SSO_RSA_SIGNING_KEY/)
  })
})
