import { z } from './zod.ts'
import { text, trimmedAtLeast } from './fields.ts'

/**
 * Customer API tokens (`Authorization: Bearer lp_…`). A token belongs to the account; its scope says
 * what it may do on the calls whose contract is marked `bearer`: `read` calls GET only, `manage`
 * calls every bearer call. The browser and the server read the same facts from here.
 */
export const TOKEN_SCOPES = ['read', 'manage'] as const
export type TokenScope = (typeof TOKEN_SCOPES)[number]

/** the lifetimes offered at creation, in days; null: it never expires */
export const TOKEN_EXPIRY_DAYS = [30, 90, 365, null] as const
export type TokenExpiryDays = (typeof TOKEN_EXPIRY_DAYS)[number]

/** the recognisable start of every token, so a secret scanner (and a person) can tell one when leaked */
export const TOKEN_PREFIX = 'lp_'
/** how many characters of a token the list shows, prefix included */
export const TOKEN_HINT_LENGTH = 8
export const TOKEN_NAME_MAX = 100
/** the token's last use is written at most this often (a bearer call reads, rarely writes) */
export const TOKEN_LAST_USED_EVERY_SECONDS = 60

/**
 * Whether a token of `scope` may make a call of `method` on a bearer route. The one place the
 * scope is checked; a role of its creator may narrow it later, here.
 */
export function tokenMay(scope: TokenScope, method: string): boolean {
  const read = method === 'GET' || method === 'HEAD'
  return scope === 'manage' || read
}

/** whether an Authorization header value looks like one of our tokens (the shape only) */
export const isTokenShape = (token: string) => token.startsWith(TOKEN_PREFIX) && /^[A-Za-z0-9_-]{20,100}$/.test(token)

export const tokenCreateBody = z.object({
  name: text()
    .regex(trimmedAtLeast(1), { message: 'field_empty_error', abort: true })
    .trim()
    .min(1, 'field_empty_error')
    .max(TOKEN_NAME_MAX, 'token_name_max_length_error'),
  scope: z.enum(TOKEN_SCOPES),
  /** days until it expires; null: never */
  expires_in_days: z.union([z.literal(30), z.literal(90), z.literal(365), z.null()]),
})
export type TokenCreateBody = z.input<typeof tokenCreateBody>

export const tokenViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  scope: z.enum(TOKEN_SCOPES),
  /** the token's first characters (lp_…), to tell tokens apart */
  hint: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  /** to the minute: written at most once a minute */
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  /** active, expired or revoked, at the time of the answer */
  state: z.enum(['active', 'expired', 'revoked']),
})
export type TokenView = z.output<typeof tokenViewSchema>

/** a token's state from its stored times */
export function tokenState(t: { expires_at: Date | string | null; revoked_at: Date | string | null }, now: Date): TokenView['state'] {
  if (t.revoked_at) return 'revoked'
  if (t.expires_at && new Date(t.expires_at).getTime() <= now.getTime()) return 'expired'
  return 'active'
}
