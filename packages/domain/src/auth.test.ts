import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  changePasswordBody,
  changePasswordForm,
  confirmBody,
  registrationForm,
  resetPasswordBody,
  sendConfirmationBody,
  sendResetBody,
  setPasswordForm,
  signinBody,
  signupBody,
} from './auth.ts'
import { PLATFORMS } from './platforms.ts'
import { messageFor } from './messages.ts'

const GOOD = 'Abcdef1!'
const TOKEN = 'abcDEF0123456789_-xyz'

type Parsed = { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }
const issues = (r: Parsed) => r.error?.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })) ?? []

describe('signinBody: same e-mail rules, password only present and at most 256 (section 5)', () => {
  it('trims the e-mail and keeps any non-empty password up to 256, even a weak one', () => {
    expect(signinBody.parse({ username: '  ada@example.com ', password: 'x' })).toEqual({ username: 'ada@example.com', password: 'x' })
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 256 }), (pw) => {
        expect(signinBody.safeParse({ username: 'ada@example.com', password: pw }).success).toBe(true)
      }),
    )
  })

  it('refuses an empty password, a password over 256, and a bad e-mail', () => {
    expect(issues(signinBody.safeParse({ username: 'ada@example.com', password: '' }))).toEqual([{ path: 'password', message: 'password_empty_error' }])
    expect(issues(signinBody.safeParse({ username: 'ada@example.com', password: 'a'.repeat(257) }))).toEqual([
      { path: 'password', message: 'password_max_length_error' },
    ])
    expect(issues(signinBody.safeParse({ username: '', password: GOOD }))).toEqual([{ path: 'username', message: 'email_empty_error' }])
    expect(issues(signinBody.safeParse({ username: 'ada', password: GOOD }))).toEqual([{ path: 'username', message: 'email_validation_error' }])
    expect(issues(signinBody.safeParse({ username: `${'a'.repeat(139)}@example.com`, password: GOOD }))).toEqual([
      { path: 'username', message: 'email_max_length_error' },
    ])
  })

  it('accepts the analytics flag', () => {
    expect(signinBody.parse({ username: 'ada@example.com', password: GOOD, nuitrack_analytics_login: true }).nuitrack_analytics_login).toBe(true)
    expect(signinBody.safeParse({ username: 'ada@example.com', password: GOOD, nuitrack_analytics_login: 'yes' }).success).toBe(false)
  })
})

describe('signupBody', () => {
  it('needs a strong password and a valid e-mail; is_corporate defaults to false', () => {
    expect(signupBody.parse({ username: ' ada@example.com ', password: GOOD })).toEqual({ username: 'ada@example.com', password: GOOD, is_corporate: false })
    expect(issues(signupBody.safeParse({ username: 'ada@example.com', password: 'abcdefgh' }))).toEqual([
      { path: 'password', message: 'password_all_types_error' },
    ])
    expect(issues(signupBody.safeParse({ username: 'ada@example.com', password: 'Abc1!' }))).toEqual([
      { path: 'password', message: 'password_min_length_error' },
    ])
    expect(issues(signupBody.safeParse({ username: 'ada@', password: GOOD }))).toEqual([{ path: 'username', message: 'email_validation_error' }])
  })

  it('takes any platform as the segment and nothing else', () => {
    for (const p of PLATFORMS) expect(signupBody.safeParse({ username: 'ada@example.com', password: GOOD, segment: p }).success).toBe(true)
    expect(signupBody.safeParse({ username: 'ada@example.com', password: GOOD, segment: 'other' }).success).toBe(false)
  })

  it('checks the optional email field with the same rules', () => {
    expect(signupBody.parse({ username: 'ada@example.com', email: ' ada@example.com', password: GOOD }).email).toBe('ada@example.com')
    expect(issues(signupBody.safeParse({ username: 'ada@example.com', email: 'nope', password: GOOD }))).toEqual([
      { path: 'email', message: 'email_validation_error' },
    ])
  })
})

