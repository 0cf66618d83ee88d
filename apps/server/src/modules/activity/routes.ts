import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import * as activity from './service.ts'

export const activityRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.licenseHistory, async (req, reply) => {
    reply.header('cache-control', 'private, no-store')
    return activity.getLicenseHistory(ctx, req.client.id, req.params.id)
  })
  route(app, c.accountHistory, async (req, reply) => {
    reply.header('cache-control', 'private, no-store')
    return activity.getAccountHistory(ctx, req.client.id, req.query)
  })
  route(app, c.accountHistoryExport, async (req, reply) => {
    const { filename, csv } = await activity.exportAccountHistory(ctx, req.client.id)
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'private, no-store')
      .send(csv)
  })
}
