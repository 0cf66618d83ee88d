// Offline check of a 3DiVi license file with node:crypto only. Usage: node verify-license.mjs FILE KEYS.json
import { createPublicKey, verify } from 'node:crypto'
import { readFileSync } from 'node:fs'

export function verifyLicense(text, keys, now = new Date(), device = null) {
  const lines = text.trim().split(/\r?\n/)
  if (lines.length !== 3) return { ok: false, reason: 'malformed' }
  const [header, body, signature] = lines
  const kid = /^3DIVI-LICENSE v1 ([A-Za-z0-9_-]+)$/.exec(header)?.[1]
  const key = keys.find((k) => k.kid === kid)
  if (!key) return { ok: false, reason: 'unknown key' }
  if (key.retire_at && new Date(key.retire_at) <= now) return { ok: false, reason: 'retired key' }
  const signed = Buffer.from(`${header}\n${body}`)
  if (!verify(null, signed, createPublicKey(key.public_key), Buffer.from(signature, 'base64'))) return { ok: false, reason: 'bad signature' }
  const payload = JSON.parse(Buffer.from(body, 'base64').toString('utf8'))
  if (payload.kid !== kid) return { ok: false, reason: 'kid mismatch' }
  if (payload.expires_at && new Date(payload.expires_at) <= now) return { ok: false, reason: 'expired' }
  if (device) {
    // the lock binds the file: the device's hardware id, USB token, app id or SDK fingerprint must match
    const { type, value } = payload.lock
    const have = {
      hardware_id: device.hardware_id,
      usb_token: device.usb_token,
      ios_app_id: device.app_id,
      android_app_id: device.app_id,
      fingerprint: device.fingerprint,
    }[type]
    if (type !== 'no_bound' && have !== value) return { ok: false, reason: 'lock mismatch' }
  }
  return { ok: true, payload }
}

if (process.argv[2]) {
  const keys = JSON.parse(readFileSync(process.argv[3], 'utf8')).keys
  const result = verifyLicense(readFileSync(process.argv[2], 'utf8'), keys)
  console.log(JSON.stringify(result, null, 2))
  process.exit(result.ok ? 0 : 1)
}
