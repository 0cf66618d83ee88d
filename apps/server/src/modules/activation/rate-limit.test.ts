import { describe, expect, it } from 'vitest'
import { Agent, signedInClient, useTestApp } from '../../test/harness.ts'

const t = useTestApp({ SDK_RATE_PER_KEY: '6' })

describe('device API rate limit', () => {
  it('is rate limited per key with a coded 429, needs no CSRF token and sets no cookies', async () => {
    const { agent } = await signedInClient(t)
    const licenses = (await agent.post('/api/resource/create/', { count: 1, config: { product: 'nuitrack_trial' } })).json().licenses
    const a = new Agent(t.app)
    const results = []
    for (let i = 0; i < 8; i++) results.push(await a.post('/api/sdk/validate/', { key: licenses[0]!.token, fingerprint: 'fp' }, { csrf: false }))
    expect(results.slice(0, 6).every((r) => r.statusCode === 200)).toBe(true)
    expect(results[7]!.statusCode).toBe(429)
    expect(results[7]!.json().error_code).toBe('8221e1b0')
    expect(results[0]!.headers['set-cookie']).toBeUndefined()
  })
})
