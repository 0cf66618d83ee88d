import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../context.ts'

export const healthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/health/', {
    config: { auth: 'public' },
    schema: {
      tags: ['health'],
      summary: 'Liveness and which database serves',
      response: { 200: z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) }) },
    },
    handler: async () => {
      await ctx.db.query('SELECT 1')
      return { status: 'ok' as const, database: ctx.db.kind }
    },
  })
}
