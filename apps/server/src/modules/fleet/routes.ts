import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import * as fleet from './service.ts'

export const fleetRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.fleetView, async (req, reply) => {
    reply.header('cache-control', 'private, no-store')
    return fleet.getFleetView(ctx, req.client.id)
  })
  route(app, c.fleetSummary, async (req, reply) => {
    reply.header('cache-control', 'private, no-store')
    return fleet.getFleetSummary(ctx, req.client.id, req.params.platform)
  })
}
