import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import * as webhooks from './service.ts'

/** With the session cookie only: a token cannot change where the account's events go. */
export const webhookRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.webhookList, async (req) => webhooks.listWebhookEndpoints(ctx, req.client.id))
  route(app, c.webhookCreate, async (req, reply) =>
    reply.status(201).send(await webhooks.createWebhookEndpoint(ctx, req.client.id, req.client.actor_id, req.body)),
  )
  route(app, c.webhookDelete, async (req) => webhooks.deleteWebhookEndpoint(ctx, req.client.id, req.params.id))
  route(app, c.webhookDeliveries, async (req) => webhooks.listWebhookDeliveries(ctx, req.client.id))
}
