import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Agent, DB_KIND, expectError, testConfig, useTestApp } from '../../test/harness.ts'
import { buildApp } from '../../app.ts'

const t = useTestApp()

describe('GET /api/health/', () => {
  it('answers ok and names the database', async () => {
    const res = await new Agent(t.app).get('/api/health/')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ status: 'ok', database: DB_KIND })
    expect(res.headers['x-content-type-options']).toBe('nosniff')
  })
})

describe('a process that drains before it stops', () => {
  it('answers 503 draining on the readiness check, closes each connection after its answer, and stays live', async () => {
    // an app of its own on the worker's database: the shared one must not drain
    const app = await buildApp({ config: testConfig(), db: t.db, runJobs: false })
    try {
      const live = await app.inject({ method: 'GET', url: '/api/health/live/' })
      expect([live.statusCode, live.json()]).toEqual([200, { status: 'ok' }])
      expect((await app.inject({ method: 'GET', url: '/api/health/' })).headers.connection).not.toBe('close')
      app.lifecycle.drain()
      const res = await app.inject({ method: 'GET', url: '/api/health/' })
      expect([res.statusCode, res.json(), res.headers['retry-after']]).toEqual([503, { status: 'draining' }, '5'])
      expect(res.headers.connection).toBe('close')
      // requests are still served while the load balancer moves traffic away
      const changelog = await app.inject({ method: 'GET', url: '/api/changelog/' })
      expect([changelog.statusCode, changelog.headers.connection]).toEqual([200, 'close'])
      expect((await app.inject({ method: 'GET', url: '/api/health/live/' })).statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })
})

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3 document with the paths of the calls, and the docs UI is served', async () => {
    const a = new Agent(t.app)
    const res = await a.get('/api/openapi.json')
    expect(res.statusCode).toBe(200)
    const doc = res.json()
    expect(doc.openapi).toMatch(/^3\./)
    for (const [path, method] of [
      ['/api/client/', 'get'],
      ['/api/client/', 'post'],
      ['/api/client/signin/', 'post'],
      ['/api/client/signup/', 'post'],
      ['/api/client/logout/', 'get'],
      ['/api/client/send-confirmation-url/', 'post'],
      ['/api/client/confirm/', 'post'],
      ['/api/client/send-password-reset-url/', 'post'],
      ['/api/client/{id}/validate-confirmation-token/{token}/', 'get'],
      ['/api/client/reset-password/', 'post'],
      ['/api/client/change-password/', 'post'],
      ['/api/health/', 'get'],
      ['/api/changelog/', 'get'],
      ['/api/service/redirect/', 'get'],
      ['/api/license/', 'get'],
      ['/api/group/{id}/split/', 'post'],
      ['/api/sdk/validate/', 'post'],
      ['/api/license/public-key/', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeTruthy()
    }
    // the dev mailbox and the document itself are not API calls
    expect(doc.paths).not.toHaveProperty(['/dev/mailbox.json'])
    expect((await a.get('/api/docs/')).statusCode).toBeLessThan(400)
  })

  it('describes the device API calls with examples', async () => {
    const doc = (await new Agent(t.app).get('/api/openapi.json')).json()
    for (const op of ['activate', 'validate', 'deactivate']) {
      const post = doc.paths[`/api/sdk/${op}/`].post
      expect(post.summary).toBeTruthy()
      expect(JSON.stringify(post.requestBody)).toContain('ABCD-EFGH-JKLM-NPQR')
    }
  })
})

describe('GET /api/changelog/', () => {
  it('lists release notes newest first, each with version, date and changes', async () => {
    const res = await new Agent(t.app).get('/api/changelog/')
    expect(res.statusCode).toBe(200)
    const entries = res.json().entries as { version: string; date: string; changes: string[] }[]
    expect(entries.length).toBeGreaterThanOrEqual(2)
    for (const e of entries) {
      expect(Object.keys(e).sort()).toEqual(['changes', 'date', 'version'])
      expect(e.version).toMatch(/\S/)
      expect(Number.isNaN(Date.parse(e.date))).toBe(false)
      expect(e.changes.length).toBeGreaterThan(0)
    }
    const dates = entries.map((e) => e.date)
    expect(dates).toEqual([...dates].sort().reverse())
  })

  it("the newest release note is the release the version label shows (the root package.json's)", async () => {
    const release = (JSON.parse(readFileSync(join(import.meta.dirname, '../../../../../package.json'), 'utf8')) as { version: string }).version
    const entries = (await new Agent(t.app).get('/api/changelog/')).json().entries as { version: string }[]
    expect(entries[0]!.version).toBe(release)
  })
})

describe('unknown routes', () => {
  it('an unknown API route answers a coded 404', async () => {
    expectError(await new Agent(t.app).get('/api/nope/'), 404, 'd7b928d5')
  })
})
