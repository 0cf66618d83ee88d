import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import { contactSales } from './service.ts'

export const supportRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.salesContact, async (req) => contactSales(ctx, req.ip, req.client.id, req.body))
}
