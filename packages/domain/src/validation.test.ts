import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { z } from 'zod'
import { INT32_MAX, INT32_MIN, isSafeText, LIMITS, SAFE_TEXT_RE, checkEmail, checkPassword, checkRepeat, passwordContainsEmail } from './validation.ts'
import { checkTitle } from './licenses.ts'
import { boundedInt, idNumber, loosePasswordField, text, companySchema, emailField, passwordField, profileFields } from './fields.ts'
import { registrationForm } from './auth.ts'
import { resizeBody, splitBody, staffLicenseBody, titleField, trialBody } from './license-schemas.ts'
import { VALIDATION_MESSAGES, messageFor } from './messages.ts'
import { feedbackBody } from './feedback.ts'
import { salesMessageBody } from './sales-message.ts'

// Section 5, written out again here so the tests do not borrow the implementation's regexes.
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const DIGITS = '0123456789'
const SPECIAL = '.,:;?!*+%-<>@[]{}\\/_$#'
const ALLOWED = UPPER + LOWER + DIGITS + SPECIAL
const WHITESPACE = ' \t\n\r'

const from = (chars: string, minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(...chars.split('')), minLength, maxLength })

/** One character that the password rule does not allow (any code point: space, Cyrillic, emoji, é...). */
const badChar = fc
  .oneof(
    fc.constantFrom(' ', '"', "'", '(', ')', '=', '^', '&', '|', '~', '`', 'é', 'É', 'ß', 'Я', 'я', '€', '😀', '\t', '\u0000'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  )
  .filter((c) => !ALLOWED.includes(c))

type Kind = 'upper' | 'lower' | 'digitOrSpecial'
const KIND_CHARS: Record<Kind, string> = { upper: UPPER, lower: LOWER, digitOrSpecial: DIGITS + SPECIAL }
const KIND_KEY: Record<Kind, string> = {
  upper: 'password_uppercase_error',
  lower: 'password_lowercase_error',
  digitOrSpecial: 'password_digit_or_symbol_error',
}
const KINDS: Kind[] = ['upper', 'lower', 'digitOrSpecial']

/** An allowed password of the given length range made only of the given kinds, each present at least once. */
const passwordOf = (kinds: Kind[], minLength: number, maxLength: number) =>
  fc
    .tuple(
      fc.tuple(...kinds.map((k) => from(KIND_CHARS[k], 1, 1))),
      from(kinds.map((k) => KIND_CHARS[k]).join(''), Math.max(0, minLength - kinds.length), maxLength - kinds.length),
      fc.array(fc.nat(), { minLength: kinds.length, maxLength: kinds.length }),
    )
    .map(([required, rest, positions]) => {
      // insert each required character at an arbitrary place, so it is not always in front
      let out = rest
      required.forEach((c, i) => {
        const at = (positions[i] ?? 0) % (out.length + 1)
        out = out.slice(0, at) + c + out.slice(at)
      })
      return out
    })

const validPassword = passwordOf(KINDS, LIMITS.passwordMin, LIMITS.passwordMax)

/** An ordinary, valid address: local@label(.label)*.tld */
const validEmail = fc
  .tuple(
    from(LOWER + DIGITS + '._+-', 1, 30).filter((s) => /[a-z0-9]/.test(s)),
    fc.array(from(LOWER + DIGITS + '-', 1, 15), { minLength: 1, maxLength: 3 }),
    from(LOWER, 2, 6),
  )
  .map(([local, labels, tld]) => `${local}@${labels.join('.')}.${tld}`)

describe('LIMITS (section 5)', () => {
  it('carries the spec numbers', () => {
    expect(LIMITS).toEqual({
      emailMax: 150,
      passwordMin: 8,
      passwordMax: 256,
      name: 30,
      lastName: 150,
      phone: 30,
      position: 150,
      companyName: 30,
      companyAddress: 999,
      companyVat: 150,
      companyType: 150,
      companySite: 150,
    })
  })
})

describe('password: characters, kinds and length (section 5)', () => {
  it('accepts any allowed string of 8..256 containing an upper, a lower and a digit or special symbol', () => {
    fc.assert(
      fc.property(validPassword, (pw) => {
        expect(pw.length).toBeGreaterThanOrEqual(8)
        expect(pw.length).toBeLessThanOrEqual(256)
        expect(checkPassword(pw)).toBeNull()
        expect(passwordField.safeParse(pw).success).toBe(true)
      }),
    )
  })

  it('accepts the bounds exactly: 8 and 256 characters', () => {
    fc.assert(
      fc.property(passwordOf(KINDS, 8, 8), passwordOf(KINDS, 256, 256), (short, long) => {
        expect(short).toHaveLength(8)
        expect(long).toHaveLength(256)
        expect(checkPassword(short)).toBeNull()
        expect(checkPassword(long)).toBeNull()
      }),
    )
    expect(checkPassword('Abcdef1!')).toBeNull()
    expect(checkPassword('A1' + 'a'.repeat(254))).toBeNull()
  })

  it('every listed special symbol is allowed and counts as the digit-or-special kind', () => {
    for (const s of SPECIAL) {
      expect(checkPassword(`Abcdefg${s}`), s).toBeNull()
      expect(checkPassword(`${s}Abcdefg`), s).toBeNull()
    }
    for (const d of DIGITS) expect(checkPassword(`Abcdefg${d}`), d).toBeNull()
  })

  it('fails with password_not_available_symbol_error for any character outside the allowed set', () => {
    fc.assert(
      fc.property(passwordOf(KINDS, 8, 255), badChar, fc.nat(), (pw, bad, pos) => {
        const at = pos % (pw.length + 1)
        const withBad = pw.slice(0, at) + bad + pw.slice(at)
        expect(checkPassword(withBad)).toBe('password_not_available_symbol_error')
        const r = passwordField.safeParse(withBad)
        expect(r.success).toBe(false)
        // NUL and lone surrogates are refused by the safe-text rule every string schema starts with
        const expected = isSafeText(withBad) ? 'password_not_available_symbol_error' : 'text_invalid_character_error'
        expect(r.error?.issues.map((i) => i.message)).toEqual([expected])
      }),
    )
    for (const pw of [
      'Abcdef1 x',
      'Abcdefé1',
      'ÄBCdefg1',
      'Abcdef1"',
      "Abcdef1'",
      'Abcdef1=',
      'Abcdef1^',
      'Abcdef1&',
      'Abcdef1~',
      'Abcdef1`',
      'Abcdef1|',
      'Abcdef1(',
      'Пароль12Ab',
    ]) {
      expect(checkPassword(pw), pw).toBe('password_not_available_symbol_error')
    }
  })

  it('non-Latin letters do not count as upper or lower case letters', () => {
    expect(checkPassword('ÀBCDEFG1a')).toBe('password_not_available_symbol_error')
    expect(checkPassword('abcdefg1Ω')).toBe('password_not_available_symbol_error')
  })

  for (const missing of KINDS) {
    it(`exactly one kind missing (${missing}) gives ${KIND_KEY[missing]}`, () => {
      const present = KINDS.filter((k) => k !== missing)
      fc.assert(
        fc.property(passwordOf(present, 8, 256), (pw) => {
          expect(checkPassword(pw)).toBe(KIND_KEY[missing])
        }),
      )
    })
  }

  it('two or more kinds missing give password_all_types_error', () => {
    for (const only of KINDS) {
      fc.assert(
        fc.property(passwordOf([only], 8, 256), (pw) => {
          expect(checkPassword(pw), pw).toBe('password_all_types_error')
        }),
      )
    }
    expect(checkPassword('abcdefgh')).toBe('password_all_types_error')
    expect(checkPassword('ABCDEFGH')).toBe('password_all_types_error')
    expect(checkPassword('12345678')).toBe('password_all_types_error')
    expect(checkPassword('!!!!!!!!')).toBe('password_all_types_error')
  })

  it('one oracle for any allowed string of 8..256: the result follows from the kinds present', () => {
    const someKinds = fc.subarray(KINDS, { minLength: 1 })
    fc.assert(
      fc.property(
        someKinds.chain((kinds) => fc.tuple(fc.constant(kinds), passwordOf(kinds, 8, 256))),
        ([kinds, pw]) => {
          const missing = KINDS.filter((k) => !kinds.includes(k))
          const expected = missing.length === 0 ? null : missing.length === 1 ? KIND_KEY[missing[0]!] : 'password_all_types_error'
          expect(checkPassword(pw)).toBe(expected)
        },
      ),
    )
  })

  it('7 characters fail, 257 fail, empty is its own message', () => {
    expect(checkPassword('')).toBe('password_empty_error')
    expect(checkPassword('Abcde1!')).toBe('password_min_length_error')
    expect(checkPassword('A1' + 'a'.repeat(255))).toBe('password_max_length_error')
    fc.assert(
      fc.property(passwordOf(KINDS, 3, 7), (pw) => {
        expect(checkPassword(pw)).toBe('password_min_length_error')
      }),
    )
    fc.assert(
      fc.property(passwordOf(KINDS, 257, 400), (pw) => {
        expect(checkPassword(pw)).toBe('password_max_length_error')
      }),
    )
    fc.assert(
      fc.property(passwordOf(KINDS, 7, 7), passwordOf(KINDS, 257, 257), (seven, over) => {
        expect(checkPassword(seven)).toBe('password_min_length_error')
        expect(checkPassword(over)).toBe('password_max_length_error')
      }),
    )
  })

  it('passwordField reports the key as the zod issue message', () => {
    expect(passwordField.safeParse('abcdefg1').error?.issues[0]?.message).toBe('password_uppercase_error')
    expect(passwordField.safeParse('').error?.issues[0]?.message).toBe('password_empty_error')
    expect(passwordField.safeParse(12345678).success).toBe(false)
  })
})

describe('repeat password (section 5)', () => {
  it('checkRepeat: non-empty and equal', () => {
    expect(checkRepeat('Abcdef1!', '')).toBe('password_empty_error')
    expect(checkRepeat('Abcdef1!', 'Abcdef1?')).toBe('password_match_error')
    expect(checkRepeat('Abcdef1!', 'abcdef1!')).toBe('password_match_error')
    expect(checkRepeat('Abcdef1!', 'Abcdef1!')).toBeNull()
    fc.assert(
      fc.property(validPassword, fc.string({ minLength: 1 }), (pw, other) => {
        fc.pre(pw !== other)
        expect(checkRepeat(pw, pw)).toBeNull()
        expect(checkRepeat(pw, other)).toBe('password_match_error')
      }),
    )
  })

  it('a mismatch in the registration form is password_match_error on repeat_password only', () => {
    fc.assert(
      fc.property(validEmail, validPassword, fc.string({ minLength: 1, maxLength: 300 }), (email, pw, repeat) => {
        fc.pre(repeat !== pw)
        const r = registrationForm.safeParse({ username: email, password: pw, repeat_password: repeat, is_corporate: false })
        expect(r.success).toBe(false)
        expect(r.error?.issues).toEqual([expect.objectContaining({ path: ['repeat_password'], message: 'password_match_error' })])
      }),
    )
  })

  it('an empty repeat in the registration form is password_empty_error on repeat_password', () => {
    const r = registrationForm.safeParse({ username: 'ada@example.com', password: 'Abcdef1!', repeat_password: '', is_corporate: true })
    expect(r.success).toBe(false)
    expect(r.error?.issues).toContainEqual(expect.objectContaining({ path: ['repeat_password'], message: 'password_empty_error' }))
  })

  it('an equal repeat passes', () => {
    fc.assert(
      fc.property(validEmail, validPassword, fc.boolean(), (email, pw, corp) => {
        const r = registrationForm.safeParse({ username: email, password: pw, repeat_password: pw, is_corporate: corp })
        expect(r.success).toBe(true)
      }),
    )
  })
})

describe('password must not contain the e-mail local part (section 5)', () => {
  /** Mixes the case of a string, letter by letter. */
  const recase = (s: string, flips: boolean[]) => [...s].map((c, i) => (flips[i % Math.max(1, flips.length)] ? c.toUpperCase() : c.toLowerCase())).join('')

  it('detects the local part in any letter case and position', () => {
    fc.assert(
      fc.property(
        from(LOWER + UPPER + DIGITS + '._-', 1, 20),
        from(ALLOWED, 0, 10),
        from(ALLOWED, 0, 10),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }),
        (local, before, after, f1, f2) => {
          const email = `${recase(local, f1)}@example.com`
          expect(passwordContainsEmail(before + recase(local, f2) + after, email)).toBe(true)
        },
      ),
    )
    expect(passwordContainsEmail('My-JOHN.doe-1', 'john.doe@example.com')).toBe(true)
    expect(passwordContainsEmail('xxjohnxx', '  JOHN@example.com  ')).toBe(true)
  })

  it('is false when the local part is not there', () => {
    fc.assert(
      fc.property(from(LOWER + UPPER, 1, 20), from(DIGITS + SPECIAL, 0, 40), (local, pw) => {
        expect(passwordContainsEmail(pw, `${local}@example.com`)).toBe(false)
      }),
    )
    expect(passwordContainsEmail('Abcdef1!', 'john@example.com')).toBe(false)
    // only the part before the at-sign counts
    expect(passwordContainsEmail('Example1!', 'john@example.com')).toBe(false)
    expect(passwordContainsEmail('Abcdef1!', '@example.com')).toBe(false)
    expect(passwordContainsEmail('Abcdef1!', '')).toBe(false)
  })
})

