import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { checkEmail, checkPassword, checkRepeat, companySchema, passwordContainsEmail, profileFields } from './validation.ts'
import { registrationForm, changePasswordForm } from './auth.ts'
import { messageFor } from './messages.ts'

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const DIGITS = '0123456789'
const SPECIAL = '.,:;?!*+%-<>@[]{}\\/_$#'
const ALLOWED = UPPER + LOWER + DIGITS + SPECIAL
const from = (chars: string, min: number, max: number) => fc.string({ unit: fc.constantFrom(...chars.split('')), minLength: min, maxLength: max })

describe('password (section 5)', () => {
  it('accepts any allowed string of 8 to 256 with an upper, a lower and a digit or symbol', () => {
    fc.assert(
      fc.property(from(UPPER, 1, 3), from(LOWER, 1, 3), from(DIGITS + SPECIAL, 1, 3), from(ALLOWED, 5, 240), (u, l, d, rest) => {
        const pw = (u + l + d + rest).slice(0, 256)
        expect(checkPassword(pw)).toBeNull()
      }),
    )
  })

  it('refuses any character outside the allowed set', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 3 }).filter((s) => [...s].some((c) => !ALLOWED.includes(c))), (bad) => {
        expect(checkPassword(`Abcdef1${bad}`)).toBe('password_not_available_symbol_error')
      }),
    )
    expect(checkPassword('Abcdef1 space')).toBe('password_not_available_symbol_error')
    expect(checkPassword('Abcdefé1')).toBe('password_not_available_symbol_error')
  })

  it('names the one missing kind, or all kinds when several are missing', () => {
    expect(checkPassword('abcdefg1')).toBe('password_uppercase_error')
    expect(checkPassword('ABCDEFG1')).toBe('password_lowercase_error')
    expect(checkPassword('Abcdefgh')).toBe('password_digit_or_symbol_error')
    expect(checkPassword('Abcdefg!')).toBeNull()
    expect(checkPassword('abcdefgh')).toBe('password_all_types_error')
    expect(checkPassword('12345678')).toBe('password_all_types_error')
  })

  it('bounds the length: 8 to 256', () => {
    expect(checkPassword('')).toBe('password_empty_error')
    expect(checkPassword('Abcde1!')).toBe('password_min_length_error')
    expect(checkPassword('Abcdef1!')).toBeNull()
    expect(checkPassword('A1' + 'a'.repeat(254))).toBeNull()
    expect(checkPassword('A1' + 'a'.repeat(255))).toBe('password_max_length_error')
  })

  it('repeat must be non-empty and equal', () => {
    expect(checkRepeat('Abcdef1!', '')).toBe('password_empty_error')
    expect(checkRepeat('Abcdef1!', 'Abcdef1?')).toBe('password_match_error')
    expect(checkRepeat('Abcdef1!', 'Abcdef1!')).toBeNull()
    const r = registrationForm.safeParse({ username: 'a@b.co', password: 'Abcdef1!', repeat_password: 'x', is_corporate: false })
    expect(r.success).toBe(false)
    expect(r.error!.issues).toEqual([expect.objectContaining({ path: ['repeat_password'], message: 'password_match_error' })])
    expect(changePasswordForm.safeParse({ old_password: '', new_password: 'Abcdef1!', repeat_password: 'Abcdef1!' }).success).toBe(false)
  })

  it('a new password must not contain the e-mail local part, in any case', () => {
    expect(passwordContainsEmail('My-JOHN.doe-1', 'john.doe@example.com')).toBe(true)
    expect(passwordContainsEmail('Abcdef1!', 'john@example.com')).toBe(false)
    fc.assert(
      fc.property(from(LOWER, 3, 12), from(ALLOWED, 0, 10), (local, pad) => {
        expect(passwordContainsEmail(pad + local.toUpperCase() + pad, `${local}@x.io`)).toBe(true)
      }),
    )
  })
})

describe('e-mail (section 5)', () => {
  it('required, trimmed, standard pattern, at most 150', () => {
    expect(checkEmail('')).toBe('email_empty_error')
    expect(checkEmail('   ')).toBe('email_empty_error')
    expect(checkEmail('  ada@example.com  ')).toBeNull()
    for (const bad of ['ada', 'ada@', '@example.com', 'ada@example', 'a da@example.com', 'ada@@example.com']) expect(checkEmail(bad), bad).toBe('email_validation_error')
    expect(checkEmail(`${'a'.repeat(138)}@example.com`)).toBeNull()
    expect(checkEmail(`${'a'.repeat(139)}@example.com`)).toBe('email_max_length_error')
  })

  it('every valid address of ordinary shape passes', () => {
    fc.assert(
      fc.property(from(LOWER + DIGITS, 1, 20), from(LOWER, 1, 20), from(LOWER, 2, 6), (u, d, tld) => {
        expect(checkEmail(`${u}@${d}.${tld}`)).toBeNull()
      }),
    )
  })
})

describe('profile and company maxlengths (section 5)', () => {
  const cases: [string, { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } }, number][] = [
    ['name', profileFields.name, 30],
    ['last name', profileFields.last_name, 150],
    ['phone', profileFields.phone, 30],
    ['position', profileFields.position, 150],
    ['company name', companySchema.shape.name, 30],
    ['address', companySchema.shape.address, 999],
    ['tax id', companySchema.shape.vat, 150],
    ['type', companySchema.shape.type, 150],
    ['site', companySchema.shape.site, 150],
  ]
  for (const [name, schema, max] of cases) {
    it(`${name}: at most ${max}`, () => {
      const ok = name === 'phone' ? '1'.repeat(max) : 'x'.repeat(max)
      expect(schema.safeParse(ok).success).toBe(true)
      const over = schema.safeParse(ok + (name === 'phone' ? '1' : 'x'))
      expect(over.success).toBe(false)
      expect(over.error!.issues[0]!.message).toBe(`max_length_error:${max}`)
      expect(messageFor(`max_length_error:${max}`)).toBe(`Must be at most ${max} characters`)
    })
  }
})

describe('messages', () => {
  it('every key the rules produce has a text', () => {
    for (const key of ['email_empty_error', 'email_validation_error', 'email_max_length_error', 'password_empty_error', 'password_min_length_error', 'password_max_length_error', 'password_not_available_symbol_error', 'password_uppercase_error', 'password_lowercase_error', 'password_digit_or_symbol_error', 'password_all_types_error', 'password_match_error', 'phone_validation_error', 'field_empty_error']) {
      expect(messageFor(key), key).not.toBe(key)
    }
    expect(messageFor('password_match_error')).toBe("Password doesn't match")
    expect(messageFor('email_empty_error')).toBe('Please enter your email')
    expect(messageFor('email_validation_error')).toBe('Incorrect email format')
  })
})
