/**
 * Section 5 of the spec: field rules shared by the forms and the API. A rule failure carries a
 * message key (e.g. `email_empty_error`); the web app translates it, the API maps it to an error code.
 */
export const LIMITS = {
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
} as const

// RFC 5322-lite, the usual "something@something.tld" without spaces; the domain is dot-separated
// non-empty labels (no "a@b..co", "a@.b.co" or "a@b.co.")
const EMAIL_RE = /^[^\s@"(),:;<>[\]\\]+@(?:[^\s@"(),:;<>[\]\\.]+\.)+[^\s@"(),:;<>[\]\\.]{2,}$/
const PASSWORD_ALLOWED_RE = /^[A-Za-z0-9.,:;?!*+%\-<>@[\]{}\\/_$#]*$/
const DIGIT_OR_SPECIAL_RE = /[0-9.,:;?!*+%\-<>@[\]{}\\/_$#]/

export type EmailError = 'email_empty_error' | 'email_validation_error' | 'email_max_length_error'

export function checkEmail(raw: string): EmailError | null {
  const value = raw.trim()
  if (value === '') return 'email_empty_error'
  if (value.length > LIMITS.emailMax) return 'email_max_length_error'
  if (!EMAIL_RE.test(value)) return 'email_validation_error'
  return null
}

export type PasswordError =
  | 'password_empty_error'
  | 'password_min_length_error'
  | 'password_max_length_error'
  | 'password_not_available_symbol_error'
  | 'password_uppercase_error'
  | 'password_lowercase_error'
  | 'password_digit_or_symbol_error'
  | 'password_all_types_error'

/** The strength rule: allowed symbols, length, and the three kinds of character. */
export function checkPassword(value: string): PasswordError | null {
  if (value === '') return 'password_empty_error'
  if (!PASSWORD_ALLOWED_RE.test(value)) return 'password_not_available_symbol_error'
  if (value.length < LIMITS.passwordMin) return 'password_min_length_error'
  if (value.length > LIMITS.passwordMax) return 'password_max_length_error'
  const missing: PasswordError[] = []
  if (!/[A-Z]/.test(value)) missing.push('password_uppercase_error')
  if (!/[a-z]/.test(value)) missing.push('password_lowercase_error')
  if (!DIGIT_OR_SPECIAL_RE.test(value)) missing.push('password_digit_or_symbol_error')
  if (missing.length === 1) return missing[0]!
  if (missing.length > 1) return 'password_all_types_error'
  return null
}

/** A new password must not contain the part of the e-mail before the at-sign (case-insensitive). */
export function passwordContainsEmail(password: string, email: string): boolean {
  const local = email.trim().split('@')[0]?.toLowerCase() ?? ''
  return local.length > 0 && password.toLowerCase().includes(local)
}

export function checkRepeat(password: string, repeat: string): 'password_match_error' | 'password_empty_error' | null {
  if (repeat === '') return 'password_empty_error'
  return password === repeat ? null : 'password_match_error'
}

/**
 * U+0000 and UTF-16 surrogates without their partner. PostgreSQL refuses NUL in text and jsonb, and
 * a lone surrogate is not text at all (it cannot be encoded as UTF-8). With the `u` flag a paired
 * surrogate is one code point outside \p{Cs}, so only the unpaired halves match.
 */
const LONE_SURROGATE_RE = /\p{Cs}/u
export const isSafeText = (value: string) => !value.includes('\u0000') && !LONE_SURROGATE_RE.test(value)

/** Column ranges: `int` columns and `::int` casts hold 32 bits; ids are `bigint`, within JS's safe integers. */
export const INT32_MAX = 2_147_483_647
export const INT32_MIN = -2_147_483_648
