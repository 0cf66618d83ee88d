import { useEffect, useState } from 'react'
import type { Platform } from '@portal/domain'

/**
 * What the session remembers of a platform's first steps, per e-mail and platform (section 4):
 * - `shown`: first seen without licenses, so the block stays (progressing to success) until closed;
 * - `had-licenses`: the client already had licenses when the dashboard first opened: never shown;
 * - `hidden`: closed with Hide or Done (the empty table's "Show the first steps" brings it back).
 */
type Seen = 'shown' | 'had-licenses' | 'hidden'

const seenKey = (email: string, platform: Platform) => `portal.first-steps.${email}.${platform}`
const skipKey = (email: string, platform: Platform) => `portal.first-steps-fill-skipped.${email}.${platform}`

const read = (key: string): Seen | null => {
  const v = sessionStorage.getItem(key)
  return v === 'shown' || v === 'had-licenses' || v === 'hidden' ? v : null
}

/**
 * Whether the dashboard shows the first steps. `hasLicense` is null while licenses load and `email`
 * empty while the profile loads: nothing is decided (or remembered) before both are known.
 */
export function useFirstStepsVisibility(platform: Platform, email: string, hasLicense: boolean | null) {
  const [, rerender] = useState(0)
  const key = seenKey(email, platform)
  const stored = email ? read(key) : null
  const decided: Seen | null = stored ?? (!email || hasLicense === null ? null : hasLicense ? 'had-licenses' : 'shown')
  useEffect(() => {
    if (stored === null && decided !== null) sessionStorage.setItem(key, decided)
  }, [key, stored, decided])
  const set = (seen: Seen) => {
    if (!email) return
    sessionStorage.setItem(key, seen)
    rerender((n) => n + 1)
  }
  return { visible: decided === 'shown', hide: () => set('hidden'), show: () => set('shown') }
}

/** Whether the client skipped Face SDK's fill step, remembered per e-mail and platform. */
export function useFillSkipped(platform: Platform, email: string) {
  const [, rerender] = useState(0)
  const key = skipKey(email, platform)
  return {
    skipped: email !== '' && sessionStorage.getItem(key) === 'skipped',
    skip: () => {
      if (!email) return
      sessionStorage.setItem(key, 'skipped')
      rerender((n) => n + 1)
    },
  }
}
