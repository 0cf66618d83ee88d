import { isPlatform, type Platform } from '@portal/domain'

/** Where a signed-out visitor was going, kept for the session so sign-in can return there. */
const KEY = 'portal.remembered'

export interface Remembered {
  path: string | null
  platform: Platform | null
}

export function remember(r: Remembered) {
  sessionStorage.setItem(KEY, JSON.stringify(r))
}

export function recall(): Remembered {
  try {
    const r = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Remembered | null
    return { path: r?.path ?? null, platform: isPlatform(r?.platform) ? r!.platform : null }
  } catch {
    return { path: null, platform: null }
  }
}

export function forget() {
  sessionStorage.removeItem(KEY)
}

/** The platform a sign-in page carries: ?platform=, router state, or what was remembered. */
export function carriedPlatform(search: string, state: unknown): Platform | null {
  const q = new URLSearchParams(search).get('platform')
  if (isPlatform(q)) return q
  const s = (state as { platform?: unknown } | null)?.platform
  if (isPlatform(s)) return s
  return recall().platform
}
