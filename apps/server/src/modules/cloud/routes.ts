import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import * as cloud from './service.ts'

/** The cloud services' calls (Face Machine, Nuitrack Analytics); their workspace calls are in modules/licenses. */
export const cloudRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.faceMachineRates, async () => cloud.faceMachineRates())
  route(app, c.analyticsUpgradeCost, async (req) => cloud.analyticsUpgradeCost(ctx, req.client.id, req.params.id))
}
