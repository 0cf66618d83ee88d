import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../context.ts'
import { listChangelog } from './queries.ts'

const entry = z.object({ version: z.string(), date: z.string(), changes: z.array(z.string()) })

export const catalogueRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/changelog/', {
    config: { auth: 'public' },
    schema: { tags: ['changelog'], summary: 'Release notes, newest first', response: { 200: z.object({ entries: z.array(entry) }) } },
    handler: async () => ({ entries: await listChangelog(ctx.db) }),
  })
}
