import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyReply } from 'fastify'
import type { z } from 'zod'
import { apiError, contracts as c, type ErrorName, type ValidationCode, type offlineActivationBody } from '@portal/domain'
import { compiledSerializer, route } from '../../platform/contract-route.ts'
import { BatchedLimiter } from '../../platform/rate-limit.ts'
import { AppError } from '../../platform/errors.ts'
import * as activation from './service.ts'
import { SdkRefusal, type ActivationContext } from './service.ts'
import { SeenBuffer } from './seen.ts'

/** the serial under either of its names, as the body schema trimmed and bounded it */
const serialOf = (b: z.infer<typeof offlineActivationBody>) => b.hardware_key_serial ?? b.usbToken
/** The catalogue error of each device-API refusal; the rest are "cannot be activated now" (1aa189d5). */
const SDK_ERROR: Partial<Record<ValidationCode, ErrorName>> = {
  NOT_FOUND: 'not_found',
  TOO_MANY_DEVICES: 'too_many_devices',
  OFFLINE_LICENSE: 'offline_license',
  LOCK_MISMATCH: 'lock_mismatch',
}

export const activationRoutes: FastifyPluginAsyncZod<{ ctx: ActivationContext; sdkLimits: { perKey: number; perIp: number } }> = async (
  app,
  { ctx, sdkLimits },
) => {
  route(app, c.licenseActivateOffline, async (req) =>
    activation.activateLicenseOffline(ctx, req.client.id, req.params.id, { data: req.body.data, hardware_key_serial: serialOf(req.body) }),
  )
  route(app, c.groupActivateOffline, async (req) =>
    activation.activateGroupOffline(ctx, req.client.id, req.params.id, { data: req.body.data, hardware_key_serial: serialOf(req.body) }),
  )
  route(app, c.deviceRelease, async (req) => activation.releaseDevice(ctx, req.client.id, req.params.id, req.params.deviceId))
  route(app, c.licensePublicKeys, async () => ({ keys: ctx.keyring.publicKeys() }))

  // ---- device API ----
  const limiter = new BatchedLimiter(ctx.db.relaxed, 60, 200, { log: ctx.log })
  app.addHook('onClose', async () => limiter.stop())
  // synchronous: the counts live in the process and reach the database in the limiter's flush
  const limited = (ip: string, key: string) => {
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
    // the device acts on what validation would say, and on when to try again (a held seat frees)
    return reply.status(err.status).send({
      ...apiError(SDK_ERROR[err.code] ?? 'license_not_usable', err.message),
      code: err.code,
      valid: false,
      detail: err.message,
      retry_at: err.retryAt?.toISOString() ?? null,
    })
  }

  route(app, c.sdkActivate, async (req, reply) => {
    limited(req.ip, req.body.key)
    try {
      return await activation.sdkActivate(ctx, req.body)
    } catch (err) {
      return refuse(reply, err)
    }
  })
  // the hot path: one indexed read on the main pool; the rate-limit counts and last-seen times are
  // written off the request path (BatchedLimiter, SeenBuffer); the answer by a compiled serializer
  const seen = new SeenBuffer(ctx.db.relaxed, 1000, ctx.log)
  app.addHook('onClose', async () => seen.stop())
  const markSeen = (deviceId: number) => seen.add(deviceId)
  const read = activation.validationReader(ctx.db)
  route(
    app,
    c.sdkValidate,
    async (req) => {
      limited(req.ip, req.body.key)
      return activation.sdkValidate(read, req.body, ctx.clock.now(), markSeen)
    },
    { serializerCompiler: compiledSerializer },
  )
  route(app, c.sdkDeactivate, async (req, reply) => {
    limited(req.ip, req.body.key)
    try {
      return await activation.sdkDeactivate(ctx, req.body.key, req.body.fingerprint)
    } catch (err) {
      return refuse(reply, err)
    }
  })
}
