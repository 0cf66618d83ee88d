import { describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import { signedInClient, useTestApp } from '../test/harness.ts'

const t = useTestApp()

describe('a method a path is not served with', () => {
  it('answers 405 with Allow, before the CSRF check and whoever asks', async () => {
    const { agent } = await signedInClient(t)
    const cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    for (const [method, url, allow] of [
      ['TRACE', '/api/client/signin/', 'POST'],
      ['PUT', '/api/client/signin/', 'POST'],
      ['DELETE', '/api/license/12/', 'GET, HEAD, POST'],
      ['PATCH', '/api/license/', 'GET, HEAD'],
      ['PUT', '/api/feedback/', 'POST'],
      ['POST', '/api/changelog/', 'GET, HEAD'],
    ] as const) {
      for (const headers of [{}, { cookie }]) {
        const res = await t.app.inject({ method, url, headers })
        expect(res.statusCode, `${method} ${url}`).toBe(405)
        expect(res.headers.allow, `${method} ${url}`).toBe(allow)
        expect(res.json()).toEqual({ error_code: ERRORS.method_not_allowed.code, error: ERRORS.method_not_allowed.message })
      }
    }
  })

  it('an unknown path stays 404, whatever the method; a served method still needs its CSRF token', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'TRACE'] as const) {
      const res = await t.app.inject({ method, url: '/api/no-such-call/' })
      expect(res.statusCode, method).toBe(404)
      expect(res.json().error_code).toBe(ERRORS.route_not_found.code)
      expect(res.headers.allow).toBeUndefined()
    }
    const res = await t.app.inject({ method: 'POST', url: '/api/client/signin/', payload: {} })
    expect(res.statusCode).toBe(403)
    expect(res.json().error_code).toBe(ERRORS.csrf_failed.code)
  })
})