describe('registrationForm', () => {
  const base = { username: 'ada@example.com', password: GOOD, repeat_password: GOOD, is_corporate: false }

  it('passes when all is right, trimming the e-mail', () => {
    expect(registrationForm.parse({ ...base, username: ' ada@example.com ' }).username).toBe('ada@example.com')
  })

  it('repeat mismatch -> password_match_error on repeat_password', () => {
    expect(issues(registrationForm.safeParse({ ...base, repeat_password: 'Abcdef1?' }))).toEqual([{ path: 'repeat_password', message: 'password_match_error' }])
    // the comparison is exact: case and surrounding spaces count
    expect(issues(registrationForm.safeParse({ ...base, repeat_password: 'abcdef1!' }))).toEqual([{ path: 'repeat_password', message: 'password_match_error' }])
    expect(issues(registrationForm.safeParse({ ...base, repeat_password: `${GOOD} ` }))).toEqual([{ path: 'repeat_password', message: 'password_match_error' }])
  })

  it('empty repeat -> password_empty_error on repeat_password', () => {
    expect(issues(registrationForm.safeParse({ ...base, repeat_password: '' }))).toContainEqual({ path: 'repeat_password', message: 'password_empty_error' })
  })

  it('the is_corporate toggle is required', () => {
    const { is_corporate: _omit, ...rest } = base
    expect(registrationForm.safeParse(rest).success).toBe(false)
  })

  it('reports each field by its name', () => {
    const r = registrationForm.safeParse({ ...base, username: '', password: 'short', repeat_password: 'short' })
    expect(issues(r)).toEqual(
      expect.arrayContaining([
        { path: 'username', message: 'email_empty_error' },
        { path: 'password', message: 'password_min_length_error' },
      ]),
    )
  })
})

describe('setPasswordForm and changePasswordForm', () => {
  it('set password: strong new password, non-empty equal repeat', () => {
    expect(setPasswordForm.safeParse({ new_password: GOOD, repeat_password: GOOD }).success).toBe(true)
    expect(issues(setPasswordForm.safeParse({ new_password: GOOD, repeat_password: 'Abcdef1?' }))).toEqual([
      { path: 'repeat_password', message: 'password_match_error' },
    ])
    expect(issues(setPasswordForm.safeParse({ new_password: GOOD, repeat_password: '' }))).toContainEqual({
      path: 'repeat_password',
      message: 'password_empty_error',
    })
    expect(issues(setPasswordForm.safeParse({ new_password: 'ABCDEFG1', repeat_password: 'ABCDEFG1' }))).toEqual([
      { path: 'new_password', message: 'password_lowercase_error' },
    ])
  })

  it('change password: current password required and at most 256', () => {
    expect(changePasswordForm.safeParse({ old_password: 'old', new_password: GOOD, repeat_password: GOOD }).success).toBe(true)
    expect(issues(changePasswordForm.safeParse({ old_password: '', new_password: GOOD, repeat_password: GOOD }))).toEqual([
      { path: 'old_password', message: 'password_empty_error' },
    ])
    expect(issues(changePasswordForm.safeParse({ old_password: 'o'.repeat(257), new_password: GOOD, repeat_password: GOOD }))).toEqual([
      { path: 'old_password', message: 'password_max_length_error' },
    ])
    expect(issues(changePasswordForm.safeParse({ old_password: 'old', new_password: GOOD, repeat_password: 'x' }))).toEqual([
      { path: 'repeat_password', message: 'password_match_error' },
    ])
    const long = `Aa1${'b'.repeat(254)}`
    expect(long).toHaveLength(257)
    expect(issues(changePasswordForm.safeParse({ old_password: 'old', new_password: long, repeat_password: long }))).toEqual([
      { path: 'new_password', message: 'password_max_length_error' },
    ])
  })

  it('change password body: the same field rules without the repeat', () => {
    expect(changePasswordBody.safeParse({ old_password: 'x', new_password: GOOD }).success).toBe(true)
    expect(issues(changePasswordBody.safeParse({ old_password: 'x', new_password: 'Abcdefgh' }))).toEqual([
      { path: 'new_password', message: 'password_digit_or_symbol_error' },
    ])
  })
})