describe('e-mail (section 5)', () => {
  it('any ordinary address passes, and passes padded with whitespace (the text is trimmed)', () => {
    fc.assert(
      fc.property(validEmail, from(WHITESPACE, 0, 5), from(WHITESPACE, 0, 5), (email, pre, post) => {
        fc.pre(email.length <= 150)
        expect(checkEmail(email)).toBeNull()
        expect(checkEmail(pre + email + post)).toBeNull()
        expect(emailField.parse(pre + email + post)).toBe(email)
      }),
    )
  })

  it('empty or whitespace only gives email_empty_error', () => {
    fc.assert(
      fc.property(from(WHITESPACE, 0, 20), (ws) => {
        expect(checkEmail(ws)).toBe('email_empty_error')
        expect(emailField.safeParse(ws).error?.issues.map((i) => i.message)).toEqual(['email_empty_error'])
      }),
    )
  })

  it('at most 150 characters after trimming; longer gives email_max_length_error', () => {
    const at150 = `${'a'.repeat(138)}@example.com`
    expect(at150).toHaveLength(150)
    expect(checkEmail(at150)).toBeNull()
    expect(checkEmail(`  ${at150}  `)).toBeNull()
    expect(checkEmail(`a${at150}`)).toBe('email_max_length_error')
    fc.assert(
      fc.property(fc.integer({ min: 151, max: 400 }), from(LOWER, 2, 6), (len, tld) => {
        const domain = `@example.${tld}`
        const email = 'a'.repeat(len - domain.length) + domain
        expect(email).toHaveLength(len)
        expect(checkEmail(email)).toBe('email_max_length_error')
      }),
    )
    // too long is reported even when the text is not an address at all
    expect(checkEmail('x'.repeat(151))).toBe('email_max_length_error')
    expect(emailField.safeParse(`a${at150}`).error?.issues[0]?.message).toBe('email_max_length_error')
  })

  it('a bad format gives email_validation_error', () => {
    const bad = [
      'ada',
      'ada@',
      '@example.com',
      'ada@example',
      'ada@example.c',
      'a da@example.com',
      'ada@exa mple.com',
      'ada@@example.com',
      'ada@b@example.com',
      'ada@example..com',
      'ada@.example.com',
      'ada@example.com.',
      '"ada"@example.com',
      'ada(x)@example.com',
      'a,da@example.com',
      'ada@exa;mple.com',
      'ada@[127.0.0.1]',
      'ada<x>@example.com',
      'ad\\a@example.com',
    ]
    for (const b of bad) expect(checkEmail(b), b).toBe('email_validation_error')
  })

  it('any non-blank text of at most 150 without an at-sign is a format error', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 150 }).filter((s) => !s.includes('@') && s.trim() !== ''),
        (s) => {
          expect(checkEmail(s)).toBe('email_validation_error')
        },
      ),
    )
  })

  it('whitespace inside the address is a format error', () => {
    fc.assert(
      fc.property(validEmail, fc.constantFrom(...WHITESPACE.split('')), fc.nat(), (email, ws, pos) => {
        const at = 1 + (pos % (email.length - 1))
        expect(checkEmail(email.slice(0, at) + ws + email.slice(at))).toBe('email_validation_error')
      }),
    )
  })
})

