import { COOKIES } from '@portal/domain'

export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null
  for (const part of document.cookie.split(';')) {
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
