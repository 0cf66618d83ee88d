import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import helmet, { type HelmetOptions } from 'helmet'
import { DEVICE_API_PREFIX } from './device-api.ts'

/**
 * The headers helmet sets with these options, worked out once: helmet's options do not depend on the
 * request, and @fastify/helmet rebuilt the middleware (parsing the CSP directives) on every request,
 * the largest single cost of a device-API call after the socket writes.
 */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {}
  const res = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  }
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err
  })
  return headers
}

/**
 * Security headers for every response (helmet): a Content-Security-Policy that fits the built web
 * app, HSTS when the portal is served over https, no framing, no sniffing. API answers are never
 * stored by a browser or proxy cache: they carry the client's data and tokens.
 */
export const securityHeaders = fp(async (app: FastifyInstance, opts: { https: boolean }) => {
  const headers = helmetHeaders({
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
  // The device API answers JSON to programs, never a page a browser renders: the document headers
  // above (a page's CSP, opener, referrer and download policies) mean nothing there. It keeps
  // OWASP's REST set: no sniffing, no framing, a CSP that allows nothing, HSTS on https, and no-store
  // (below, as every API answer): a third of the bytes of its hot path's answer.
  const deviceHeaders: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    ...(headers['strict-transport-security'] ? { 'strict-transport-security': headers['strict-transport-security'] } : {}),
  }
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith(DEVICE_API_PREFIX) ? deviceHeaders : headers)
    done()
  })

  // a callback hook: no promise per answer
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store')
    done(null, payload)
  })
})