describe('token bodies: confirmBody and resetPasswordBody', () => {
  it('coerce a positive integer client id and take a 16..128 url-safe token', () => {
    expect(confirmBody.parse({ client_id: '12', confirmation_token: TOKEN })).toEqual({ client_id: 12, confirmation_token: TOKEN })
    expect(resetPasswordBody.parse({ client_id: 3, confirmation_token: TOKEN, new_password: GOOD })).toEqual({
      client_id: 3,
      confirmation_token: TOKEN,
      new_password: GOOD,
    })
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{16,128}$/), fc.integer({ min: 1, max: 2 ** 31 }), (token, id) => {
        expect(confirmBody.safeParse({ client_id: String(id), confirmation_token: token }).success).toBe(true)
      }),
    )
  })

  it('refuse bad ids and bad tokens', () => {
    for (const id of [0, -1, 1.5, 'abc', '']) expect(confirmBody.safeParse({ client_id: id, confirmation_token: TOKEN }).success, String(id)).toBe(false)
    for (const token of ['a'.repeat(15), 'a'.repeat(129), `${'a'.repeat(16)}/`, `${'a'.repeat(16)}.`, `${'a'.repeat(16)} `, '']) {
      expect(issues(confirmBody.safeParse({ client_id: 1, confirmation_token: token })), token).toEqual([
        { path: 'confirmation_token', message: 'token_invalid' },
      ])
    }
    expect(messageFor('token_invalid')).not.toBe('token_invalid')
  })

  it('reset password needs a strong new password', () => {
    expect(issues(resetPasswordBody.safeParse({ client_id: 1, confirmation_token: TOKEN, new_password: 'abcdefg1' }))).toEqual([
      { path: 'new_password', message: 'password_uppercase_error' },
    ])
    expect(issues(resetPasswordBody.safeParse({ client_id: 1, confirmation_token: TOKEN, new_password: 'Abcdefg 1' }))).toEqual([
      { path: 'new_password', message: 'password_not_available_symbol_error' },
    ])
  })
})

describe('sendResetBody and sendConfirmationBody', () => {
  it('reset: an e-mail or a client id is needed', () => {
    expect(sendResetBody.parse({ client_email: ' ada@example.com ' })).toEqual({ client_email: 'ada@example.com' })
    expect(sendResetBody.parse({ client_id: '7', segment: 'face' })).toEqual({ client_id: 7, segment: 'face' })
    expect(issues(sendResetBody.safeParse({}))).toEqual([{ path: 'client_email', message: 'email_empty_error' }])
    expect(issues(sendResetBody.safeParse({ client_email: 'ada' }))).toEqual([{ path: 'client_email', message: 'email_validation_error' }])
    expect(sendResetBody.safeParse({ client_email: 'ada@example.com', segment: 'nope' }).success).toBe(false)
  })

  it('confirmation: e-mail required', () => {
    expect(sendConfirmationBody.parse({ client_email: 'ada@example.com ' })).toEqual({ client_email: 'ada@example.com' })
    expect(issues(sendConfirmationBody.safeParse({ client_email: ' ' }))).toEqual([{ path: 'client_email', message: 'email_empty_error' }])
  })
})

describe('messages for the keys auth.ts uses', () => {
  it('every key has a text', () => {
    const source = readFileSync(new URL('./auth.ts', import.meta.url), 'utf8')
    const keys = [...new Set([...source.matchAll(/'([a-z_]+_(?:error|invalid))'/g)].map((m) => m[1]!))]
    expect(keys).toEqual(expect.arrayContaining(['password_empty_error', 'password_match_error', 'email_empty_error', 'token_invalid']))
    for (const k of keys) expect(messageFor(k), k).not.toBe(k)
  })
})
