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
 * UTF-16 surrogates without their partner: a lone surrogate is not text at all (it cannot be encoded
 * as UTF-8). With the `u` flag a paired surrogate is one code point outside \p{Cs}, so only the
 * unpaired halves match.
 */
const LONE_SURROGATE_RE = /\p{Cs}/u
/**
 * The C0 and C1 control characters and DEL, but for the tab and the line breaks a message may hold.
 * PostgreSQL refuses NUL in text and jsonb; the others (ANSI escapes above all) would reach a staff
 * terminal, a mail subject or a log line as commands instead of text.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const CONTROL_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/
/** Text the API accepts: no control character but tab and line breaks, no lone surrogate. */
export const isSafeText = (value: string) => !CONTROL_RE.test(value) && !LONE_SURROGATE_RE.test(value)

/**
 * isSafeText as one pattern, for the schemas (and so the OpenAPI document): no control character
 * but tab and line breaks, no high surrogate without a low one after it, no low surrogate without a
 * high one before it. A lookahead over the text rather than a repeated alternation, which overflows
 * the regex stack on a megabyte of emoji; it reads the same with and without the `u` flag (a JSON
 * Schema validator such as Ajv compiles patterns with it).
 */
export const SAFE_TEXT_RE =
  // eslint-disable-next-line no-control-regex -- the control characters are what it refuses
  /^(?![\s\S]*?(?:[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]))/

/** The characters a password may hold, and its three kinds (checkPassword's rules as patterns). */
export const PASSWORD_ALLOWED_PATTERN = PASSWORD_ALLOWED_RE
export const PASSWORD_KINDS_RE = new RegExp(`^(?=[\\s\\S]*[A-Z])(?=[\\s\\S]*[a-z])(?=[\\s\\S]*${DIGIT_OR_SPECIAL_RE.source})`)
/** checkEmail's address pattern, for the schemas */
export const EMAIL_PATTERN = EMAIL_RE

/** Column ranges: `int` columns and `::int` casts hold 32 bits; ids are `bigint`, within JS's safe integers. */
export const INT32_MAX = 2_147_483_647
export const INT32_MIN = -2_147_483_648
