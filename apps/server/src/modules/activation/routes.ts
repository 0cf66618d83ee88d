import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyReply } from 'fastify'
import { z } from 'zod'
import { USB_SERIAL_MAX, VALIDATION_CODES, apiError, licenseViewSchema, text, type ErrorName, type ValidationCode } from '@portal/domain'
import { errors } from '../../platform/schemas.ts'
import { BatchedLimiter } from '../../platform/rate-limit.ts'
import { AppError } from '../../platform/errors.ts'
import * as activation from './service.ts'
import { SdkRefusal, type ActivationContext } from './service.ts'

const offlineBody = z.object({
  data: text().max(1_000_000).optional(),
  hardware_key_serial: text()
    .max(USB_SERIAL_MAX + 64)
    .optional(),
  /** the older name of hardware_key_serial */
  usbToken: text()
    .max(USB_SERIAL_MAX + 64)
    .optional(),
})
const serialOf = (b: z.infer<typeof offlineBody>) => {
  const serial = (b.hardware_key_serial ?? b.usbToken)?.trim()
  return serial === undefined ? undefined : serial
}
const idParams = z.object({ id: text() })
/** The catalogue error of each device-API refusal; the rest are "cannot be activated now" (1aa189d5). */
const SDK_ERROR: Partial<Record<ValidationCode, ErrorName>> = {
  NOT_FOUND: 'not_found',
  TOO_MANY_DEVICES: 'too_many_devices',
  OFFLINE_LICENSE: 'offline_license',
  LOCK_MISMATCH: 'lock_mismatch',
}
const licenseResponse = { 200: licenseViewSchema, ...errors(400, 401, 404, 409) }

