import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { ERRORS, apiError, errorByCode, type ErrorName } from './errors.ts'
import { GENERIC_MESSAGES, UNAUTHORIZED_TEXT, VALIDATION_MESSAGES, allMessages, messageFor } from './messages.ts'

const NAMES = Object.keys(ERRORS) as ErrorName[]
const entries = Object.entries(ERRORS) as [ErrorName, (typeof ERRORS)[ErrorName]][]

describe('the error catalogue (section 8)', () => {
  it('every code is 8 lowercase hex characters, except the two the spec names in words', () => {
    for (const [name, e] of entries) {
      if (e.code === 'internal_server_error' || e.code === 'external_payments_unavailable') continue
      expect(e.code, name).toMatch(/^[0-9a-f]{8}$/)
    }
  })

  it('codes are unique (only internal_server_error is shared)', () => {
    const codes = entries.map(([, e]) => e.code).filter((c) => c !== 'internal_server_error')
    const dupes = codes.filter((c, i) => codes.indexOf(c) !== i)
    expect(dupes).toEqual([])
    const shared = entries.filter(([, e]) => e.code === 'internal_server_error').map(([n]) => n)
    expect(shared).toContain('internal_server_error')
  })

  it('every entry has an HTTP error status and a non-empty message', () => {
    for (const [name, e] of entries) {
      expect(e.status, name).toBeGreaterThanOrEqual(400)
      expect(e.status, name).toBeLessThan(600)
      expect(e.message.trim().length, name).toBeGreaterThan(0)
    }
    expect(ERRORS.internal_server_error.status).toBe(500)
  })

  it('keeps the codes the spec names', () => {
    expect(ERRORS.wrong_password.code).toBe('3fc79796')
    expect(ERRORS.client_not_found_by_email.code).toBe('e1a53088')
    expect(ERRORS.email_not_confirmed.code).toBe('e6f34eac')
    expect(ERRORS.new_password_same_as_old.code).toBe('0c21cb17')
    expect(ERRORS.password_contains_email.code).toBe('59991e53')
    expect(ERRORS.password_invalid.code).toBe('4f37c7da')
    expect(ERRORS.email_in_use.code).toBe('6352926b')
    expect(ERRORS.email_invalid.code).toBe('e4a5b8f4')
    expect(ERRORS.captcha_invalid.code).toBe('1fb53c53')
    expect(ERRORS.captcha_missing.code).toBe('824d29c0')
    expect(ERRORS.not_found.code).toBe('63f560db')
    expect(ERRORS.bad_title.code).toBe('d097efb8')
    expect(ERRORS.license_status.code).toBe('23504d45')
    expect(ERRORS.action_unavailable.code).toBe('9febaea3')
  })

  it('keeps the texts the spec quotes', () => {
    expect(ERRORS.unauthorized.message).toBe(UNAUTHORIZED_TEXT)
    expect(ERRORS.invalid_credentials.message).toBe('Invalid email or password')
    // the error names the file the user chose, a request file, in a sentence
    expect(ERRORS.invalid_license_file.message).toMatch(/^This is not a valid activation request file\./)
    // asking the trial call for a paid product points to the basket
    expect(ERRORS.not_free.message).toMatch(/use the basket$/)
    expect(ERRORS.token_invalid_path.message).toBe('Invalid path')
    expect(ERRORS.token_invalid_path.status).toBe(400)
    expect(ERRORS.token_invalid.status).toBe(403)
    expect(ERRORS.client_not_found.status).toBe(404)
  })
})

describe('apiError: the {error_code, error} shape', () => {
  it('answers code and catalogue message for every name, and nothing else', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NAMES), (name) => {
        expect(apiError(name)).toStrictEqual({ error_code: ERRORS[name].code, error: ERRORS[name].message })
      }),
    )
  })

  it('takes an own text and a field', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NAMES), fc.string(), fc.string({ minLength: 1 }), (name, text, field) => {
        expect(apiError(name, text, field)).toStrictEqual({ error_code: ERRORS[name].code, error: text, field })
      }),
    )
    expect(apiError('unauthorized')).toEqual({ error_code: '1920e203', error: 'Unauthorized user AnonymousUser' })
    expect(apiError('wrong_password', undefined, 'password')).toEqual({ error_code: '3fc79796', error: 'Password is incorrect', field: 'password' })
  })

  it('leaves the field out when there is none', () => {
    expect(apiError('wrong_password', undefined, '')).not.toHaveProperty('field')
    expect(apiError('wrong_password', 'x')).not.toHaveProperty('field')
    expect(JSON.parse(JSON.stringify(apiError('not_found')))).toEqual({ error_code: '63f560db', error: 'License not found' })
  })
})

describe('errorByCode and the texts of codes', () => {
  it('finds every entry by its code; internal_server_error is the generic 500', () => {
    for (const [name, e] of entries) {
      if (e.code === 'internal_server_error') continue
      expect(errorByCode(e.code), name).toBe(ERRORS[name])
    }
    expect(errorByCode('internal_server_error')).toBe(ERRORS.internal_server_error)
    expect(errorByCode('00000000')).toBeUndefined()
  })

  it('every code is a message key with the catalogue text', () => {
    const all = allMessages()
    for (const [name, e] of entries) {
      expect(messageFor(e.code), name).not.toBe(e.code)
      expect(all[e.code], name).toBeDefined()
    }
    expect(all.internal_server_error).toBe(GENERIC_MESSAGES.internal_server_error)
    expect(messageFor('internal_server_error')).toBe(GENERIC_MESSAGES.internal_server_error)
  })

  it('allMessages holds the validation and generic texts too', () => {
    const all = allMessages()
    for (const [k, v] of Object.entries(VALIDATION_MESSAGES)) expect(all[k], k).toBe(v)
    for (const [k, v] of Object.entries(GENERIC_MESSAGES)) expect(all[k], k).toBe(v)
    expect(all.network_error).toBe('Some network error has occurred. Please check your Internet connection.')
    expect(all.unauthorized).toBe('Looks like you are not authorized. Please, try to login again.')
  })

  it('validation keys and error codes do not collide', () => {
    const codes = new Set(entries.map(([, e]) => e.code as string))
    for (const k of Object.keys(VALIDATION_MESSAGES)) expect(codes.has(k), k).toBe(false)
  })
})