describe('profile and company maxlengths (section 5)', () => {
  type Field = { safeParse: (v: unknown) => { success: boolean; data?: unknown; error?: { issues: { message: string }[] } } }
  const cases: [string, Field, number][] = [
    ['name', profileFields.name, 30],
    ['last name', profileFields.last_name, 150],
    ['phone', profileFields.phone, 30],
    ['position', profileFields.position, 150],
    ['company name', companySchema.shape.name, 30],
    ['company address', companySchema.shape.address, 999],
    ['company tax id (vat)', companySchema.shape.vat, 150],
    ['company type', companySchema.shape.type, 150],
    ['company site', companySchema.shape.site, 150],
  ]

  for (const [name, schema, max] of cases) {
    // phone also has a character rule, so it is filled with digits
    const chars = name === 'phone' ? DIGITS + ' +-()' : LOWER + UPPER + DIGITS + ' .,-'
    const fill = name === 'phone' ? '1' : 'x'

    it(`${name}: ${max} characters pass, ${max + 1} fail with max_length_error:${max}`, () => {
      expect(schema.safeParse(fill.repeat(max)).success).toBe(true)
      const over = schema.safeParse(fill.repeat(max + 1))
      expect(over.success).toBe(false)
      expect(over.error?.issues.map((i) => i.message)).toEqual([`max_length_error:${max}`])
      expect(messageFor(`max_length_error:${max}`)).toBe(`Must be at most ${max} characters`)
    })

    it(`${name}: any text up to ${max} passes trimmed, any longer fails`, () => {
      fc.assert(
        // (a phone number, when given, has at least 3 characters)
        fc.property(
          from(chars, 0, max).filter((s) => name !== 'phone' || s.trim() === '' || s.trim().length >= 3),
          (s) => {
            const r = schema.safeParse(s)
            expect(r.success).toBe(true)
            expect(r.data).toBe(s.trim())
          },
        ),
      )
      fc.assert(
        fc.property(from(chars, max + 1, max + 60), (s) => {
          const r = schema.safeParse(s)
          expect(r.success).toBe(false)
          expect(r.error?.issues[0]?.message).toBe(`max_length_error:${max}`)
        }),
      )
    })
  }

  it('the company form reports the failing field by its path', () => {
    const ok = { name: 'ACME', address: 'Main st. 1', vat: 'DE123', type: 'LLC', site: 'acme.example', position: 'CTO' }
    expect(companySchema.parse({ ...ok, name: '  ACME  ' }).name).toBe('ACME')
    const r = companySchema.safeParse({ ...ok, site: 's'.repeat(151), address: 'a'.repeat(1000) })
    expect(r.success).toBe(false)
    expect(r.error?.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: ['site'], message: 'max_length_error:150' }),
        expect.objectContaining({ path: ['address'], message: 'max_length_error:999' }),
      ]),
    )
  })

  it('phone accepts empty text and digits with + - ( ) and spaces, and refuses letters', () => {
    expect(profileFields.phone.parse('')).toBe('')
    expect(profileFields.phone.parse(' +1 (555) 010-0000 ')).toBe('+1 (555) 010-0000')
    expect(profileFields.phone.safeParse('call me').error?.issues[0]?.message).toBe('phone_validation_error')
  })
})

