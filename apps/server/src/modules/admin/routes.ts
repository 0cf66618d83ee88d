import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { text } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { runCommand } from '../../cli/commands.ts'
import { safeEqual } from '../../platform/crypto.ts'
import { AppError } from '../../platform/errors.ts'

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/**
 * With PGlite only the running portal may open the database, so the CLI hands its command to the
 * portal: loopback only, with the token the portal wrote into DATA_DIR at start.
 */
export const adminCliRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; token: string }> = async (app, { ctx, token }) => {
  app.post('/admin/cli/', {
    config: { auth: 'public' }, // the loopback address and the token guard it
    schema: {
      hide: true,
      body: z.object({ argv: z.array(text().max(500)).max(20) }),
      response: { 200: z.object({ code: z.number(), output: z.string() }) },
    },
    handler: async (req) => {
      const given = req.headers['x-admin-token']
      if (!LOOPBACK.has(req.socket.remoteAddress ?? '') || typeof given !== 'string' || !safeEqual(given, token)) {
        throw new AppError('forbidden_staff', 'The CLI endpoint is only for the local CLI')
      }
      return runCommand(ctx.db, req.body.argv)
    },
  })
}
