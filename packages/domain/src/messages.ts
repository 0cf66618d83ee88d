import { ERRORS, errorByCode } from './errors.ts'
import { LIMITS } from './validation.ts'
import { LICENSE_TITLE_MAX, PROMO_CODE_MAX } from './text-limits.ts'
import { SALES_LIMITS } from './support.ts'
import { USB_SERIAL_MAX } from './license-file.ts'
import { TOKEN_NAME_MAX } from './tokens.ts'

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
  password_not_available_symbol_error: 'Password may contain only Latin letters, digits and . , : ; ? ! * + % - < > @ [ ] { } \\ / _ $ #',
  password_uppercase_error: 'Password must contain an uppercase letter',
  password_lowercase_error: 'Password must contain a lowercase letter',
  password_digit_or_symbol_error: 'Password must contain a digit or a special symbol',
  password_all_types_error: 'Password must contain an uppercase letter, a lowercase letter and a digit or a special symbol',
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
  product_filter_error: 'Not a product filter of this platform',
  list_group_with_page_error: "A group's licenses are listed whole, not in pages",
  // money (money.ts)
  refill_amount_error: 'The amount must be a whole number of US dollars from 20 to 999999',
  refill_whole_dollars_error: 'Whole dollars only: enter the amount without cents',
  return_url_error: 'The return address must be a page of this portal',
  // the feedback widget (feedback.ts)
  feedback_emotion_required: 'Please choose how you feel about the portal',
  feedback_comment_max_length_error: 'A comment may be at most 500 characters',
  // promo codes (promo.ts)
  promo_empty_error: 'Please enter a promo code',
  promo_format_error: `A promo code is up to ${PROMO_CODE_MAX} letters, digits, - or _`,
  product_unknown_error: 'Choose a product of the catalogue',
  // the contact-sales form (support.ts)
  sales_recipient_error: 'Choose who the message is for',
  details_empty_error: 'Please describe your request',
  details_low_length_error: `Please write at least ${SALES_LIMITS.detailsMin} characters`,
  details_alot_length_error: `The details must be at most ${SALES_LIMITS.detailsMax} characters`,
  database_size_error: 'Choose one of the offered database sizes',
  // titles and group keys (licenses.ts rules)
  license_title_max_length_error: `The title must be at most ${LICENSE_TITLE_MAX} characters`,
  group_size_is_zero: 'Please enter the group size',
  group_min_size_error: 'A group must contain 2 or more licenses',
  license_in_group_limit_error: 'There are not that many licenses available to add',
  group_size_number_error: 'The group size must be a whole number',
  group_keep_one_error: 'The group must keep at least 1 available license',
  trial_one_license_error: 'A trial is one license',
  // the staff license form
  count_min_error: 'Make at least 1 license',
  count_max_error: 'Make at most 1000 licenses at a time',
  platforms_error: 'Choose platforms from the list',
  version_format_error: 'A version is up to four numbers separated by dots, such as 3.1.2',
  lock_options_error: 'A license can have one lock: hardware, an iOS app, an Android app or a USB token; platforms go with none of them',
  validity_required_error: 'A subscription needs a validity period',
  // the USB-token activation
  usb_serial_empty_error: 'Enter the serial of the USB token',
  usb_serial_max_length_error: `The serial is at most ${USB_SERIAL_MAX} characters`,
  // API tokens and webhooks
  token_name_max_length_error: `A token name is at most ${TOKEN_NAME_MAX} characters`,
  webhook_url_error: 'Enter a web address starting with https:// (or http://), at most 2000 characters',
  webhook_events_error: 'Choose at least one event',
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
