import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../context.ts'
import { ping } from './queries.ts'

export const healthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/health/', {
    config: { auth: 'public' },
    schema: {
      tags: ['health'],
      summary: 'Liveness and which database serves; 503 while the database cannot be reached',
      response: {
        200: z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) }),
        503: z.object({ status: z.literal('unavailable'), database: z.literal('down') }),
      },
    },
    handler: async (req, reply) => {
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
    },
  })
}