describe('messages for the validation keys', () => {
  const source = readFileSync(new URL('./validation.ts', import.meta.url), 'utf8')
  const keysInSource = [...new Set([...source.matchAll(/'([a-z_]+_error)'/g)].map((m) => m[1]!))]

  it('finds the keys in the source', () => {
    expect(keysInSource.length).toBeGreaterThanOrEqual(12)
    expect(keysInSource).toContain('password_all_types_error')
  })

  it('every message key used in validation.ts has a text', () => {
    for (const key of keysInSource) {
      expect(messageFor(key), key).not.toBe(key)
      expect(messageFor(key).length, key).toBeGreaterThan(0)
    }
  })

  it('every max_length_error:N a limit can produce has a text naming N', () => {
    for (const max of Object.values(LIMITS)) expect(messageFor(`max_length_error:${max}`)).toContain(String(max))
  })

  it('the texts the spec quotes', () => {
    expect(messageFor('email_empty_error')).toBe('Please enter your email')
    expect(messageFor('email_validation_error')).toBe('Incorrect email format')
    expect(messageFor('password_match_error')).toBe("Password doesn't match")
    // email_max_length_error names the max
    expect(messageFor('email_max_length_error')).toContain('150')
    expect(VALIDATION_MESSAGES.password_not_available_symbol_error).toContain('. , : ; ? ! * + % - < > @ [ ] { } \\ / _ $ #')
  })

  it('an unknown key falls back to itself', () => {
    expect(messageFor('no_such_key')).toBe('no_such_key')
  })
})

