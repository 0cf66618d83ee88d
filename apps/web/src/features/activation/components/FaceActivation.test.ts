import { describe, expect, it } from 'vitest'
import { licenseView } from '../../../test/fixtures.ts'
import { activationMode } from './FaceActivation.tsx'

const activation = (id: number) => ({
  id,
  kind: 'request_file',
  name: null,
  signature_properties: { serial: 'SN-1', sensor_name: null, reg: null },
  fingerprint: null,
  first_seen: '2026-11-22T12:00:00.000Z',
  last_seen: null,
})
const license = (config: Record<string, unknown>, activations = 0, data: string | null = null) =>
  licenseView({
    type: 'face',
    config: { product: 'face_offline_perpetual', ...config },
    activations: Array.from({ length: activations }, (_, i) => activation(i)),
    data,
  })

describe('activationMode', () => {
  it('an offline license is activated here with a request file, whatever its platform or lock, until it has a device', () => {
    expect(activationMode(license({}))).toBe('request_file')
    expect(activationMode(license({ product: 'nuitrack_ai_perpetual' }))).toBe('request_file')
    expect(activationMode(license({ custom_tags: { ios_app_id: 'com.x' } }))).toBe('request_file')
    expect(activationMode(license({ device_bound: true }))).toBe('request_file')
    expect(activationMode(license({}, 1, 'file'))).toBe('download')
  })

  it('a USB-token license asks for the serial; an online license without a hardware lock goes to the SDK', () => {
    expect(activationMode(license({ custom_tags: { hardware_key_serial: true } }))).toBe('usb_token')
    expect(activationMode(license({ custom_tags: { hardware_key_serial: true }, online: { offline_timeout: 86400 } }))).toBe('usb_token')
    expect(activationMode(license({ product: 'face_online_custom', online: { offline_timeout: 86400 } }))).toBe('download')
    expect(activationMode(license({ product: 'face_online_custom', online: { offline_timeout: 86400 }, device_bound: true }))).toBe('request_file')
  })
})
