import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../app.ts'
import { testConfig, useTestApp } from '../test/harness.ts'

const t = useTestApp()
let app: FastifyInstance | null = null
afterEach(async () => {
  await app?.close()
  app = null
})

async function appWith(env: Record<string, string>) {
  app = await buildApp({ config: testConfig({ SDK_RATE_PER_IP: '3', ...env }), db: t.db })
  app.get('/test/ip', async (req) => ({ ip: req.ip }))
  await app.ready()
  return app
}

const fromProxy = (a: FastifyInstance, url: string, forwardedFor: string, payload?: object) =>
  a.inject({
    method: payload ? 'POST' : 'GET',
    url,
    remoteAddress: '10.0.0.5',
    headers: { 'x-forwarded-for': forwardedFor, ...(payload ? { 'content-type': 'application/json' } : {}) },
    ...(payload ? { payload: JSON.stringify(payload) } : {}),
  })

/** Device API calls, each with its own key and a made-up X-Forwarded-For; answers their statuses. */
async function sdkCalls(a: FastifyInstance, n: number) {
  const statuses: number[] = []
  for (let i = 0; i < n; i++) statuses.push((await fromProxy(a, '/api/sdk/validate/', `203.0.113.${i}`, { key: `KEY-${i}`, fingerprint: 'fp' })).statusCode)
  return statuses
}

describe('the client address', () => {
  it('without TRUST_PROXY is the socket address: X-Forwarded-For changes nothing, not even the per-address limits', async () => {
    const a = await appWith({})
    expect((await fromProxy(a, '/test/ip', '203.0.113.9')).json()).toEqual({ ip: '10.0.0.5' })
    expect(await sdkCalls(a, 4)).toEqual([200, 200, 200, 429])
  })

  it('with TRUST_PROXY naming the proxy, X-Forwarded-For names the client', async () => {
    const a = await appWith({ TRUST_PROXY: '10.0.0.0/8' })
    expect((await fromProxy(a, '/test/ip', '198.51.100.1, 203.0.113.9')).json()).toEqual({ ip: '203.0.113.9' })
    expect(await sdkCalls(a, 4)).toEqual([200, 200, 200, 200])
  })

  it('with a hop count, the address that many hops back; an untrusted proxy address is not believed', async () => {
    const hops = await appWith({ TRUST_PROXY: '1' })
    expect((await fromProxy(hops, '/test/ip', '198.51.100.1, 203.0.113.9')).json()).toEqual({ ip: '203.0.113.9' })
    await hops.close()
    const other = await appWith({ TRUST_PROXY: '192.168.0.1' })
    expect((await fromProxy(other, '/test/ip', '203.0.113.9')).json()).toEqual({ ip: '10.0.0.5' })
  })
})
