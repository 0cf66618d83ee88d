import { describe, expect, it } from 'vitest'
import { parseWebhookSignature, webhookCreateBody, webhookSignedText } from './webhooks.ts'

describe('webhook rules', () => {
  it('reads the signature header: t and every v1, or null for anything else', () => {
    const v = 'a'.repeat(64)
    const w = 'b'.repeat(64)
    expect(parseWebhookSignature(`t=1796560000,v1=${v}`)).toEqual({ t: 1796560000, v1: [v] })
    expect(parseWebhookSignature(`t=1796560000, v1=${v}, v1=${w}`)).toEqual({ t: 1796560000, v1: [v, w] })
    expect(parseWebhookSignature(`v1=${v}`)).toBeNull()
    expect(parseWebhookSignature('t=1796560000,v1=short')).toBeNull()
    expect(parseWebhookSignature('')).toBeNull()
  })

  it('signs the timestamp, a dot and the body as sent', () => {
    expect(webhookSignedText(12, '{"a":1}')).toBe('12.{"a":1}')
  })

  it('an endpoint is an http(s) address without credentials, with at least one known event', () => {
    const ok = { url: 'https://example.com/hooks', events: ['device.activated'] }
    expect(webhookCreateBody.safeParse(ok).success).toBe(true)
    for (const url of ['ftp://example.com/x', 'https://user:pw@example.com/x', 'not a url', ''])
      expect(webhookCreateBody.safeParse({ ...ok, url }).success, url).toBe(false)
    expect(webhookCreateBody.safeParse({ ...ok, events: [] }).error?.issues[0]?.message).toBe('webhook_events_error')
    expect(webhookCreateBody.safeParse({ ...ok, events: ['license.created'] }).success).toBe(false)
  })
})
