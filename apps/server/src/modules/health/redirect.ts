import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'

/** Where the support and cloud-service links of the portal lead. */
export const SERVICE_URLS = {
  freshdesk: 'https://support.3divi.com/support/tickets/new',
  'face-machine': 'https://face-machine.3divi.com/',
  'nuitrack-analytics': 'https://analytics.nuitrack.com/',
} as const

export const serviceRedirectRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/service/redirect/', {
    config: { auth: 'public' },
    schema: {
      tags: ['service'],
      summary: 'Redirect to the helpdesk or a cloud service, with the license id where relevant',
      querystring: z.object({
        service: z.enum(['freshdesk', 'face-machine', 'nuitrack-analytics']),
        license_id: z.coerce.number().int().positive().optional(),
      }),
    },
    handler: async (req, reply) => {
      const url = new URL(SERVICE_URLS[req.query.service])
      if (req.query.license_id) url.searchParams.set('license_id', String(req.query.license_id))
      return reply.redirect(url.toString(), 302)
    },
  })
}
