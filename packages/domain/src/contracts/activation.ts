import { z } from '../zod.ts'
import { contract, errorSchema } from '../contract.ts'
import { USB_SERIAL_MAX, VALIDATION_CODES } from '../license-file.ts'
import { licenseViewSchema } from '../license-views.ts'
import { text, trimmedAtLeast } from '../fields.ts'
import { idParams } from './licenses.ts'

/** A USB token's serial, trimmed: one rule for the body's field and the activation form's input. */
const usbSerial = text().trim().max(USB_SERIAL_MAX, 'usb_serial_max_length_error')

export const offlineActivationBody = z.object({
  data: text().max(1_000_000).optional(),
  hardware_key_serial: usbSerial.optional(),
  /** the older name of hardware_key_serial */
  usbToken: usbSerial.optional(),
})

/** The USB-token activation form: the body's serial, which the form cannot leave empty (a request file is the other way). */
export const usbActivationBody = offlineActivationBody.pick({ hardware_key_serial: true }).extend({
  hardware_key_serial: usbSerial.min(1, 'usb_serial_empty_error'),
})

const tags = ['activation']
const sdkTags = ['sdk']
/** a device-API refusal also names the validation code the device acts on */
const sdkError = errorSchema.extend({
  code: z.enum(VALIDATION_CODES).optional(),
  valid: z.literal(false).optional(),
  detail: z.string().optional(),
  /** TOO_MANY_DEVICES: when a seat a released device holds frees (null: only a release frees one) */
  retry_at: z.string().nullable().optional(),
})
const keyField = text().min(1).max(64)
// blank after the trim is too short, said as a pattern so the document states it
const fingerprintField = text().regex(trimmedAtLeast(1), { message: 'field_empty_error', abort: true }).trim().min(1).max(256)
// what a lock asks for is text of the fingerprint's kind, refused the same way
const lockField = fingerprintField.optional()
const keyBody = z.object({ key: keyField, fingerprint: fingerprintField }).meta({ examples: [{ key: 'ABCD-EFGH-JKLM-NPQR', fingerprint: '3f1c9a…' }] })
const offlineErrors = [
  'not_found',
  'license_on_hold',
  'action_unavailable',
  'invalid_license_file',
  'empty_activation',
  'license_not_usable',
  'too_many_devices',
] as const

export const activationContracts = {
  licenseActivateOffline: contract({
    method: 'POST',
    path: '/license/:id/activate/offline/',
    auth: 'client',
    bearer: true,
    permission: 'licenses',
    tags,
    summary: 'Activate offline with a request file (data: base64 of its text) or a USB token serial; answers the license with its signed file',
    params: idParams,
    body: offlineActivationBody,
    response: { 200: licenseViewSchema },
    errors: offlineErrors,
  }),
  groupActivateOffline: contract({
    method: 'POST',
    path: '/group/:id/activate/offline/',
    auth: 'client',
    bearer: true,
    permission: 'licenses',
    tags,
    summary: 'Make a license from the group (limit -1) and activate it offline',
    params: idParams,
    body: offlineActivationBody,
    response: { 200: licenseViewSchema },
    errors: [...offlineErrors, 'not_enough_licenses', 'unactivated_limit'],
  }),
  deviceRelease: contract({
    method: 'POST',
    path: '/license/:id/devices/:deviceId/release/',
    auth: 'client',
    bearer: true,
    permission: 'licenses',
    tags,
    summary: 'Release a device of a license (3 per license in any 30 days)',
    params: z.object({ id: text(), deviceId: text() }),
    response: { 200: licenseViewSchema },
    errors: ['not_found', 'license_on_hold', 'release_limit'],
  }),
  licensePublicKeys: contract({
    method: 'GET',
    path: '/license/public-key/',
    auth: 'public',
    tags,
    summary: 'Every license-signing public key with its kid and retirement date',
    response: {
      200: z.object({
        keys: z.array(
          z.object({ kid: z.string(), algorithm: z.literal('Ed25519'), public_key: z.string(), created_at: z.string(), retire_at: z.string().nullable() }),
        ),
      }),
    },
    errors: [],
  }),

  sdkActivate: contract({
    method: 'POST',
    path: '/sdk/activate/',
    auth: 'public',
    tags: sdkTags,
    summary:
      "Bind a device to an online license's key (idempotent per fingerprint); answers a signed license file. A locked license needs what its lock names: hardware_id, usb_token or app_id. A group key gives each new device a license of its own from the key's capacity (license_key names it)",
    body: z
      .object({
        key: keyField,
        fingerprint: fingerprintField,
        name: text().trim().max(256).optional(),
        properties: z.object({ serial: text().max(256).optional(), sensor_name: text().max(256).optional(), reg: text().max(256).optional() }).optional(),
        hardware_id: lockField.describe('for a license locked to device hardware: the hardware id (else properties.reg)'),
        usb_token: lockField.describe('for a license locked to a USB token: the serial of the token'),
        app_id: lockField.describe('for a license locked to an iOS or Android app: the app id'),
      })
      .meta({
        examples: [{ key: 'ABCD-EFGH-JKLM-NPQR', fingerprint: '3f1c9a…', name: 'Lobby kiosk', properties: { serial: 'SN-1', sensor_name: 'RealSense D435' } }],
      }),
    response: {
      200: z.object({
        /** the device's own license key: the key sent, or for a group key the license the device got from it */
        license_key: z.string(),
        license_file: z.string(),
        expires_at: z.string().nullable(),
        device: z.object({ id: z.number(), name: z.string().nullable(), fingerprint: z.string(), first_seen: z.string() }),
      }),
    },
    errors: ['not_found', 'too_many_devices', 'offline_license', 'lock_mismatch', 'license_not_usable'],
    errorBody: sdkError,
  }),
  sdkValidate: contract({
    method: 'POST',
    path: '/sdk/validate/',
    auth: 'public',
    tags: sdkTags,
    summary: 'Check a license key on a device; records last seen',
    body: keyBody,
    response: {
      200: z
        .object({ valid: z.boolean(), code: z.enum(VALIDATION_CODES), detail: z.string(), expires_at: z.string().nullable() })
        .meta({ examples: [{ valid: true, code: 'VALID', detail: 'The license is valid on this device', expires_at: '2026-12-22T10:00:00.000Z' }] }),
    },
    errors: [],
    errorBody: sdkError,
  }),
  sdkDeactivate: contract({
    method: 'POST',
    path: '/sdk/deactivate/',
    auth: 'public',
    tags: sdkTags,
    summary: 'Free the seat of a device',
    body: keyBody,
    response: { 200: z.object({ status: z.literal('ok'), released: z.boolean() }).meta({ examples: [{ status: 'ok', released: true }] }) },
    errors: ['not_found', 'license_not_usable'],
    errorBody: sdkError,
  }),
} as const
