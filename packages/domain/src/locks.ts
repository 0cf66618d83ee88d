import type { LicenseFilePayload } from './license-file.ts'
import type { LicenseConfig } from './license-schemas.ts'

/**
 * A license's lock is binding on every activation path (docs/adr/license-locks-binding-everywhere.md). One rule decides, for an activation, whether it satisfies the license's lock and what lock
 * the signed file states; the portal's offline activation and the SDK's online activation both ask it.
 */

export type FileLock = LicenseFilePayload['lock']

/** The lock a license carries in its config; at most one (the staff call refuses combinations). */
export type LicenseLock =
  { type: 'usb_token' } | { type: 'hardware_id' } | { type: 'ios_app_id'; app_id: string } | { type: 'android_app_id'; app_id: string } | { type: 'none' }

/** Online licenses are those whose config says so; their files expire after offline_timeout. */
export const isOnlineLicense = (config: Pick<LicenseConfig, 'online'>) => config.online != null

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null)

/**
 * Which lock binds the license. A config that carries several (only old data can) answers the first
 * of USB token, hardware, iOS app, Android app: the order the former file lock used.
 */
export function licenseLock(config: Pick<LicenseConfig, 'custom_tags' | 'device_bound'>): LicenseLock {
  const tags = (config.custom_tags ?? {}) as Record<string, unknown>
  // any truthy marker locks: when in doubt, the stricter reading
  if (tags.hardware_key_serial && tags.hardware_key_serial !== 'false') return { type: 'usb_token' }
  if (config.device_bound) return { type: 'hardware_id' }
  const ios = text(tags.ios_app_id)
  if (ios) return { type: 'ios_app_id', app_id: ios }
  const android = text(tags.android_app_id)
  if (android) return { type: 'android_app_id', app_id: android }
  return { type: 'none' }
}

/** What one activation presents. */
export type ActivationAttempt =
  /** the device API: a fingerprint, plus what the license's lock asks for */
  | { channel: 'sdk'; fingerprint: string; hardware_id?: string | null; usb_token?: string | null; app_id?: string | null }
  /** the portal: an uploaded request file (its hardware id is `reg`, else the serial) */
  | { channel: 'request_file'; serial: string; reg: string | null }
  /** the portal: a USB token's serial */
  | { channel: 'usb_token'; serial: string }

export type LockRefusal = 'OFFLINE_LICENSE' | 'LOCK_MISMATCH'

export type LockDecision =
  /**
   * `lock` is what the file states; `binding` is the hardware id or token serial the device is bound
   * to (null when the lock names no device: app ids, or an online fingerprint).
   */
  { ok: true; lock: FileLock; binding: string | null } | { ok: false; code: LockRefusal; detail: string }

const refuse = (code: LockRefusal, detail: string): LockDecision => ({ ok: false, code, detail })

/**
 * Does the activation satisfy the license's lock, and what does the file say?
 *
 * - The device API serves online licenses only: an offline file never expires, so a seat handed out
 *   by the SDK and handed back would become a file on every machine.
 * - usb_token: the token's serial (the SDK sends `usb_token`; the portal takes it from the customer);
 *   a request file cannot stand in for the token.
 * - hardware_id (device_bound): the hardware id (the SDK sends `hardware_id`; a request file's `reg`,
 *   else its serial). The device's seat is bound to it; a fingerprint bound to other hardware is
 *   refused by the caller, which compares bindings.
 * - ios_app_id / android_app_id: the SDK must send the app id the license names; a request file is
 *   made by the customer for that app, and the file states the app lock.
 * - no lock: an online activation binds the fingerprint; an offline one binds the requesting
 *   machine's hardware id (a file bound to nothing would serve any number of machines from one seat).
 */
export function checkActivationLock(config: Pick<LicenseConfig, 'custom_tags' | 'device_bound' | 'online'>, attempt: ActivationAttempt): LockDecision {
  const lock = licenseLock(config)
  if (attempt.channel === 'sdk') {
    if (!isOnlineLicense(config)) {
      return refuse('OFFLINE_LICENSE', 'This license works offline: activate it on the portal with a request file or its USB token')
    }
    switch (lock.type) {
      case 'usb_token': {
        const serial = text(attempt.usb_token)
        if (!serial) return refuse('LOCK_MISMATCH', 'This license is locked to a USB token: send the serial of the token (usb_token)')
        return { ok: true, lock: { type: 'usb_token', value: serial }, binding: serial }
      }
      case 'hardware_id': {
        const hw = text(attempt.hardware_id)
        if (!hw) return refuse('LOCK_MISMATCH', "This license is locked to device hardware: send the device's hardware id (hardware_id)")
        return { ok: true, lock: { type: 'hardware_id', value: hw }, binding: hw }
      }
      case 'ios_app_id':
      case 'android_app_id': {
        if (text(attempt.app_id) !== lock.app_id) {
          return refuse('LOCK_MISMATCH', `This license is locked to ${lock.type === 'ios_app_id' ? 'an iOS' : 'an Android'} app: send its app id (app_id)`)
        }
        return { ok: true, lock: { type: lock.type, value: lock.app_id }, binding: null }
      }
      case 'none':
        return { ok: true, lock: { type: 'fingerprint', value: attempt.fingerprint }, binding: null }
    }
  }
  if (attempt.channel === 'usb_token') {
    if (lock.type !== 'usb_token') return refuse('LOCK_MISMATCH', 'This license is not locked to a USB token')
    return { ok: true, lock: { type: 'usb_token', value: attempt.serial }, binding: attempt.serial }
  }
  if (lock.type === 'usb_token') return refuse('LOCK_MISMATCH', 'This license is locked to a USB token: enter its serial')
  if (lock.type === 'ios_app_id' || lock.type === 'android_app_id') {
    return { ok: true, lock: { type: lock.type, value: lock.app_id }, binding: null }
  }
  const hw = attempt.reg || attempt.serial
  return { ok: true, lock: { type: 'hardware_id', value: hw }, binding: hw }
}

/** The hardware id or token serial a stored device is bound to (the value `binding` was). */
export function deviceBinding(lock: LicenseLock, device: { serial: string | null; reg: string | null }): string | null {
  if (lock.type === 'usb_token') return device.serial
  if (lock.type === 'hardware_id') return device.reg || device.serial
  return null
}
