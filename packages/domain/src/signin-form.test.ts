import { describe, expect, expectTypeOf, it } from 'vitest'
import fc from 'fast-check'
import type { z } from 'zod'
import { signinBody } from './auth.ts'
import { signinForm, type SafeParseResult, type SigninData } from './signin-form.ts'

/** What a form reads of an answer: the parsed value, or each issue's path and message in order. */
const answer = (r: { success: true; data: unknown } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? { data: r.data } : { issues: r.error.issues.map((i) => ({ path: i.path, message: i.message })) }

const expectSame = (input: unknown) => {
  const zod = answer(signinBody.safeParse(input))
  // toStrictEqual: a key present as undefined differs from a key left out
  expect(answer(signinForm.safeParse(input)), JSON.stringify(input)).toStrictEqual(zod)
  return zod
}

const GOOD = 'Abcdef1!'
const NUL = '\u0000'
const LONE_SURROGATE = '\ud800'

describe('signinForm answers as signinBody does (the sign-in screen checks without Zod)', () => {
  it('has the zod schema’s output type', () => {
    expectTypeOf<SigninData>().toEqualTypeOf<z.output<typeof signinBody>>()
    expectTypeOf(signinForm.safeParse).returns.toEqualTypeOf<SafeParseResult<z.output<typeof signinBody>>>()
  })

  // [what, input, the answer both give]
  const table: [string, unknown, object][] = [
    ['valid', { username: 'ada@example.com', password: GOOD }, { data: { username: 'ada@example.com', password: GOOD } }],
    ['a weak password is fine at sign-in', { username: 'ada@example.com', password: 'x' }, { data: { username: 'ada@example.com', password: 'x' } }],
    ['the e-mail trimmed', { username: ' \tada@example.com \n', password: GOOD }, { data: { username: 'ada@example.com', password: GOOD } }],
    ['the password kept as typed', { username: 'ada@example.com', password: ' pw ' }, { data: { username: 'ada@example.com', password: ' pw ' } }],
    ['unknown keys dropped', { username: 'ada@example.com', password: GOOD, extra: 1 }, { data: { username: 'ada@example.com', password: GOOD } }],
    [
      'the analytics flag kept',
      { username: 'ada@example.com', password: GOOD, nuitrack_analytics_login: false },
      { data: { username: 'ada@example.com', password: GOOD, nuitrack_analytics_login: false } },
    ],
    [
      'the analytics flag present but undefined',
      { username: 'ada@example.com', password: GOOD, nuitrack_analytics_login: undefined },
      { data: { username: 'ada@example.com', password: GOOD, nuitrack_analytics_login: undefined } },
    ],
    [
      'both empty',
      { username: '', password: '' },
      {
        issues: [
          { path: ['username'], message: 'email_empty_error' },
          { path: ['password'], message: 'password_empty_error' },
        ],
      },
    ],
    ['whitespace only e-mail', { username: '   ', password: GOOD }, { issues: [{ path: ['username'], message: 'email_empty_error' }] }],
    ['no at-sign', { username: 'ada', password: GOOD }, { issues: [{ path: ['username'], message: 'email_validation_error' }] }],
    ['a space inside', { username: 'ada lovelace@example.com', password: GOOD }, { issues: [{ path: ['username'], message: 'email_validation_error' }] }],
    ['a double dot', { username: 'ada@example..com', password: GOOD }, { issues: [{ path: ['username'], message: 'email_validation_error' }] }],
    ['e-mail of 150', { username: `${'a'.repeat(138)}@example.com`, password: GOOD }, { data: { username: `${'a'.repeat(138)}@example.com`, password: GOOD } }],
    ['e-mail of 151', { username: `${'a'.repeat(139)}@example.com`, password: GOOD }, { issues: [{ path: ['username'], message: 'email_max_length_error' }] }],
    [
      'e-mail of 150 once trimmed',
      { username: `  ${'a'.repeat(138)}@example.com  `, password: GOOD },
      { data: { username: `${'a'.repeat(138)}@example.com`, password: GOOD } },
    ],
    ['password of 256', { username: 'ada@example.com', password: 'a'.repeat(256) }, { data: { username: 'ada@example.com', password: 'a'.repeat(256) } }],
    ['password of 257', { username: 'ada@example.com', password: 'a'.repeat(257) }, { issues: [{ path: ['password'], message: 'password_max_length_error' }] }],
    [
      'NUL in both',
      { username: `ada${NUL}@example.com`, password: `${NUL}${'a'.repeat(300)}` },
      {
        issues: [
          { path: ['username'], message: 'text_invalid_character_error' },
          { path: ['password'], message: 'text_invalid_character_error' },
        ],
      },
    ],
    ['a lone surrogate', { username: `ada${LONE_SURROGATE}`, password: GOOD }, { issues: [{ path: ['username'], message: 'text_invalid_character_error' }] }],
    ['an emoji (a surrogate pair) is text', { username: 'ada@example.com', password: '😀' }, { data: { username: 'ada@example.com', password: '😀' } }],
    [
      'fields missing',
      {},
      {
        issues: [
          { path: ['username'], message: 'Invalid input: expected string, received undefined' },
          { path: ['password'], message: 'Invalid input: expected string, received undefined' },
        ],
      },
    ],
    [
      'fields of other types',
      { username: null, password: 5, nuitrack_analytics_login: 'yes' },
      {
        issues: [
          { path: ['username'], message: 'Invalid input: expected string, received null' },
          { path: ['password'], message: 'Invalid input: expected string, received number' },
          { path: ['nuitrack_analytics_login'], message: 'Invalid input: expected boolean, received string' },
        ],
      },
    ],
    [
      'an object and a boolean for strings',
      { username: {}, password: true },
      {
        issues: [
          { path: ['username'], message: 'Invalid input: expected string, received object' },
          { path: ['password'], message: 'Invalid input: expected string, received boolean' },
        ],
      },
    ],
    ['not an object', 'ada', { issues: [{ path: [], message: 'Invalid input: expected object, received string' }] }],
    ['null', null, { issues: [{ path: [], message: 'Invalid input: expected object, received null' }] }],
    ['an array', [], { issues: [{ path: [], message: 'Invalid input: expected object, received array' }] }],
  ]
  it.each(table)('%s', (_what, input, expected) => {
    expect(expectSame(input)).toStrictEqual(expected)
  })

  /** Strings as a form holds them: any code unit (NUL and lone surrogates too), spaces, at-signs, e-mail-like, long. */
  const formString = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: fc.constantFrom('a', 'Z', '1', '@', '.', ' ', '\t', '-', '"', NUL, LONE_SURROGATE), maxLength: 20 }),
    fc.emailAddress().map((e) => ` ${e} `),
    fc.tuple(fc.string({ maxLength: 3 }), fc.integer({ min: 140, max: 160 })).map(([s, n]) => `${'a'.repeat(n - 12)}@example.com${s}`),
    fc.integer({ min: 250, max: 262 }).map((n) => 'p'.repeat(n)),
  )

  it('agrees on any strings a form holds, with or without the analytics flag', () => {
    fc.assert(
      fc.property(formString, formString, fc.option(fc.boolean(), { nil: undefined }), (username, password, flag) => {
        expectSame(flag === undefined ? { username, password } : { username, password, nuitrack_analytics_login: flag })
      }),
      { numRuns: 2000 },
    )
  })

  it('differs only where Zod reads an array’s length as a string’s: both refuse an empty array with the same first issue', () => {
    const input = { username: 'ada@example.com', password: [] }
    const zod = answer(signinBody.safeParse(input))
    const plain = answer(signinForm.safeParse(input))
    expect(zod.issues).toEqual([
      { path: ['password'], message: 'Invalid input: expected string, received array' },
      { path: ['password'], message: 'password_empty_error' },
    ])
    expect(plain.issues).toEqual(zod.issues?.slice(0, 1))
  })
})
