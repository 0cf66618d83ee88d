import { useSyncExternalStore } from 'react'
import { ERRORS } from '@portal/domain'
import { ApiError } from './api-client.ts'

/**
 * The actions the server has said are not available (spec section 8: action_unavailable shows the error
 * modal and hides the action it concerns). A key names a license's action, `license:5:pause`; once
 * refused, the action stays hidden for the rest of the visit, wherever the web shows it.
 */
const hidden = new Set<string>()
const listeners = new Set<() => void>()
let version = 0

const emit = () => {
  version++
  listeners.forEach((l) => l())
}

export type LicenseAction = 'pause' | 'resume' | 'revoke' | 'activate' | 'release-device'
export const licenseActionKey = (licenseId: number, action: LicenseAction) => `license:${licenseId}:${action}`

export const hiddenActions = {
  hide(key: string) {
    if (hidden.has(key)) return
    hidden.add(key)
    emit()
  },
  has: (key: string) => hidden.has(key),
  /** tests start afresh */
  clear() {
    hidden.clear()
    emit()
  },
  subscribe(listener: () => void) {
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  },
}

/** Hides the action when the error is the server's action_unavailable; answers whether it did. */
export function hideIfUnavailable(err: unknown, key: string): boolean {
  if (!(err instanceof ApiError) || err.code !== ERRORS.action_unavailable.code) return false
  hiddenActions.hide(key)
  return true
}

/** Whether an action is hidden, re-rendered when the set changes. */
export function useActionHidden(key: string): boolean {
  useSyncExternalStore(hiddenActions.subscribe, () => version)
  return hidden.has(key)
}
