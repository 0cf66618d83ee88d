import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import { ping } from './queries.ts'

export const healthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.health, async (req, reply) => {
    try {
      await ping(ctx.db)
    } catch (err) {
      // a load balancer takes this process out of rotation until the database answers again
      req.log.warn({ err }, 'health check: database down')
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ status: 'unavailable' as const, database: 'down' as const })
    }
    return { status: 'ok' as const, database: ctx.db.kind }
  })
}