describe('text(): the safe-text building block of every string schema', () => {
  const issues = (
    schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string; code: string; issues?: { message: string }[] }[] } } },
    v: unknown,
  ) => (schema.safeParse(v).error?.issues ?? []).map((i) => (i.code === 'invalid_key' ? i.issues![0]!.message : i.message))

  it('refuses C0 and C1 control characters but tab and line breaks, and unpaired surrogates; accepts the rest', () => {
    const controls = [...Array.from({ length: 32 }, (_, i) => i), 0x7f, ...Array.from({ length: 32 }, (_, i) => 0x80 + i)]
      .filter((c) => ![0x09, 0x0a, 0x0d].includes(c))
      .map((c) => String.fromCharCode(c))
    expect(controls).toHaveLength(62)
    for (const bad of [
      '\u0000',
      'a\u0000b',
      '\ud800',
      'x\udfff',
      '\udc00\ud800',
      'end\ud83d',
      'red \u001b[31mtext',
      'bell\u0007',
      'csi\u009b2J',
      ...controls,
    ]) {
      expect(isSafeText(bad), JSON.stringify(bad)).toBe(false)
      expect(issues(text(), bad)).toContain('text_invalid_character_error')
    }
    for (const good of ['', 'plain', '😀', 'Zoë 中文 \t\r\n', '\ud83d\ude00', '\u00a0non-breaking', 'Line one\r\nLine two'])
      expect(text().safeParse(good).success, JSON.stringify(good)).toBe(true)
    // eslint-disable-next-line no-control-regex -- the rule under test, written out
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => isSafeText(s) === !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(s)))
  })

  it('SAFE_TEXT_RE, the pattern the document states, is isSafeText with and without the u flag', () => {
    const withU = new RegExp(SAFE_TEXT_RE.source, 'u')
    const agrees = (s: string) => SAFE_TEXT_RE.test(s) === isSafeText(s) && withU.test(s) === isSafeText(s)
    for (const s of ['', 'plain', '😀', '\ud800', 'x\udfff', '\udc00\ud800', 'end\ud83d', '\ud83d\ude00\ud83d', 'a\u0000', 'tab\t\r\n', '\u009f', '\u00a0'])
      expect(agrees(s), JSON.stringify(s)).toBe(true)
    fc.assert(fc.property(fc.string({ unit: 'binary' }), agrees))
    // a megabyte of emoji neither overflows the regex stack nor takes long
    expect(SAFE_TEXT_RE.test('😀'.repeat(500_000))).toBe(true)
  })

  it('the password, e-mail and title schemas answer what checkPassword, checkEmail and checkTitle answer', () => {
    const first = (schema: z.ZodType, v: string) => schema.safeParse(v).error?.issues[0]?.message ?? null
    const password = fc.oneof(fc.string({ maxLength: 300 }), fc.stringMatching(/^[A-Za-z0-9#.]{0,270}$/))
    fc.assert(fc.property(password, (pw) => first(passwordField, pw) === (isSafeText(pw) ? checkPassword(pw) : 'text_invalid_character_error')))
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.emailAddress(), fc.string({ unit: 'binary' })),
        (e) => first(emailField, e) === (isSafeText(e) ? checkEmail(e) : 'text_invalid_character_error'),
      ),
    )
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom(' ', 'x'.repeat(257), ` ${'x'.repeat(256)} `)),
        (t) => first(titleField, t) === checkTitle(t),
      ),
    )
  })

  it('holds in the shared schemas: e-mail, password, profile, company, title, record keys and values', () => {
    expect(issues(emailField, 'a\u0000@example.com')[0]).toBe('text_invalid_character_error')
    expect(issues(loosePasswordField, 'pass\ud800')[0]).toBe('text_invalid_character_error')
    expect(issues(companySchema.shape.name, '\u0000')[0]).toBe('text_invalid_character_error')
    expect(issues(titleField, 'T\udc00')[0]).toBe('text_invalid_character_error')
    // ANSI escapes and other controls in what customers write, which staff read in a terminal or a mail
    const ansi = 'Hi \u001b[2J\u001b[31mstaff'
    expect(issues(titleField, ansi)).toEqual(['text_invalid_character_error'])
    expect(issues(feedbackBody.shape.comment, ansi)).toEqual(['text_invalid_character_error'])
    expect(issues(salesMessageBody.shape.name, 'Ada\u0085')).toEqual(['text_invalid_character_error'])
    expect(issues(salesMessageBody.shape.message, `${'a'.repeat(30)}\u009b0m`)).toEqual(['text_invalid_character_error'])
    for (const field of Object.values(profileFields)) expect(issues(field, 'Ada\u0007')).toEqual(['text_invalid_character_error'])
    expect(issues(companySchema.shape.address, 'Main St\u001b]0;x\u0007')).toEqual(['text_invalid_character_error'])
    // a message keeps its lines and tabs
    expect(salesMessageBody.shape.message.safeParse(`Hello,\r\n\tplease call me back about ${'x'.repeat(10)}`).success).toBe(true)
    expect(feedbackBody.shape.comment.safeParse('Good\nand fast').success).toBe(true)
    const staff = {
      title: 'x',
      count: 1,
      client_email: 'a@example.com',
      config: { product: 'face_offline_perpetual', license_expire_delta: null, device_bound: false, max_version: null, license_content: {} },
    }
    expect(issues(staffLicenseBody, { ...staff, config: { ...staff.config, license_content: { 'k\u0000': 1 } } })).toContain('text_invalid_character_error')
    expect(issues(staffLicenseBody, { ...staff, config: { ...staff.config, xml_config: '<a>\u0000</a>' } })).toContain('text_invalid_character_error')
    expect(issues(staffLicenseBody, { ...staff, custom_tags_extra: { '\ud800': 'v' } })).toContain('text_invalid_character_error')
    expect(staffLicenseBody.safeParse(staff).success).toBe(true)
  })
})

