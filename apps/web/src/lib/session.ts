import { useSyncExternalStore } from 'react'
import { isLogged } from './cookies.ts'

/**
 * The logged flag follows the JS-readable `user_status=logged` cookie the server sets
 * (the session itself is an HttpOnly cookie the app never sees).
 */
export { isLogged }

const listeners = new Set<() => void>()
export function notifySession() {
  listeners.forEach((l) => l())
}
function subscribe(listener: () => void) {
  listeners.add(listener)
  window.addEventListener('focus', listener)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('focus', listener)
  }
}
export const useLogged = () => useSyncExternalStore(subscribe, isLogged, () => false)

/** Where a signed-out visitor wanted to go (sessionStorage, so it survives the login round trip). */
export { forget, recall, remember, type Remembered } from './remembered.ts'

/** Clears everything the browser keeps about the signed-in user in this tab. */
export function clearSessionMemory() {
  try {
    sessionStorage.clear()
  } catch {
    /* nothing to clear */
  }
}