export const activationRoutes: FastifyPluginAsyncZod<{ ctx: ActivationContext; sdkLimits: { perKey: number; perIp: number } }> = async (
  app,
  { ctx, sdkLimits },
) => {
  const tags = ['activation']

  const checkSerial = (serial: string | undefined) => {
    if (serial !== undefined && serial.length > USB_SERIAL_MAX) {
      throw Object.assign(new Error('USB token serial is at most 256 characters'), { statusCode: 400 })
    }
    return serial
  }

  app.post('/license/:id/activate/offline/', {
    config: { auth: 'client' },
    schema: {
      tags,
      summary: 'Activate offline with a request file (data: base64 of its text) or a USB token serial; answers the license with its signed file',
      params: idParams,
      body: offlineBody,
      response: licenseResponse,
    },
    handler: async (req) =>
      activation.activateLicenseOffline(ctx, req.client.id, req.params.id, { data: req.body.data, hardware_key_serial: checkSerial(serialOf(req.body)) }),
  })
  app.post('/group/:id/activate/offline/', {
    config: { auth: 'client' },
    schema: {
      tags,
      summary: 'Make a license from the group (limit -1) and activate it offline',
      params: idParams,
      body: offlineBody,
      response: licenseResponse,
    },
    handler: async (req) =>
      activation.activateGroupOffline(ctx, req.client.id, req.params.id, { data: req.body.data, hardware_key_serial: checkSerial(serialOf(req.body)) }),
  })
  app.post('/license/:id/devices/:deviceId/release/', {
    config: { auth: 'client' },
    schema: {
      tags,
      summary: 'Release a device of a license (3 per license in any 30 days)',
      params: z.object({ id: text(), deviceId: text() }),
      response: licenseResponse,
    },
    handler: async (req) => activation.releaseDevice(ctx, req.client.id, req.params.id, req.params.deviceId),
  })
  app.get('/license/public-key/', {
    config: { auth: 'public' },
    schema: {
      tags,
      summary: 'Every license-signing public key with its kid and retirement date',
      response: {
        200: z.object({
          keys: z.array(
            z.object({ kid: z.string(), algorithm: z.literal('Ed25519'), public_key: z.string(), created_at: z.string(), retire_at: z.string().nullable() }),
          ),
        }),
      },
    },
    handler: async () => ({ keys: ctx.keyring.publicKeys() }),
  })

  // ---- device API ----
  const sdkTags = ['sdk']
  const sdkError = z.object({ error_code: z.string(), error: z.string(), code: z.enum(VALIDATION_CODES).optional() })
  const limiter = new BatchedLimiter(ctx.db.relaxed, 60, 200, { log: ctx.log })
  app.addHook('onClose', async () => limiter.stop())
  const limited = async (ip: string, key: string) => {
    if (
      !limiter.take([
        { key: `sdk:key:${key}`, max: sdkLimits.perKey },
        { key: `sdk:ip:${ip}`, max: sdkLimits.perIp },
      ])
    ) {
      throw new AppError('rate_limited')
    }
  }
  const refuse = (reply: FastifyReply, err: unknown) => {
    if (!(err instanceof SdkRefusal)) throw err
    return reply.status(err.status).send({ ...apiError(SDK_ERROR[err.code] ?? 'license_not_usable', err.message), code: err.code })
  }
  const keyField = text().min(1).max(64)
  const fingerprintField = text().trim().min(1).max(256)
  // what a lock asks for is text of the fingerprint's kind, refused the same way
  const lockField = fingerprintField.optional()

  app.post('/sdk/activate/', {
    config: { auth: 'public' },
    schema: {
      tags: sdkTags,
      summary:
        "Bind a device to an online license's key (idempotent per fingerprint); answers a signed license file. A locked license needs what its lock names: hardware_id, usb_token or app_id",
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
          examples: [
            { key: 'ABCD-EFGH-JKLM-NPQR', fingerprint: '3f1c9a…', name: 'Lobby kiosk', properties: { serial: 'SN-1', sensor_name: 'RealSense D435' } },
          ],
        }),
      response: {
        200: z.object({
          license_file: z.string(),
          expires_at: z.string().nullable(),
          device: z.object({ id: z.number(), name: z.string().nullable(), fingerprint: z.string(), first_seen: z.string() }),
        }),
        403: sdkError,
        404: sdkError,
        409: sdkError,
        429: sdkError,
      },
    },
    handler: async (req, reply) => {
      await limited(req.ip, req.body.key)
      try {
        return await activation.sdkActivate(ctx, req.body)
      } catch (err) {
        return refuse(reply, err)
      }
    },
  })
  app.post('/sdk/validate/', {
    config: { auth: 'public' },
    // the hot path: a plain stringify; the schema documents the answer and the tests check it
    serializerCompiler: () => (data) => JSON.stringify(data),
    schema: {
      tags: sdkTags,
      summary: 'Check a license key on a device; records last seen',
      body: z.object({ key: keyField, fingerprint: fingerprintField }).meta({ examples: [{ key: 'ABCD-EFGH-JKLM-NPQR', fingerprint: '3f1c9a…' }] }),
      response: {
        200: z
          .object({ valid: z.boolean(), code: z.enum(VALIDATION_CODES), detail: z.string(), expires_at: z.string().nullable() })
          .meta({ examples: [{ valid: true, code: 'VALID', detail: 'The license is valid on this device', expires_at: '2026-12-22T10:00:00.000Z' }] }),
        429: sdkError,
      },
    },
    handler: async (req) => {
      await limited(req.ip, req.body.key)
      return activation.sdkValidate(ctx.db.relaxed, req.body.key, req.body.fingerprint)
    },
  })
  app.post('/sdk/deactivate/', {
    config: { auth: 'public' },
    schema: {
      tags: sdkTags,
      summary: 'Free the seat of a device',
      body: z.object({ key: keyField, fingerprint: fingerprintField }).meta({ examples: [{ key: 'ABCD-EFGH-JKLM-NPQR', fingerprint: '3f1c9a…' }] }),
      response: {
        200: z.object({ status: z.literal('ok'), released: z.boolean() }).meta({ examples: [{ status: 'ok', released: true }] }),
        403: sdkError,
        404: sdkError,
        429: sdkError,
      },
    },
    handler: async (req, reply) => {
      await limited(req.ip, req.body.key)
      try {
        return await activation.sdkDeactivate(ctx.db, req.body.key, req.body.fingerprint)
      } catch (err) {
        return refuse(reply, err)
      }
    },
  })
}
