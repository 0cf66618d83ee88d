import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../app.ts'
import { Agent, signedInClient, testConfig, useTestApp } from '../test/harness.ts'

const t = useTestApp()

const directives = (csp: unknown) =>
  Object.fromEntries(
    String(csp)
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/)
        return [name!, values]
      }),
  )

describe('security headers', () => {
  it('every answer has a Content-Security-Policy that allows only our own scripts, and no framing or sniffing', async () => {
    const res = await new Agent(t.app).get('/api/health/')
    const csp = directives(res.headers['content-security-policy'])
    expect(csp['default-src']).toEqual(["'self'"])
    expect(csp['script-src']).toEqual(["'self'"])
    expect(csp['object-src']).toEqual(["'none'"])
    expect(csp['frame-ancestors']).toEqual(["'none'"])
    expect(res.headers['x-frame-options']).toBe('DENY')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['referrer-policy']).toBe('same-origin')
    // served over plain http: no HSTS, and no upgrade of the page's own requests to https
    expect(res.headers['strict-transport-security']).toBeUndefined()
    expect(csp).not.toHaveProperty('upgrade-insecure-requests')
  })

  it("the device API's JSON carries OWASP's REST set, not a page's headers", async () => {
    const res = await new Agent(t.app).post('/api/sdk/validate/', { key: 'no-such-key', fingerprint: 'f' }, { csrf: false })
    expect(res.json()).toMatchObject({ valid: false, code: 'NOT_FOUND' })
    expect(directives(res.headers['content-security-policy'])).toEqual({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] })
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['x-frame-options']).toBe('DENY')
    expect(res.headers['cache-control']).toBe('no-store')
    for (const name of ['cross-origin-opener-policy', 'referrer-policy', 'x-dns-prefetch-control', 'x-download-options', 'origin-agent-cluster']) {
      expect(res.headers[name]).toBeUndefined()
    }
  })

  it('with an https PUBLIC_URL: HSTS, and insecure requests upgraded', async () => {
    const app = await buildApp({ config: testConfig({ PUBLIC_URL: 'https://portal.example' }), db: t.db })
    try {
      const res = await app.inject({ method: 'GET', url: '/api/health/' })
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=31536000$/)
      expect(directives(res.headers['content-security-policy'])).toHaveProperty('upgrade-insecure-requests')
      const device = await app.inject({ method: 'POST', url: '/api/sdk/validate/', payload: { key: 'k', fingerprint: 'f' } })
      expect(device.headers['strict-transport-security']).toMatch(/^max-age=31536000$/)
    } finally {
      await app.close()
    }
  })

  it('the web app page carries the policy too', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'web-dist-'))
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>x</title>')
    const app = await buildApp({ config: testConfig(), db: t.db, webDist: dist })
    try {
      const res = await app.inject({ method: 'GET', url: '/app/nuitrack/' })
      expect(res.statusCode).toBe(200)
      expect(directives(res.headers['content-security-policy'])['script-src']).toEqual(["'self'"])
      expect(res.headers['cache-control']).toBe('no-cache')
    } finally {
      await app.close()
    }
  })

  it('API answers, the signed-in profile above all, are never stored by a cache', async () => {
    const { agent } = await signedInClient(t)
    const profile = await agent.get('/api/client/')
    expect(profile.statusCode).toBe(200)
    expect(profile.headers['cache-control']).toBe('no-store')
    expect((await agent.get('/api/license/1/')).headers['cache-control']).toBe('no-store')
    // the license list carries every key: not stored either, and revalidated through its strong ETag
    // by the page's own cache (docs/adr/license-list-paging-and-strong-etag.md)
    const list = await agent.get('/api/license/')
    expect(list.headers['cache-control']).toBe('no-store')
    expect(list.headers.etag).toMatch(/^"[^"]+"$/)
  })

  it('the API docs page runs under the same policy: it loads no inline script', async () => {
    const res = await new Agent(t.app).get('/api/docs/')
    expect(res.statusCode).toBe(200)
    expect(directives(res.headers['content-security-policy'])['script-src']).toEqual(["'self'"])
    expect(res.body).not.toMatch(/<script>(?!\s*<\/script>)/)
    expect(res.body).toMatch(/<script src="\.\/static\/swagger-initializer\.js"/)
  })
})
