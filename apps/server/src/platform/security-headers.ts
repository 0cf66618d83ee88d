import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import helmet from '@fastify/helmet'

/**
 * Security headers for every response (helmet): a Content-Security-Policy that fits the built web
 * app, HSTS when the portal is served over https, no framing, no sniffing. API answers are never
 * stored by a browser or proxy cache: they carry the client's data and tokens.
 */
export const securityHeaders = fp(async (app: FastifyInstance, opts: { https: boolean }) => {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'connect-src': ["'self'"],
        'font-src': ["'self'", 'data:'],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        'img-src': ["'self'", 'data:'],
        'object-src': ["'none'"],
        'script-src': ["'self'"],
        'script-src-attr': ["'none'"],
        // Mantine writes its CSS variables and component styles into <style> elements and style attributes
        'style-src': ["'self'", "'unsafe-inline'"],
        // on plain http (local development) an upgrade would send the page's own requests to https
        ...(opts.https ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    // the portal speaks for its own host only, not for sibling subdomains
    hsts: opts.https ? { maxAge: 365 * 24 * 3600, includeSubDomains: false } : false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // the SDK and the CLI call the API from outside a browser; nothing of ours is embedded elsewhere
    crossOriginEmbedderPolicy: false,
  })

  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store')
  })
})
