/**
 * The license file and activation request formats (docs/license-file.md). Pure text handling; the
 * signature itself is made and checked with Ed25519 by node:crypto on the server and in SDKs.
 *
 * License file, three lines:
 *   3DIVI-LICENSE v1 <kid>
 *   <base64 of the JSON payload>
 *   <base64 of the Ed25519 signature of "line1\nline2">
 */
import { isSafeText } from './validation.ts'

export const LICENSE_FILE_HEADER = '3DIVI-LICENSE v1'
export const REQUEST_FILE_HEADER = '3DIVI-LICENSE-REQUEST v1'
export const LICENSE_FILE_NAME = 'face_sdk_license.lic'

export interface LicenseFilePayload {
  license_id: number
  product: string
  license_content: Record<string, number>
  max_version: string | null
  /** ISO times */
  issued_at: string
  license_expires_at: string | null
  expires_at: string | null
  lock: { type: 'hardware_id' | 'usb_token' | 'fingerprint' | 'ios_app_id' | 'android_app_id' | 'no_bound'; value: string | null }
  device_id: number | null
  kid: string
}

export interface ParsedLicenseFile {
  kid: string
  signedText: string
  payload: LicenseFilePayload
  signature: string
}

export function parseLicenseFile(text: string): ParsedLicenseFile | null {
  const lines = text.trim().split(/\r?\n/)
  if (lines.length !== 3) return null
  const [header, body, signature] = lines as [string, string, string]
  const m = new RegExp(`^${LICENSE_FILE_HEADER} ([A-Za-z0-9_-]{4,64})$`).exec(header)
  if (!m || !/^[A-Za-z0-9+/]+=*$/.test(body) || !/^[A-Za-z0-9+/]+=*$/.test(signature)) return null
  try {
    const payload = JSON.parse(decodeBase64(body)) as LicenseFilePayload
    if (payload.kid !== m[1]) return null
    return { kid: m[1]!, signedText: `${header}\n${body}`, payload, signature }
  } catch {
    return null
  }
}

export interface ActivationRequest {
  serial: string
  sensor_name: string | null
  reg: string | null
}

const FIELD_MAX = 256
/**
 * A request file is under 1 KB (three fields of at most 256 characters); the browser refuses a
 * larger file before reading it, and the parser refuses longer text, so both hold one rule.
 */
export const REQUEST_FILE_MAX_BYTES = 16_384

/** Request file: the header line, then `serial=`, `sensor_name=`, `reg=` lines; serial is required. */
export function parseRequestFile(text: string): ActivationRequest | null {
  if (text.length > REQUEST_FILE_MAX_BYTES) return null
  // the fields are stored as text: a NUL (or a lone surrogate, from a caller that did not decode UTF-8 strictly) makes the file invalid
  if (!isSafeText(text)) return null
  const lines = text
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/)
  if (lines[0]?.trim() !== REQUEST_FILE_HEADER) return null
  const fields = new Map<string, string>()
  for (const line of lines.slice(1)) {
    if (!line.trim()) continue
    const i = line.indexOf('=')
    if (i < 1) return null
    const key = line.slice(0, i).trim()
    const value = line.slice(i + 1).trim()
    if (!['serial', 'sensor_name', 'reg'].includes(key) || value.length > FIELD_MAX || fields.has(key)) return null
    fields.set(key, value)
  }
  const serial = fields.get('serial')
  if (!serial) return null
  return { serial, sensor_name: fields.get('sensor_name') || null, reg: fields.get('reg') || null }
}

export function formatRequestFile(r: ActivationRequest): string {
  return [REQUEST_FILE_HEADER, `serial=${r.serial}`, `sensor_name=${r.sensor_name ?? ''}`, `reg=${r.reg ?? ''}`, ''].join('\n')
}

/** Base64 that works in the browser and in Node without Buffer. */
export function encodeBase64(text: string): string {
  const bytes = new TextEncoder().encode(text)
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin)
}

export function decodeBase64(b64: string): string {
  const bin = atob(b64)
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0))
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
}

export const USB_SERIAL_MAX = 256

/** Device API validation codes. */
export const VALIDATION_CODES = [
  'VALID',
  'NOT_FOUND',
  'NOT_ACTIVATED',
  'TOO_MANY_DEVICES',
  'EXPIRED',
  'SUSPENDED',
  'PAUSED',
  'ON_HOLD',
  'OFFLINE_LICENSE',
  'LOCK_MISMATCH',
] as const
export type ValidationCode = (typeof VALIDATION_CODES)[number]

/** Customers may release devices themselves up to 3 times per license in any 30 days. */
export const DEVICE_RELEASES_PER_30_DAYS = 3
