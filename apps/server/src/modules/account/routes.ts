import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import { getProfile, updateClient } from './service.ts'

export const accountRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.profile, async (req) => getProfile(ctx, req.client.id, req.client))
  route(app, c.profileUpdate, async (req) => updateClient(ctx, req.ip, req.client.id, req.body))
}
