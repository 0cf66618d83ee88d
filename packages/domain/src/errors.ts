/**
 * The one catalogue of error codes. Every error the API answers is `{error_code, error}` with a code
 * from here; the web app uses the same code as its translation key.
 * Codes named by the spec keep their value; the others are new 8-hex codes.
 */
export const ERRORS = {
  // spec codes
  wrong_password: { code: '3fc79796', status: 400, message: 'Password is incorrect' },
  client_not_found_by_email: { code: 'e1a53088', status: 400, message: "A user with this e-mail doesn't exist" },
  email_not_confirmed: { code: 'e6f34eac', status: 403, message: "Account isn't confirmed. Please confirm your e-mail" },
  new_password_same_as_old: { code: '0c21cb17', status: 400, message: 'New password must differ from the previous one' },
  password_contains_email: { code: '59991e53', status: 400, message: 'Password must not contain the part of the e-mail before the @ sign' },
  password_invalid: { code: '4f37c7da', status: 400, message: 'Password does not meet the requirements' },
  email_in_use: { code: '6352926b', status: 400, message: 'This e-mail is already in use' },
  email_invalid: { code: 'e4a5b8f4', status: 400, message: 'Incorrect email format' },
  not_found: { code: '63f560db', status: 404, message: 'License not found' },
  bad_title: { code: 'd097efb8', status: 400, message: 'Invalid title' },
  license_status: { code: '23504d45', status: 400, message: 'The subscription has been cancelled and cannot be renewed' },
  action_unavailable: { code: '9febaea3', status: 400, message: 'This action is not available for this license' },
  // new codes
  unauthorized: { code: '1920e203', status: 401, message: 'Unauthorized user AnonymousUser' },
  csrf_failed: { code: '2ac46899', status: 403, message: 'CSRF verification failed. Reload the page and try again' },
  rate_limited: { code: '8221e1b0', status: 429, message: 'Too many requests. Please wait a few minutes and try again' },
  validation_failed: { code: '6a38afc1', status: 400, message: 'Some fields are not filled in correctly' },
  token_invalid_path: { code: '636e6338', status: 400, message: 'Invalid path' },
  token_invalid: { code: '4bdf9f69', status: 403, message: 'The link is invalid or outdated' },
  client_not_found: { code: '96b731f4', status: 404, message: 'Client not found' },
  already_confirmed: { code: 'f47d90f9', status: 400, message: 'This account is already confirmed' },
  forbidden_staff: { code: '737709af', status: 403, message: 'Staff rights are required for this action' },
  route_not_found: { code: 'd7b928d5', status: 404, message: 'Not found' },
  method_not_allowed: { code: 'e3a1c05d', status: 405, message: 'This method is not allowed here' },
  invalid_credentials: { code: 'ba8aedaf', status: 400, message: 'Invalid email or password' },
  unactivated_limit: { code: '50484dd7', status: 400, message: 'Limit of 10 unactivated licenses reached. Activate some of your licenses first' },
  not_enough_licenses: { code: '1b5b8c37', status: 409, message: 'You are trying to use more licenses than available. Refresh the page and try again' },
  license_on_hold: { code: '55ddb7f6', status: 409, message: 'The license is on hold while it is being upgraded. Try again in 15 minutes' },
  group_limit: { code: 'e9cff808', status: 400, message: 'There are not enough licenses available to add' },
  source_group_limit_reached: { code: 'fe501c38', status: 400, message: 'The source group has no more licenses to add' },
  group_size: { code: '3073f8c2', status: 400, message: 'A group must contain 2 or more licenses' },
  trial_taken: { code: '153b99a1', status: 409, message: 'You already have a trial of this product' },
  not_free: { code: 'ae5daa91', status: 400, message: 'Only free trials can be created here. To buy a license, use the basket' },
  invalid_license_file: {
    code: '71e4fc02',
    status: 400,
    message: 'This is not a valid activation request file. Make a request file on the device and choose that file',
  },
  too_many_devices: { code: '2ea83a29', status: 409, message: 'All devices this license allows are in use. Release one first' },
  release_limit: { code: '59ff98bd', status: 429, message: 'A license allows 3 device releases in any 30 days' },
  license_not_usable: { code: '1aa189d5', status: 403, message: 'This license cannot be activated now' },
  offline_license: { code: '16c9fab7', status: 403, message: 'This license works offline: activate it on the portal with a request file or its USB token' },
  lock_mismatch: { code: 'ee8d27cb', status: 403, message: "The activation does not satisfy the license's lock" },
  empty_activation: { code: 'internal_server_error', status: 400, message: 'empty data or usb token' },
  captcha_invalid: { code: '1fb53c53', status: 400, message: 'reCaptcha validation failed. Please try again' },
  captcha_missing: { code: '824d29c0', status: 400, message: 'The captcha has expired or is missing. Please solve it again' },
  captcha_unavailable: { code: 'c7d1e4a2', status: 503, message: 'reCaptcha is unavailable right now. Please try again in a minute' },
  // money
  external_payments_unavailable: { code: 'external_payments_unavailable', status: 503, message: 'The payment system is unavailable. Please try again later' },
  refill_amount: { code: '4eabdd78', status: 400, message: 'The amount must be a whole number of US dollars from 20 to 999999' },
  return_url_invalid: { code: 'f238cc24', status: 400, message: 'The return address must be a page of this portal' },
  payment_closed: { code: '68a50aa1', status: 409, message: 'This checkout is already paid, cancelled or expired' },
  webhook_signature: { code: 'cddb3120', status: 400, message: 'The webhook signature does not match' },
  item_not_for_sale: { code: '5897dc79', status: 400, message: 'This item is not for sale. Refresh the page and choose again' },
  promo_not_with_balance: { code: '754e7202', status: 400, message: 'A promo code applies to card and PayPal payments only' },
  insufficient_funds: { code: '851abab0', status: 409, message: 'Insufficient funds on the balance' },
  // promo codes (spec section 8 names these four codes) and contact sales
  promo_not_found: { code: 'c2bcf3bf', status: 400, message: "This promo code doesn't exist" },
  promo_expired: { code: '860468cb', status: 400, message: 'This promo code has expired' },
  promo_wrong_platform: { code: '75d895af', status: 400, message: "This promo code can't be applied to this platform" },
  promo_used_up: { code: 'c8f7c88b', status: 400, message: 'This promo code has reached its maximum activation count' },
  sales_recipient_unknown: { code: '9ee0dd80', status: 400, message: 'The contact-sales recipient is unknown' },
  sso_client_unknown: { code: '5b2e9c71', status: 400, message: 'This sign-on request does not come from a helpdesk we know' },
  // subscriptions and upgrades
  subscription_cancelled: {
    code: '1cc98afd',
    status: 400,
    message: "Sorry, something went wrong. It seems like the subscription has been canceled and can't be renewed.",
  },
  wallet_renewal_unavailable: {
    code: '5015fa05',
    status: 400,
    message: 'Renewing a PayPal subscription from the portal is not implemented yet. Please contact support to renew it',
  },
  upgrade_by_support: { code: 'e6c5af96', status: 400, message: 'This upgrade is done by our support team. Please contact support' },
  face_machine_unavailable: { code: '9f22691f', status: 503, message: 'The Face Machine service is unavailable. Please try again later' },
  // the activity history
  history_export_corporate: { code: '3d66c9e9', status: 403, message: 'Exporting the history is available to corporate accounts only' },
  // customer API tokens (Authorization: Bearer) and webhooks
  api_token_unknown: { code: '61991cdb', status: 401, message: 'This API token is not valid. Check that it was copied whole' },
  api_token_revoked: { code: '5b406fb4', status: 401, message: 'This API token has been revoked' },
  api_token_expired: { code: '8d5c1652', status: 401, message: 'This API token has expired' },
  api_token_read_only: { code: '86776ace', status: 403, message: 'This API token may only read. Make a token with the manage scope for this call' },
  api_token_not_accepted: { code: 'e5aa34a2', status: 403, message: 'This call does not take an API token. Sign in to the portal to make it' },
  webhook_endpoints_max: { code: '4f69090b', status: 400, message: 'An account can have at most 10 webhook endpoints' },
  // organisations and their members
  forbidden_role: { code: 'b7e2c94a', status: 403, message: 'Your role in this organisation does not allow this action' },
  invitation_invalid: { code: '5c1f0e83', status: 404, message: 'This invitation is invalid, already used or expired. Ask for a new one' },
  invitation_other_email: { code: 'e08a6d17', status: 403, message: 'This invitation was sent to another e-mail. Sign in with that e-mail to accept it' },
  already_member: { code: '9a4d3b62', status: 409, message: 'This person is already a member of the organisation' },
  last_owner: { code: 'd41f7a25', status: 409, message: 'An organisation needs at least one owner. Make someone else an owner first' },
  founder_stays: { code: '2e6b81c9', status: 409, message: "The organisation's own sign-in stays its member and cannot be removed" },
  org_has_members: { code: '7f3c55d0', status: 409, message: 'Remove the other members before switching to a personal account' },
  not_corporate: { code: '4a90be17', status: 409, message: 'Only a corporate account can have members. Switch to a corporate account first' },
  database_unavailable: { code: 'd3fc7de6', status: 503, message: 'The service is briefly unavailable. Please try again in a minute' },
  internal_server_error: { code: 'internal_server_error', status: 500, message: 'Something went wrong, please try again later.' },
} as const

export type ErrorName = keyof typeof ERRORS
export type ErrorCode = (typeof ERRORS)[ErrorName]['code']

export interface ApiError {
  error_code: string
  error: string
  /** the body field the error belongs to, when there is one, by its whole path (`company.name`) */
  field?: string
}

/** The catalogue entry of a code; for a code shared by two entries (internal_server_error), the generic one. */
export const errorByCode = (code: string) => Object.values(ERRORS).findLast((e) => e.code === code)

export function apiError(name: ErrorName, error?: string, field?: string): ApiError {
  const e = ERRORS[name]
  return { error_code: e.code, error: error ?? e.message, ...(field ? { field } : {}) }
}

/**
 * Whether a failure is one of the named catalogue errors. Callers name errors, never their codes;
 * anything carrying the code as `code` (the web's ApiError) or `error_code` (an API body) works.
 */
export function isError(err: unknown, ...names: ErrorName[]): boolean {
  if (typeof err !== 'object' || err === null) return false
  const e = err as { code?: unknown; error_code?: unknown }
  const code = typeof e.code === 'string' ? e.code : e.error_code
  return typeof code === 'string' && names.some((n) => ERRORS[n].code === code)
}
