import type { LicenseFilePayload } from '@portal/domain'

/** A license file's payload for the signing tests: an unbound Face SDK file issued now, with no expiry. */
export const licenseFilePayload = (over: Partial<Omit<LicenseFilePayload, 'kid'>> = {}): Omit<LicenseFilePayload, 'kid'> => ({
  license_id: 1,
  product: 'face_offline_custom',
  license_content: {},
  max_version: null,
  issued_at: new Date().toISOString(),
  license_expires_at: null,
  expires_at: null,
  lock: { type: 'no_bound', value: null },
  device_id: null,
  ...over,
})
