import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import { route } from '../../platform/contract-route.ts'

/** Where the support and cloud-service links of the portal lead. */
export const SERVICE_URLS = {
  freshdesk: 'https://support.3divi.com/support/tickets/new',
  'face-machine': 'https://face-machine.3divi.com/',
  'nuitrack-analytics': 'https://analytics.nuitrack.com/',
} as const

export const serviceRedirectRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, c.serviceRedirect, async (req, reply) => {
    const url = new URL(SERVICE_URLS[req.query.service])
    if (req.query.license_id) url.searchParams.set('license_id', String(req.query.license_id))
    return reply.redirect(url.toString(), 302)
  })
}
