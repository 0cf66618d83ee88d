import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { ExternalLinks } from './links.ts'

/**
 * GET /external_resource/link/{name}/: a redirect to the configured address. An unknown name is a
 * plain not-found, which a browser sees as the portal's not-found screen.
 */
export const linkRoutes: FastifyPluginAsyncZod<{ links: ExternalLinks }> = async (app, { links }) => {
  app.get('/external_resource/link/:name/', {
    schema: {
      tags: ['service'],
      summary: 'Redirect to a documentation or community page by its name',
      params: z.object({ name: z.string() }),
    },
    handler: async (req, reply) => {
      const { name } = req.params
      const url = Object.hasOwn(links, name) ? links[name] : undefined
      if (!url) return reply.callNotFound()
      return reply.redirect(url, 302)
    },
  })
}
