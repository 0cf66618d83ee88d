import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import { validatePromo } from './service.ts'

export const promoRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.promoValidate, async (req) => validatePromo(ctx, req.client.id, req.body))
}
