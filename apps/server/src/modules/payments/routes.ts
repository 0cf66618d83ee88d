import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyPluginAsync, FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { COOKIES, CSRF_HEADER, contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import { AppError } from '../../platform/errors.ts'
import { WebhookSignatureError } from '../../platform/payments/port.ts'
import { completeSandboxCheckout, sandboxCheckoutPage, sandboxSessionView, type SandboxProvider } from './sandbox.ts'
import { applyPaymentEvent } from '../billing/service.ts'
import { sandboxPage } from './sandbox-page.ts'

const ASSETS = join(dirname(fileURLToPath(import.meta.url)), 'sandbox-page')
/** a webhook is small; anything larger is not one of ours */
const WEBHOOK_BODY_LIMIT = 64 * 1024

/**
 * The sandbox provider's API: its checkout's calls (under /api/sandbox/) and the webhook it
 * delivers to (/api/payments/webhook/sandbox/). Registered only where the sandbox is allowed.
 */
export const sandboxApiRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; sandbox: SandboxProvider }> = async (app, { ctx, sandbox }) => {
  route(app, c.sandboxSession, async (req) => sandboxSessionView(ctx, req.params.session_id))
  route(app, c.sandboxPay, async (req) =>
    completeSandboxCheckout(
      ctx,
      sandbox.webhooks,
      req.params.session_id,
      req.body.outcome === 'decline' ? 'declined' : req.body.outcome === 'pending' ? 'pending' : 'paid',
      req.body.card_number,
    ),
  )
  route(app, c.sandboxCancel, async (req) => completeSandboxCheckout(ctx, sandbox.webhooks, req.params.session_id, 'cancelled'))

  // the signature covers the exact bytes sent: this route (alone) keeps the body raw
  await app.register(async (hook) => {
    hook.removeAllContentTypeParsers()
    hook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) => done(null, body))
    route(hook, c.paymentWebhookSandbox, async (req) => {
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
      let event
      try {
        event = await sandbox.parseWebhook!({ rawBody, headers: req.headers })
      } catch (err) {
        if (err instanceof WebhookSignatureError) throw new AppError('webhook_signature')
        throw err
      }
      if (event) await applyPaymentEvent(ctx, event)
      return { received: true as const }
    })
  })
}

/** The sandbox's hosted checkout page and its script and style (the portal's CSP allows no inline script). */
export const sandboxPageRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const script = readFileSync(join(ASSETS, 'checkout.js'), 'utf8')
  const style = readFileSync(join(ASSETS, 'checkout.css'), 'utf8')
  const asset = (type: string, text: string) => async (_req: unknown, reply: FastifyReply) => reply.type(type).header('cache-control', 'no-cache').send(text)
  app.get('/sandbox/checkout.js', { schema: { hide: true } }, asset('text/javascript; charset=utf-8', script))
  app.get('/sandbox/checkout.css', { schema: { hide: true } }, asset('text/css; charset=utf-8', style))

  app.get<{ Params: { session_id: string } }>('/sandbox/checkout/:session_id/', { schema: { hide: true } }, async (req, reply) => {
    const checkout = await sandboxCheckoutPage(ctx, req.params.session_id)
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer')
    return reply
      .status(checkout ? 200 : 404)
      .type('text/html; charset=utf-8')
      .send(sandboxPage(checkout, { cookie: COOKIES.csrf, header: CSRF_HEADER }))
  })
}
