import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import * as upgrades from './service.ts'

export const upgradeRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.licenseUpgrade, async (req) => upgrades.upgradeLicense(ctx, req.client.id, req.params.id, req.body))
  route(app, c.groupUpgrade, async (req) => upgrades.upgradeGroup(ctx, req.client.id, req.params.id, req.body))
}
