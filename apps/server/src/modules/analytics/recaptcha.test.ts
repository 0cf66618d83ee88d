import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import { Agent, STRONG_PASSWORD, count, expectError, useTestApp } from '../../test/harness.ts'

/** A local stand-in for Google's siteverify: it knows one secret and which tokens are good, once each. */
const seen: Record<string, string>[] = []
let mode: 'ok' | 'down' = 'ok'
const spent = new Set<string>()
const google: Server = createServer((req, res) => {
  let body = ''
  req.on('data', (c) => (body += c))
  req.on('end', () => {
    const form = Object.fromEntries(new URLSearchParams(body))
    seen.push(form)
    if (mode === 'down') return res.writeHead(502).end()
    const fresh = !spent.has(form.response!)
    spent.add(form.response!)
    const answer =
      form.secret !== 'fake-secret'
        ? { success: false, 'error-codes': ['invalid-input-secret'] }
        : form.response!.startsWith('good') && fresh
          ? { success: true, hostname: 'portal.test' }
          : form.response!.startsWith('good')
            ? { success: false, 'error-codes': ['timeout-or-duplicate'] }
            : { success: false, 'error-codes': ['invalid-input-response'] }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer))
  })
})
let port = 0
beforeAll(async () => {
  await new Promise<void>((r) => google.listen(0, '127.0.0.1', r))
  port = (google.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((r) => google.close(() => r())))

const t = useTestApp({
  RECAPTCHA_SITE_KEY: 'site-key-1',
  RECAPTCHA_SECRET: 'fake-secret',
  // the port is known once the fake listens; the app reads the address when it verifies
  get RECAPTCHA_VERIFY_URL() {
    return `http://127.0.0.1:${port}/recaptcha/api/siteverify`
  },
})

const signup = (a: Agent, token: string, username = `cloud${Math.random().toString(36).slice(2, 8)}@example.com`) =>
  a.post('/api/nuitrack-analytics/signup/', { username, password: STRONG_PASSWORD, captcha_token: token })

describe('Google reCAPTCHA by configuration', () => {
  it('the challenge call names reCAPTCHA and its site key', async () => {
    const res = await new Agent(t.app).get('/api/captcha/challenge/')
    expect(res.json()).toEqual({ kind: 'recaptcha', site_key: 'site-key-1' })
  })

  it('verifies the token with Google (secret, token and the address) and registers', async () => {
    mode = 'ok'
    const res = await signup(new Agent(t.app), 'good-token-1', 'rc@example.com')
    expect(res.json()).toMatchObject({ step: 'fill_info' })
    expect(seen.at(-1)).toEqual({ secret: 'fake-secret', response: 'good-token-1', remoteip: '127.0.0.1' })
  })

  it('refuses a token Google refuses (1fb53c53), a used one (824d29c0) and an empty one (824d29c0), registering nobody', async () => {
    mode = 'ok'
    const a = new Agent(t.app)
    expectError(await signup(a, 'forged'), 400, ERRORS.captcha_invalid.code, 'captcha_token')
    await signup(a, 'good-token-2')
    expectError(await signup(a, 'good-token-2'), 400, ERRORS.captcha_missing.code, 'captcha_token')
    expectError(await signup(a, ''), 400, ERRORS.captcha_missing.code, 'captcha_token')
    expect(await count(t.db, 'clients')).toBe(1)
  })

  it('answers 503 captcha_unavailable when Google cannot be asked, and registers nobody', async () => {
    mode = 'down'
    expectError(await signup(new Agent(t.app), 'good-token-3'), 503, ERRORS.captcha_unavailable.code, 'captcha_token')
    expect(await count(t.db, 'clients')).toBe(0)
    mode = 'ok'
  })
})
