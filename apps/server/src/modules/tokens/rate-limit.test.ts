import { describe, expect, it } from 'vitest'
import { expectError, signedInClient, useTestApp } from '../../test/harness.ts'

// the device API's limits, made small: a token shares them, per token and per address
const t = useTestApp({ SDK_RATE_PER_KEY: '3', SDK_RATE_PER_IP: '5' })

async function token(c: Awaited<ReturnType<typeof signedInClient>>) {
  const res = await c.agent.post('/api/account/tokens/', { name: 'CI', scope: 'read', expires_in_days: null })
  return res.json().secret as string
}
const list = (secret: string, ip: string) =>
  t.app.inject({ method: 'GET', url: '/api/license/', headers: { authorization: `Bearer ${secret}` }, remoteAddress: ip })

describe('API tokens and the rate limits', () => {
  it('a token gets the per-key limit of the device API, and an address its per-address limit', async () => {
    const c = await signedInClient(t)
    const [a, b] = [await token(c), await token(c)]
    for (let i = 0; i < 3; i++) expect((await list(a, '10.1.0.1')).statusCode).toBe(200)
    expectError(await list(a, '10.1.0.2'), 429, '8221e1b0')
    // another token from another address is its own count
    expect((await list(b, '10.1.0.3')).statusCode).toBe(200)
    // guessing tokens from one address meets the per-address limit too
    const guesses = await Promise.all(Array.from({ length: 6 }, (_, i) => list(`lp_${String(i).repeat(43)}`, '10.1.0.9')))
    expect(guesses.map((r) => r.statusCode).filter((s) => s === 429)).toHaveLength(1)
    expect(guesses.map((r) => r.statusCode).every((s) => s === 401 || s === 429)).toBe(true)
  })
})
