import { DEFAULT_PLATFORM, isPlatform, type Platform } from './platforms.ts'

/**
 * Section 2, "Entry and redirects", as pure functions so the router and its tests agree.
 */

export const SIGN_IN_PATHS = [
  'login',
  'registration',
  'forgot-password',
  'set-password',
  'confirm',
  'registration-confirm',
  'email-revert',
  'logout',
  'registrate',
] as const

/**
 * The staff custom-license form, one address per tab. The web router and the server's redirect of
 * the marketing site's old address both read these, so the two cannot drift apart.
 */
export const STAFF_FORM_PATHS = {
  perpetual: '/app/staff/custom-license/perpetual/',
  subscription: '/app/staff/custom-license/subscription/',
} as const

/** Pages a signed-in user is sent away from. */
export const ANONYMOUS_ONLY_PATHS = ['registration', 'forgot-password', 'set-password'] as const

const DOT_SEGMENT_RE = /^(?:\.|%2e){1,2}$/i
const RESOLVE_BASE = 'https://portal.invalid'

/** The `next` value is kept only when it stays under /app/ (no scheme, no protocol-relative URL). */
export function sanitizeNext(next: string | null | undefined): string | null {
  if (!next) return null
  let value: string
  try {
    value = decodeURIComponent(next)
  } catch {
    return null
  }
  if (!value.startsWith('/app/')) return null
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (value.includes('\\') || value.includes('//') || /[\u0000-\u001f]/.test(value)) return null
  // no dot segments anywhere, also before a ? or # and percent-encoded (a browser resolves /app/..?x
  // and /app/%2e%2e/x to paths outside /app/)
  if (value.split(/[/?#]/).some((seg) => DOT_SEGMENT_RE.test(seg))) return null
  // and, as the browser would resolve it, it must still be a path under /app/ of this origin
  let resolved: URL
  try {
    resolved = new URL(value, RESOLVE_BASE)
  } catch {
    return null
  }
  if (resolved.origin !== RESOLVE_BASE || !resolved.pathname.startsWith('/app/')) return null
  return value
}

export const platformHome = (platform: Platform | null | undefined) => `/app/${platform && isPlatform(platform) ? platform : DEFAULT_PLATFORM}/dashboard/`

/** Where a user goes after signing in: remembered path, else ?next, else the platform home. */
export function afterSignIn(opts: { remembered?: string | null; next?: string | null; platform?: string | null }): string {
  const remembered = sanitizeNext(opts.remembered)
  if (remembered) return remembered
  const next = sanitizeNext(opts.next)
  if (next) return next
  return platformHome(isPlatform(opts.platform) ? opts.platform : null)
}

/**
 * A platform segment before a sign-in path (/app/face/login/) redirects to the plain path and
 * carries the platform along. Returns null when the path is not of that shape.
 */
export function splitPlatformSignInPath(pathname: string): { path: string; platform: Platform } | null {
  const m = /^\/app\/([^/]+)\/([^/]+)(\/.*)?$/.exec(pathname)
  if (!m) return null
  const [, platform, first, rest] = m
  if (!isPlatform(platform)) return null
  if (!(SIGN_IN_PATHS as readonly string[]).includes(first!)) return null
  return { path: `/app/${first}${rest ?? '/'}`, platform }
}
