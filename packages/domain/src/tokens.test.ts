import { describe, expect, it } from 'vitest'
import { TOKEN_PREFIX, isTokenShape, tokenCreateBody, tokenMay, tokenState } from './tokens.ts'

describe('API token rules', () => {
  it('a read token makes GET (and HEAD) calls only; a manage token every bearer call', () => {
    expect(tokenMay('read', 'GET')).toBe(true)
    expect(tokenMay('read', 'HEAD')).toBe(true)
    for (const m of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(tokenMay('read', m)).toBe(false)
    for (const m of ['GET', 'POST']) expect(tokenMay('manage', m)).toBe(true)
  })

  it('a state from the stored times: revoked before expired, expired at its time exactly', () => {
    const now = new Date('2026-12-06T12:00:00Z')
    expect(tokenState({ expires_at: null, revoked_at: null }, now)).toBe('active')
    expect(tokenState({ expires_at: '2026-12-06T12:00:01Z', revoked_at: null }, now)).toBe('active')
    expect(tokenState({ expires_at: '2026-12-06T12:00:00Z', revoked_at: null }, now)).toBe('expired')
    expect(tokenState({ expires_at: '2026-12-01T00:00:00Z', revoked_at: '2026-11-30T00:00:00Z' }, now)).toBe('revoked')
  })

  it('the shape of a token: the prefix and base64url characters', () => {
    expect(isTokenShape(`${TOKEN_PREFIX}${'a'.repeat(43)}`)).toBe(true)
    expect(isTokenShape('a'.repeat(46))).toBe(false)
    expect(isTokenShape(`${TOKEN_PREFIX}abc def`)).toBe(false)
  })

  it('a token is made with a name, a scope and one of the offered lifetimes', () => {
    expect(tokenCreateBody.parse({ name: '  CI  ', scope: 'read', expires_in_days: null })).toEqual({ name: 'CI', scope: 'read', expires_in_days: null })
    expect(tokenCreateBody.safeParse({ name: '', scope: 'read', expires_in_days: 30 }).error?.issues[0]?.message).toBe('field_empty_error')
    expect(tokenCreateBody.safeParse({ name: 'x', scope: 'read', expires_in_days: 60 }).success).toBe(false)
    expect(tokenCreateBody.safeParse({ name: 'x'.repeat(101), scope: 'manage', expires_in_days: 90 }).error?.issues[0]?.message).toBe(
      'token_name_max_length_error',
    )
  })
})
