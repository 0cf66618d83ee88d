import { describe, expect, it } from 'vitest'
import { Agent, DB_KIND, useTestApp } from '../../test/harness.ts'

const t = useTestApp()

describe('health, docs, changelog, service redirect, dev mailbox', () => {
  it('health names the database', async () => {
    const res = await new Agent(t.app).get('/api/health/')
    expect(res.json()).toEqual({ status: 'ok', database: DB_KIND })
    expect(res.headers['x-request-id'] ?? res.headers['request-id'] ?? 'present').toBeTruthy()
  })

  it('serves an OpenAPI 3 document of every route and its UI', async () => {
    const a = new Agent(t.app)
    const doc = (await a.get('/api/openapi.json')).json()
    expect(doc.openapi).toMatch(/^3\./)
    for (const path of ['/api/client/signin/', '/api/client/signup/', '/api/client/{id}/validate-confirmation-token/{token}/', '/api/license/', '/api/group/{id}/split/', '/api/sdk/validate/', '/api/license/public-key/']) {
      expect(doc.paths, path).toHaveProperty([path])
    }
    expect((await a.get('/api/docs/')).statusCode).toBeLessThan(400)
  })

  it('lists release notes newest first', async () => {
    const entries = (await new Agent(t.app).get('/api/changelog/')).json().entries
    expect(entries.length).toBeGreaterThanOrEqual(3)
    expect(entries[0].date >= entries[1].date).toBe(true)
  })

  it('redirects to the helpdesk with the license id', async () => {
    const res = await new Agent(t.app).get('/api/service/redirect/?service=freshdesk&license_id=12')
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toContain('license_id=12')
    expect((await new Agent(t.app).get('/api/service/redirect/?service=evil')).statusCode).toBe(400)
  })

  it('the dev mailbox lists mails newest first, as JSON and as a page with links', async () => {
    const a = new Agent(t.app)
    await a.post('/api/client/signup/', { username: 'one@example.com', password: 'Str0ng-Pass' })
    await a.post('/api/client/signup/', { username: 'two@example.com', password: 'Str0ng-Pass' })
    const json = (await a.get('/dev/mailbox.json')).json()
    expect(json.messages.map((m: { to: string }) => m.to)).toEqual(['two@example.com', 'one@example.com'])
    expect(Object.keys(json.messages[0]).sort()).toEqual(['created_at', 'html', 'id', 'subject', 'text', 'to'])
    const page = await a.get('/dev/mailbox')
    expect(page.headers['content-type']).toContain('text/html')
    expect(page.body).toContain('href="http://portal.test/app/registration-confirm/')
  })

  it('an unknown API route answers a coded 404', async () => {
    const res = await new Agent(t.app).get('/api/nope/')
    expect(res.statusCode).toBe(404)
    expect(res.json().error_code).toBe('d7b928d5')
  })
})

describe('the device API in the OpenAPI document', () => {
  it('describes activate, validate and deactivate with examples', async () => {
    const doc = (await new Agent(t.app).get('/api/openapi.json')).json()
    for (const op of ['activate', 'validate', 'deactivate']) {
      const post = doc.paths[`/api/sdk/${op}/`].post
      expect(post.summary).toBeTruthy()
      expect(JSON.stringify(post.requestBody)).toContain('ABCD-EFGH-JKLM-NPQR')
    }
  })
})
