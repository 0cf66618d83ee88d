import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import type { Lifecycle } from '../../platform/lifecycle.ts'
import { ping } from './queries.ts'

export const healthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; lifecycle: Lifecycle }> = async (app, { ctx, lifecycle }) => {
  // readiness: a load balancer takes this process out of rotation while it drains or its database is away
  route(app, c.health, async (req, reply) => {
    if (lifecycle.draining)
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ status: 'draining' as const })
    try {
      await ping(ctx.db)
    } catch (err) {
      req.log.warn({ err }, 'health check: database down')
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ status: 'unavailable' as const, database: 'down' as const })
    }
    return { status: 'ok' as const, database: ctx.db.kind }
  })
  // liveness: the process answers, whatever its database does (a restart would not bring that back)
  route(app, c.healthLive, async () => ({ status: 'ok' as const }))
}
