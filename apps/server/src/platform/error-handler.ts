import type { FastifyContextConfig, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { apiError, messageFor, type ApiError, type ErrorName } from '@portal/domain'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { isConnectionError } from '../db/db.ts'
import { AppError } from './errors.ts'

/** How failures become HTTP answers; the errors themselves (errors.ts) know nothing of HTTP. */

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The catalogue error a failing body field answers, declared beside the route's schema (spec
     * section 8 names codes per field for the sign-in family; a refused title is bad_title). A field
     * not named here answers validation_failed. Keyed by the field's own name, at any depth.
     */
    fieldErrors?: Readonly<Record<string, ErrorName>>
  }
}

/**
 * The answer to a refused body field. The field is named by its whole path (`company.name`), so a
 * form puts the error at that input and not at another that shares the last segment (the person's
 * `name`); the declared code is looked up by the field's own name.
 */
function fieldError(path: string, messageKey: string, declared: FastifyContextConfig['fieldErrors']): ApiError {
  const own = path.split('.').pop() ?? path
  // own keys only: a field named constructor or toString must not find Object.prototype's
  const name = declared && Object.hasOwn(declared, own) ? declared[own]! : 'validation_failed'
  return apiError(name, messageFor(messageKey), path)
}

/** Quality of the best Accept entry covering a media type (an exact type beats type/*, which beats any). */
function acceptQuality(accept: string, type: string): number {
  const [major] = type.split('/')
  let best = { specificity: -1, q: 0 }
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';')
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1
    if (specificity < best.specificity || specificity < 0) continue
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean)
    best = { specificity, q: q === undefined ? 1 : Number(q) || 0 }
  }
  return best.q
}

/** A browser navigating (Accept prefers HTML over JSON), as opposed to a script calling the API. */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false
  const html = acceptQuality(accept, 'text/html')
  return html > 0 && html > acceptQuality(accept, 'application/json')
}

export interface ErrorHandlerOptions {
  /** the single-page app's index.html, once it is known: a browser's unknown page shows its not-found screen */
  notFoundPage?: () => string | undefined
}

/** the methods the API's routes are served with (contracts: GET and POST; Fastify adds HEAD to a GET) */
const ROUTE_METHODS = ['GET', 'HEAD', 'POST'] as const

export function installErrorHandler(app: FastifyInstance, opts: ErrorHandlerOptions = {}) {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      if (err.status >= 500) request.log.error({ err }, 'app error')
      return reply.status(err.status).send(err.body)
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0]
      const segments = String(first?.instancePath ?? '')
        .split('/')
        .filter(Boolean)
      let key = first?.message ?? 'validation_failed'
      if (first?.keyword === 'invalid_key') {
        // a record key failed: the field is the record, the key itself is the caller's text
        segments.pop()
        const inner = (first.params as { issues?: { message?: string }[] }).issues?.[0]?.message
        if (inner) key = inner
      }
      const path = segments.join('.')
      return reply.status(400).send(fieldError(path || 'body', key, request.routeOptions.config?.fieldErrors))
    }
    if (err.validation) {
      return reply.status(400).send(apiError('validation_failed', err.message))
    }
    const status = err.statusCode ?? 500
    if (status === 429) return reply.status(429).send(apiError('rate_limited'))
    if (status >= 400 && status < 500) {
      // body too large, bad JSON, unsupported media type: a 4xx with our shape, its text is safe
      return reply.status(status).send(apiError('validation_failed', err.message))
    }
    if (isConnectionError(err)) {
      // the database is restarting or out of reach: a retryable answer, and the pool reconnects
      request.log.warn({ err }, 'database unavailable')
      return reply.status(503).header('retry-after', '5').send(apiError('database_unavailable'))
    }
    request.log.error({ err }, 'unhandled error')
    return reply.status(500).send(apiError('internal_server_error'))
  })
  app.setNotFoundHandler((request, reply) => {
    // no browser navigation ends on raw JSON: outside the API a page request gets the app, whose
    // router shows the not-found screen; the status stays 404
    const page = opts.notFoundPage?.()
    const path = request.url.split('?')[0] ?? ''
    const api = path === '/api' || path.startsWith('/api/')
    if (page && !api && (request.method === 'GET' || request.method === 'HEAD') && prefersHtml(request.headers.accept)) {
      return reply.status(404).type('text/html').header('cache-control', 'no-cache').send(page)
    }
    // a path served for other methods (TRACE, PUT on a POST route): 405 and the methods it takes
    const allowed = api ? ROUTE_METHODS.filter((method) => app.findRoute({ method, url: path })) : []
    if (allowed.length) return reply.status(405).header('allow', allowed.join(', ')).send(apiError('method_not_allowed'))
    reply.status(404).send(apiError('route_not_found', `Route ${request.method} ${request.url.split('?')[0]} not found`))
  })
}

/**
 * The router's own refusals (a path that is not valid percent-encoding, a path parameter over the
 * router's length limit) come here instead of the error handler: the same coded answer as any path
 * the portal cannot read.
 */
export function frameworkErrors(_err: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  void reply.status(400).send(apiError('token_invalid_path'))
}
