import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import { runCommand } from '../../cli/commands.ts'
import { safeEqual } from '../../platform/crypto.ts'
import { AppError } from '../../platform/errors.ts'
import { isSandboxProvider } from '../payments/service.ts'

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/**
 * With PGlite only the running portal may open the database, so the CLI hands its command to the
 * portal: loopback only, with the token the portal wrote into DATA_DIR at start.
 */
export const adminCliRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; token: string }> = async (app, { ctx, token }) => {
  route(app, c.adminCli, async (req) => {
    const given = req.headers['x-admin-token']
    if (!LOOPBACK.has(req.socket.remoteAddress ?? '') || typeof given !== 'string' || !safeEqual(given, token)) {
      throw new AppError('forbidden_staff', 'The CLI endpoint is only for the local CLI')
    }
    // the portal's own sandbox: its secret and its listening address
    const sandbox = ctx.payments.byName('sandbox')
    return runCommand(ctx.db, req.body.argv, {
      sandboxWebhooks: () => (sandbox && isSandboxProvider(sandbox) ? sandbox.webhooks : undefined),
      ctx: () => Promise.resolve(ctx),
      keyring: () => Promise.resolve(ctx.keyring),
    })
  })
}
