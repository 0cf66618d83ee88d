import { COOKIES } from '@portal/domain'

/**
 * document.cookie as the running script read it. Chrome answers each read of document.cookie with a
 * round trip to its network process, a dashboard reads it many times as it opens, and one
 * render reads the session flag in many components: a script reads the cookies once, and after it
 * (at the next microtask checkpoint) they are read anew. Nothing of ours writes a cookie from script.
 */
let cookies: string | null = null
const readCookies = () => {
  if (cookies === null) {
    cookies = document.cookie
    queueMicrotask(() => (cookies = null))
  }
  return cookies
}

export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null
  for (const part of readCookies().split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k === name) {
      try {
        return decodeURIComponent(v.join('='))
      } catch {
        return v.join('=')
      }
    }
  }
  return null
}

/** The logged flag: the server sets the JS-readable `user_status=logged` cookie beside the HttpOnly session. */
export const isLogged = () => readCookie(COOKIES.userStatus) === 'logged'
