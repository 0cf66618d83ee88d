import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import { sendFeedback } from './service.ts'

export const feedbackRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.feedbackCreate, async (req) => sendFeedback(ctx, req.client.id, req.body))
}
