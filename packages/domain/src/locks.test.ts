import { describe, expect, it } from 'vitest'
import { checkActivationLock, deviceBinding, isOnlineLicense, licenseLock } from './locks.ts'
import type { LicenseConfig } from './license-schemas.ts'

const online = { offline_timeout: 86_400 }
const cfg = (over: Partial<LicenseConfig> = {}): LicenseConfig => ({ product: 'face_online_custom', online, ...over })
const sdk = (over: Record<string, string | null> = {}) => ({ channel: 'sdk' as const, fingerprint: 'fp-1', ...over })

describe('licenseLock', () => {
  it('reads the one lock of a config; several (old data) answer USB, hardware, iOS, Android in that order', () => {
    expect(licenseLock(cfg())).toEqual({ type: 'none' })
    expect(licenseLock(cfg({ device_bound: true }))).toEqual({ type: 'hardware_id' })
    expect(licenseLock(cfg({ custom_tags: { ios_app_id: ' com.x ' } }))).toEqual({ type: 'ios_app_id', app_id: 'com.x' })
    expect(licenseLock(cfg({ custom_tags: { android_app_id: 'com.y' } }))).toEqual({ type: 'android_app_id', app_id: 'com.y' })
    expect(licenseLock(cfg({ custom_tags: { hardware_key_serial: true } }))).toEqual({ type: 'usb_token' })
    expect(licenseLock(cfg({ device_bound: true, custom_tags: { hardware_key_serial: 'true', ios_app_id: 'com.x' } }))).toEqual({ type: 'usb_token' })
    expect(licenseLock(cfg({ device_bound: true, custom_tags: { ios_app_id: 'com.x' } }))).toEqual({ type: 'hardware_id' })
    expect(licenseLock(cfg({ custom_tags: { allowed_platforms: 'linux-x86_64', ios_app_id: '  ' } }))).toEqual({ type: 'none' })
  })

  it('online is what the config says, whatever the product is called', () => {
    expect(isOnlineLicense({ online })).toBe(true)
    expect(isOnlineLicense({ online: null })).toBe(false)
    expect(isOnlineLicense({})).toBe(false)
  })
})

describe('checkActivationLock: the device API', () => {
  it('refuses every offline license, locked or not', () => {
    for (const config of [cfg({ online: null }), cfg({ online: undefined, device_bound: true }), cfg({ online: null, custom_tags: { ios_app_id: 'com.x' } })]) {
      expect(checkActivationLock(config, sdk({ hardware_id: 'HW', app_id: 'com.x' }))).toMatchObject({ ok: false, code: 'OFFLINE_LICENSE' })
    }
  })

  it('an unlocked online license binds the fingerprint', () => {
    expect(checkActivationLock(cfg(), sdk())).toEqual({ ok: true, lock: { type: 'fingerprint', value: 'fp-1' }, binding: null })
  })

  it('hardware: needs the hardware id, which the device is bound to', () => {
    const config = cfg({ device_bound: true })
    expect(checkActivationLock(config, sdk())).toMatchObject({ ok: false, code: 'LOCK_MISMATCH' })
    expect(checkActivationLock(config, sdk({ hardware_id: '  ' }))).toMatchObject({ ok: false, code: 'LOCK_MISMATCH' })
    expect(checkActivationLock(config, sdk({ hardware_id: ' HW-1 ' }))).toEqual({ ok: true, lock: { type: 'hardware_id', value: 'HW-1' }, binding: 'HW-1' })
  })

  it('USB token: needs the token serial, which the device is bound to', () => {
    const config = cfg({ custom_tags: { hardware_key_serial: true } })
    expect(checkActivationLock(config, sdk({ hardware_id: 'HW' }))).toMatchObject({ ok: false, code: 'LOCK_MISMATCH' })
    expect(checkActivationLock(config, sdk({ usb_token: 'TOKEN-1' }))).toEqual({ ok: true, lock: { type: 'usb_token', value: 'TOKEN-1' }, binding: 'TOKEN-1' })
  })

  it('app ids: only the app id the license names', () => {
    for (const [tag, type] of [
      ['ios_app_id', 'ios_app_id'],
      ['android_app_id', 'android_app_id'],
    ] as const) {
      const config = cfg({ custom_tags: { [tag]: 'com.vendor.app' } })
      expect(checkActivationLock(config, sdk())).toMatchObject({ ok: false, code: 'LOCK_MISMATCH' })
      expect(checkActivationLock(config, sdk({ app_id: 'com.other.app' }))).toMatchObject({ ok: false, code: 'LOCK_MISMATCH' })
      expect(checkActivationLock(config, sdk({ app_id: 'com.vendor.app' }))).toEqual({ ok: true, lock: { type, value: 'com.vendor.app' }, binding: null })
    }
  })
})

describe('checkActivationLock: the portal', () => {
  const request = { channel: 'request_file' as const, serial: 'SN-1', reg: 'REG-1' }
  const usb = { channel: 'usb_token' as const, serial: 'TOKEN-1' }

  it('a request file binds the hardware id (reg, else the serial) unless the lock names an app or a token', () => {
    expect(checkActivationLock(cfg({ online: null, device_bound: true }), request)).toEqual({
      ok: true,
      lock: { type: 'hardware_id', value: 'REG-1' },
      binding: 'REG-1',
    })
    expect(checkActivationLock(cfg({ online: null }), { ...request, reg: null })).toEqual({
      ok: true,
      lock: { type: 'hardware_id', value: 'SN-1' },
      binding: 'SN-1',
    })
    expect(checkActivationLock(cfg({ online: null, custom_tags: { android_app_id: 'com.a' } }), request)).toEqual({
      ok: true,
      lock: { type: 'android_app_id', value: 'com.a' },
      binding: null,
    })
    expect(checkActivationLock(cfg({ online: null, custom_tags: { hardware_key_serial: true } }), request)).toMatchObject({ ok: false, code: 'LOCK_MISMATCH' })
  })

  it('a USB token serial only for a license locked to a token', () => {
    expect(checkActivationLock(cfg({ online: null, custom_tags: { hardware_key_serial: true } }), usb)).toEqual({
      ok: true,
      lock: { type: 'usb_token', value: 'TOKEN-1' },
      binding: 'TOKEN-1',
    })
    expect(checkActivationLock(cfg({ online: null, device_bound: true }), usb)).toMatchObject({ ok: false, code: 'LOCK_MISMATCH' })
  })
})

describe('deviceBinding', () => {
  it('reads back the value a device was bound to', () => {
    expect(deviceBinding({ type: 'usb_token' }, { serial: 'TOKEN-1', reg: null })).toBe('TOKEN-1')
    expect(deviceBinding({ type: 'hardware_id' }, { serial: 'SN-1', reg: 'REG-1' })).toBe('REG-1')
    expect(deviceBinding({ type: 'hardware_id' }, { serial: 'SN-1', reg: null })).toBe('SN-1')
    expect(deviceBinding({ type: 'none' }, { serial: 'SN-1', reg: 'REG-1' })).toBeNull()
  })
})
