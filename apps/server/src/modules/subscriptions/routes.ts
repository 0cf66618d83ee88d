import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import { payRenewal, renewalPaymentView } from './renewal-payment.ts'
import { cancelSubscription, reactivateSubscription } from './service.ts'

export const subscriptionRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.licenseCancelSubscription, async (req) => cancelSubscription(ctx, req.client.id, req.params.id))
  route(app, c.licenseReactivateSubscription, async (req) => reactivateSubscription(ctx, req.client.id, req.params.id, req.body))
  route(app, c.licenseRenewalPayment, async (req) => renewalPaymentView(ctx, req.client.id, req.params.id))
  route(app, c.licensePayRenewal, async (req) => payRenewal(ctx, req.client.id, req.params.id, req.body))
}
