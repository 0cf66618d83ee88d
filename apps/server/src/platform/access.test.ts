import { describe, expect, it } from 'vitest'
import { COOKIES } from '@portal/domain'
import { Agent, expectError, signedInClient, useTestApp } from '../test/harness.ts'

const t = useTestApp()

/** Every API route the app serves, with the access it declared (swagger-ui's pages are its own). */
const apiRoutes = () =>
  t.app.routeAccess.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.method !== 'HEAD' && r.method !== 'OPTIONS')
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '1')

/** Bodies that fail every schema: wrong shape, wrong types, not JSON at all. */
const BAD_BODIES: { payload: string; type: string }[] = [
  { payload: '[]', type: 'application/json' },
  { payload: '{"title":5,"limit":"x","username":false,"count":-1,"config":7}', type: 'application/json' },
  { payload: '{"unterminated":', type: 'application/json' },
  { payload: 'not json', type: 'text/plain' },
]

async function send(agent: Agent | null, method: string, url: string, body: { payload: string; type: string }) {
  const headers: Record<string, string> = { 'content-type': body.type }
  if (agent) {
    if (!agent.cookies.has(COOKIES.csrf)) await agent.get('/api/health/')
    headers.cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    headers['x-csrftoken'] = agent.cookies.get(COOKIES.csrf)!
  }
  return t.app.inject({ method: method as 'POST', url, headers, payload: method === 'GET' ? undefined : body.payload })
}

describe('access is checked before the body', () => {
  it('every API route declares who may call it', async () => {
    await new Agent(t.app).get('/api/health/')
    const undeclared = apiRoutes()
      .filter((r) => r.auth === undefined)
      .map((r) => `${r.method} ${r.url}`)
    expect(undeclared).toEqual([])
    // the list is the real one: the calls of every module are in it
    const urls = new Set(apiRoutes().map((r) => r.url))
    for (const u of ['/api/client/signin/', '/api/client/', '/api/license/:id/', '/api/resource/custom/create/', '/api/sdk/validate/'])
      expect(urls).toContain(u)
  })

  it('an anonymous call with a bad body answers 401 Unauthorized user AnonymousUser on every client and staff route', async () => {
    const guarded = apiRoutes().filter((r) => r.auth === 'client' || r.auth === 'staff')
    expect(guarded.length).toBeGreaterThan(15)
    const anon = new Agent(t.app)
    for (const r of guarded) {
      for (const body of r.method === 'GET' ? BAD_BODIES.slice(0, 1) : BAD_BODIES) {
        const res = await send(anon, r.method, concrete(r.url), body)
        expect(res.statusCode, `${r.method} ${r.url} ${body.payload}: ${res.body}`).toBe(401)
        expect(res.json()).toEqual({ error_code: '1920e203', error: 'Unauthorized user AnonymousUser' })
      }
    }
  })

  it('a signed-in client who is not staff gets 403 on every staff route, whatever the body', async () => {
    const staffRoutes = apiRoutes().filter((r) => r.auth === 'staff')
    expect(staffRoutes.map((r) => r.url)).toContain('/api/resource/custom/create/')
    const { agent } = await signedInClient(t)
    for (const r of staffRoutes) {
      for (const body of BAD_BODIES) expectError(await send(agent, r.method, concrete(r.url), body), 403, '737709af')
    }
  })

  it('a POST without the CSRF header is refused before its body is read', async () => {
    const { agent } = await signedInClient(t)
    // the device API, the local CLI and the providers' webhooks (signed instead) are called without a browser session
    const posts = apiRoutes().filter(
      (r) => r.method === 'POST' && !r.url.startsWith('/api/sdk/') && r.url !== '/api/admin/cli/' && !r.url.startsWith('/api/payments/webhook/'),
    )
    expect(posts.map((r) => r.url)).toContain('/api/sandbox/checkout/:session_id/pay/')
    for (const r of posts) {
      const res = await t.app.inject({
        method: 'POST',
        url: concrete(r.url),
        headers: { 'content-type': 'application/json', cookie: [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
        payload: '{"unterminated":',
      })
      expectError(res, 403, '2ac46899')
    }
  })

  it('the OpenAPI document marks the calls that need a session', async () => {
    const doc = (await t.app.inject('/api/openapi.json')).json()
    // the session, or (for the calls that take one) a customer API token instead
    expect(doc.paths['/api/license/{id}/'].post.security).toEqual([{ session: [], csrf: [] }, { bearer: [] }])
    expect(doc.paths['/api/license/'].get.security).toEqual([{ session: [] }, { bearer: [] }])
    expect(doc.paths['/api/client/'].post.security).toEqual([{ session: [], csrf: [] }])
    expect(doc.paths['/api/client/signin/'].post.security).toBeUndefined()
  })

  it('staff pass the access check and meet the schema: a bad body is then a coded 400 on its field', async () => {
    const { agent, client } = await signedInClient(t)
    await t.db.query('UPDATE clients SET is_staff = true WHERE id = $1', [client.id])
    const res = await agent.post('/api/resource/custom/create/', { title: 'T', count: 0 })
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().field).toBeTruthy()
  })
})
