/**
 * The session's names and lifetimes, shared by server and browser (apart from auth.ts's schemas, so
 * the browser's first load reads them without Zod).
 */
export const TOKEN_TTL_SECONDS = {
  confirm: 3 * 24 * 3600,
  reset: 24 * 3600,
  email_change: 24 * 3600,
  /** the old address's link that undoes a confirmed e-mail change */
  email_revert: 7 * 24 * 3600,
} as const
export type TokenPurpose = keyof typeof TOKEN_TTL_SECONDS

export const SESSION_TTL_SECONDS = 14 * 24 * 3600

/** Cookie names shared by server and browser. */
export const COOKIES = {
  session: 'sessionid',
  csrf: 'csrftoken',
  userStatus: 'user_status',
} as const
export const CSRF_HEADER = 'x-csrftoken'