describe('boundedInt(): every integer the database stores', () => {
  it('defaults to the range of a PostgreSQL int', () => {
    expect(boundedInt().safeParse(INT32_MAX).success).toBe(true)
    expect(boundedInt().safeParse(INT32_MIN).success).toBe(true)
    for (const v of [INT32_MAX + 1, INT32_MIN - 1]) expect(boundedInt().safeParse(v).error?.issues[0]?.message).toBe('number_range_error')
    for (const v of [2 ** 53 + 1, 1e308, -1e308]) expect(['integer_error', 'number_range_error']).toContain(boundedInt().safeParse(v).error?.issues[0]?.message)
    for (const v of [1.5, Number.NaN, '1']) expect(boundedInt().safeParse(v).success).toBe(false)
  })

  it('bounds license_expire_delta, counts, group sizes and content values', () => {
    const staff = {
      title: 'x',
      count: 1,
      client_email: 'a@example.com',
      config: { product: 'face_offline_perpetual', license_expire_delta: 2 ** 31, device_bound: false, max_version: null, license_content: {} },
    }
    expect(staffLicenseBody.safeParse(staff).error?.issues[0]).toMatchObject({ path: ['config', 'license_expire_delta'], message: 'number_range_error' })
    expect(staffLicenseBody.safeParse({ ...staff, config: { ...staff.config, license_expire_delta: null, license_content: { a: 2 ** 31 } } }).success).toBe(
      false,
    )
    expect(splitBody.safeParse({ title: 'k', limit: 2 ** 31 }).success).toBe(false)
    expect(resizeBody.safeParse({ limit: -(2 ** 31) - 1 }).success).toBe(false)
    expect(trialBody.safeParse({ count: 2 ** 53 + 1, config: { product: 'nuitrack_trial' } }).success).toBe(false)
    expect(idNumber().safeParse(2 ** 53 + 1).success).toBe(false)
    expect(idNumber().safeParse('12').data).toBe(12)
  })

  it('every range and character key has English text', () => {
    for (const key of ['text_invalid_character_error', 'integer_error', 'number_range_error']) expect(messageFor(key)).not.toBe(key)
  })
})
