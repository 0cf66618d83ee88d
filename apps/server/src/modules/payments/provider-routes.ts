import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import { capturePaypalOrder, receivePaypalWebhook, receiveStripeWebhook } from './providers.ts'

/** Stripe's webhook and PayPal's capture (the sandbox's routes are in routes.ts). */
export const providerRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Stripe signs the exact bytes it sent: this context keeps a JSON body as the raw Buffer
  await app.register(async (raw) => {
    raw.removeContentTypeParser('application/json')
    raw.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body))
    route(raw, c.paymentWebhookStripe, async (req) => {
      const body: unknown = req.body
      await receiveStripeWebhook(ctx, { rawBody: Buffer.isBuffer(body) ? body : Buffer.alloc(0), headers: req.headers })
      return { received: true as const }
    })
  })

  // PayPal's verification call gets the event as PayPal sent it: this context keeps the raw bytes too
  await app.register(async (raw) => {
    raw.removeContentTypeParser('application/json')
    raw.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body))
    route(raw, c.paymentWebhookPaypal, async (req) => {
      const body: unknown = req.body
      await receivePaypalWebhook(ctx, { rawBody: Buffer.isBuffer(body) ? body : Buffer.alloc(0), headers: req.headers })
      return { received: true as const }
    })
  })

  route(app, c.paypalCapture, async (req) => ({ status: 'ok' as const, ...(await capturePaypalOrder(ctx, req.client.id, req.body.order_id)) }))
}
