import { describe, expect, it } from 'vitest'
import { ERRORS, apiError, errorByCode } from './errors.ts'

describe('the error catalogue', () => {
  it('codes are 8 lowercase hex characters, unique, except internal_server_error', () => {
    const codes = Object.values(ERRORS).map((e) => e.code).filter((c) => c !== 'internal_server_error')
    for (const c of codes) expect(c).toMatch(/^[0-9a-f]{8}$/)
    expect(new Set(codes).size).toBe(codes.length)
  })

  it('keeps the spec codes', () => {
    expect(ERRORS.wrong_password.code).toBe('3fc79796')
    expect(ERRORS.client_not_found_by_email.code).toBe('e1a53088')
    expect(ERRORS.email_not_confirmed.code).toBe('e6f34eac')
    expect(ERRORS.new_password_same_as_old.code).toBe('0c21cb17')
    expect(ERRORS.password_contains_email.code).toBe('59991e53')
    expect(ERRORS.password_invalid.code).toBe('4f37c7da')
    expect(ERRORS.email_in_use.code).toBe('6352926b')
    expect(ERRORS.email_invalid.code).toBe('e4a5b8f4')
    expect(ERRORS.not_found.code).toBe('63f560db')
    expect(ERRORS.bad_title.code).toBe('d097efb8')
    expect(ERRORS.license_status.code).toBe('23504d45')
    expect(ERRORS.action_unavailable.code).toBe('9febaea3')
  })

  it('answers the {error_code, error} shape, with the field when there is one', () => {
    expect(apiError('unauthorized')).toEqual({ error_code: '1920e203', error: 'Unauthorized user AnonymousUser' })
    expect(apiError('wrong_password', undefined, 'password')).toEqual({ error_code: '3fc79796', error: 'Password is incorrect', field: 'password' })
    expect(errorByCode('internal_server_error')!.status).toBe(500)
  })
})
