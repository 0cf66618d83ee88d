import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { COOKIES, CSRF_HEADER, SESSION_TTL_SECONDS, isSafeText } from '@portal/domain'
import type { Db, Queryable } from '../db/db.ts'
import { randomToken, safeEqual, sha256 } from './crypto.ts'
import { AppError } from './errors.ts'

export interface SessionClient {
  id: number
  is_staff: boolean
}

declare module 'fastify' {
  interface FastifyRequest {
    client: SessionClient | null
    sessionHash: string | null
  }
  interface FastifyInstance {
    requireClient: (request: FastifyRequest) => SessionClient
    requireStaff: (request: FastifyRequest) => SessionClient
    /** every route with the access it declared, for the tests that hold each route to it */
    routeAccess: RouteAccessEntry[]
  }
  interface FastifyContextConfig {
    /** who may call the route; checked before the body is parsed or validated */
    auth?: RouteAccess
  }
}

/** `client`: a signed-in client; `staff`: a signed-in staff member; `public`: anyone. */
export type RouteAccess = 'public' | 'client' | 'staff'
export interface RouteAccessEntry {
  method: string
  url: string
  auth: RouteAccess | undefined
}

/** Paths that are called without a browser session, and so without CSRF (the device API, later). */
const CSRF_EXEMPT = [/^\/api\/sdk\//, /^\/api\/admin\/cli\//]

/**
 * Sessions: an opaque random id in an HttpOnly cookie, stored as its SHA-256 hash; a JS-readable
 * `user_status=logged` cookie; and a double-submit CSRF token (cookie echoed in X-CSRFToken).
 */
export const sessionPlugin = fp(async (app: FastifyInstance, opts: { db: Db; secure: boolean }) => {
  const { db } = opts
  const cookieBase = { path: '/', sameSite: 'lax' as const, secure: opts.secure }

  app.decorateRequest('client', null)
  app.decorateRequest('sessionHash', null)

  const routeAccess: RouteAccessEntry[] = []
  app.decorate('routeAccess', routeAccess)
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth
    for (const method of [route.method].flat()) routeAccess.push({ method, url: route.url, auth })
    // the OpenAPI document says which calls need the session cookie (and, for writes, the CSRF header)
    if ((auth === 'client' || auth === 'staff') && route.schema) {
      const write = [route.method].flat().some((m) => m !== 'GET' && m !== 'HEAD')
      route.schema = { ...route.schema, security: [write ? { session: [], csrf: [] } : { session: [] }] }
    }
  })

  // Identity, rights and CSRF are all settled here, in onRequest: before the body is parsed and
  // validated, so an anonymous or unprivileged caller learns nothing about the schema (401/403, not 400).
  app.addHook('onRequest', async (request, reply) => {
    await loadSession(request, reply)
    const auth = request.routeOptions.config?.auth
    if (auth === 'client' || auth === 'staff') {
      if (!request.client) throw new AppError('unauthorized')
      if (auth === 'staff' && !request.client.is_staff) throw new AppError('forbidden_staff')
    }
  })

  async function loadSession(request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split('?')[0]!
    if (CSRF_EXEMPT.some((re) => re.test(path))) return
    // every response carries a CSRF token the page can echo
    if (!request.cookies[COOKIES.csrf]) {
      const token = randomToken(24)
      request.cookies[COOKIES.csrf] = token
      reply.setCookie(COOKIES.csrf, token, { ...cookieBase, httpOnly: false, maxAge: 365 * 24 * 3600 })
    }
    if (!request.url.startsWith('/api/')) return
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') {
      const header = request.headers[CSRF_HEADER]
      const cookie = request.cookies[COOKIES.csrf]
      if (typeof header !== 'string' || !cookie || !safeEqual(header, cookie)) throw new AppError('csrf_failed')
    }
    const sid = request.cookies[COOKIES.session]
    // the health check answers for the database itself, so a cookie must not turn it into an error
    if (!sid || path === '/api/health/') return
    const hash = sha256(sid)
    const rows = await db.query<{ id: number; is_staff: boolean }>(
      `SELECT c.id, c.is_staff FROM sessions s JOIN clients c ON c.id = s.client_id
        WHERE s.id_hash = $1 AND s.expires_at > now()`,
      [hash],
    )
    if (rows[0]) {
      request.client = rows[0]
      request.sessionHash = hash
    } else {
      clearSessionCookies(reply, opts.secure)
    }
  }

  app.decorate('requireClient', (request: FastifyRequest) => {
    if (!request.client) throw new AppError('unauthorized')
    return request.client
  })
  app.decorate('requireStaff', (request: FastifyRequest) => {
    const client = app.requireClient(request)
    if (!client.is_staff) throw new AppError('forbidden_staff')
    return client
  })
})

const safeUserAgent = (header: string | undefined) => {
  const ua = header?.slice(0, 300)
  return ua && isSafeText(ua) ? ua : null
}

export async function startSession(tx: Queryable, reply: FastifyReply, clientId: number, secure: boolean, userAgent?: string) {
  const sid = randomToken(32)
  await tx.query(
    `INSERT INTO sessions (id_hash, client_id, expires_at, user_agent)
     VALUES ($1, $2, now() + make_interval(secs => $3), $4)`,
    // a header is the caller's text too (HTTP parsers refuse NUL, but not every path in is an HTTP parser)
    [sha256(sid), clientId, SESSION_TTL_SECONDS, safeUserAgent(userAgent)],
  )
  const base = { path: '/', sameSite: 'lax' as const, secure, maxAge: SESSION_TTL_SECONDS }
  reply.setCookie(COOKIES.session, sid, { ...base, httpOnly: true })
  reply.setCookie(COOKIES.userStatus, 'logged', { ...base, httpOnly: false })
  // a new CSRF token at sign-in, so a token planted before sign-in is not reused
  reply.setCookie(COOKIES.csrf, randomToken(24), { ...base, httpOnly: false, maxAge: 365 * 24 * 3600 })
}

export function clearSessionCookies(reply: FastifyReply, secure: boolean) {
  const base = { path: '/', sameSite: 'lax' as const, secure }
  reply.clearCookie(COOKIES.session, base)
  reply.clearCookie(COOKIES.userStatus, base)
}
