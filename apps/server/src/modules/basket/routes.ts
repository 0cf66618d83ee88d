import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import { purchase } from './service.ts'

export const basketRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.resourceBuy, async (req) => purchase(ctx, req.client.id, req.body))
  route(app, c.resourceSubscribe, async (req) => purchase(ctx, req.client.id, req.body, { subscribe: true }))
}
