import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import * as tokens from './service.ts'

/** With the session cookie only (none of these contracts is `bearer`): a token cannot make or revoke tokens. */
export const tokenRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.tokenList, async (req) => tokens.listAccountTokens(ctx, req.client.id))
  route(app, c.tokenCreate, async (req, reply) => reply.status(201).send(await tokens.createToken(ctx, req.client.id, req.client.actor_id, req.body)))
  route(app, c.tokenRevoke, async (req) => tokens.revokeAccountToken(ctx, req.client.id, req.params.id))
}
