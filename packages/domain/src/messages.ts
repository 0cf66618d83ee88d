import { ERRORS, errorByCode } from './errors.ts'
import { LIMITS } from './validation.ts'

/**
 * English texts for every message key: validation keys of section 5, the generic texts of
 * section 8, and every error code (codes are translation keys too).
 */
export const VALIDATION_MESSAGES: Record<string, string> = {
  email_empty_error: 'Please enter your email',
  email_validation_error: 'Incorrect email format',
  email_max_length_error: `Email must be at most ${LIMITS.emailMax} characters`,
  password_empty_error: 'Please enter your password',
  password_min_length_error: `Password must be at least ${LIMITS.passwordMin} characters`,
  password_max_length_error: `Password must be at most ${LIMITS.passwordMax} characters`,
  password_not_available_symbol_error:
    'Password may contain only Latin letters, digits and . , : ; ? ! * + % - < > @ [ ] { } \\ / _ $ #',
  password_uppercase_error: 'Password must contain an uppercase letter',
  password_lowercase_error: 'Password must contain a lowercase letter',
  password_digit_or_symbol_error: 'Password must contain a digit or a special symbol',
  password_all_types_error:
    'Password must contain an uppercase letter, a lowercase letter and a digit or a special symbol',
  password_match_error: "Password doesn't match",
  password_same_as_old_error: 'New password must differ from the previous one',
  password_contains_email_error: 'Password must not contain the part of your e-mail before the @ sign',
  phone_validation_error: 'Phone may contain only digits, spaces, +, -, ( and )',
  field_empty_error: 'This field is required',
  name_empty_error: 'Please enter your name',
  token_invalid: 'The link is invalid or outdated',
  captcha_required_error: 'Please solve the captcha',
  fill_info_empty_error: 'Fill in at least one field, or skip this step',
  text_invalid_character_error: 'Contains a character that is not allowed (NUL or an incomplete Unicode character)',
  integer_error: 'Must be a whole number',
  number_range_error: 'The number is out of the allowed range',
  count_min_error: 'Enter at least 1',
  count_max_error: 'At most 1000 licenses at a time',
  version_format_error: 'A version is digits separated by dots, like 3.24.1',
  platforms_error: 'Choose at least one platform',
  lock_options_error: 'These locking criteria cannot be combined',
  validity_required_error: 'A subscription needs a validity period',
}

export const GENERIC_MESSAGES = {
  unauthorized: 'Looks like you are not authorized. Please, try to login again.',
  missing_code: 'Something went wrong, please try again later.',
  error_title: 'An error occurred during the operation',
  network_error: 'Some network error has occurred. Please check your Internet connection.',
  internal_server_error: 'Something went wrong, please try again later.',
  login_failed: 'Invalid email or password',
} as const

export const UNAUTHORIZED_TEXT = 'Unauthorized user AnonymousUser'

/** `max_length_error:30` style keys carry their limit. */
export function messageFor(key: string): string {
  const m = /^max_length_error:(\d+)$/.exec(key)
  if (m) return `Must be at most ${m[1]} characters`
  if (key in VALIDATION_MESSAGES) return VALIDATION_MESSAGES[key]!
  return errorByCode(key)?.message ?? key
}

export function allMessages(): Record<string, string> {
  const out: Record<string, string> = { ...VALIDATION_MESSAGES, ...GENERIC_MESSAGES }
  for (const e of Object.values(ERRORS)) out[e.code] = e.message
  return out
}
