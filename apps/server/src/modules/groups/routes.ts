import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import * as groups from './service.ts'

export const groupRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.groupRename, async (req) => groups.renameGroup(ctx, req.client.id, req.params.id, req.body.title))
  route(app, c.groupSplit, async (req) => groups.splitGroup(ctx, req.client.id, req.params.id, req.body.title, req.body.limit))
  route(app, c.groupResize, async (req) => groups.resizeGroup(ctx, req.client.id, req.params.id, req.body.limit))
}
