import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { COOKIES, CSRF_HEADER, SESSION_TTL_SECONDS } from '@portal/domain'
import type { Db, Queryable } from '../db/db.ts'
import { randomToken, safeEqual, sha256 } from './crypto.ts'
import { AppError } from './errors.ts'
import { findSessionClient } from './queries.ts'
import { DEVICE_API_PREFIX } from './device-api.ts'

export interface SessionClient {
  id: number
  is_staff: boolean
}

/**
 * A route's own session lookup (route config `sessionLookup`): the client of a live session by the
 * hash of its id, exactly as findSessionClient answers it, plus what the same statement reads for
 * the route (the license list's version), so a hot route saves a round trip. What it adds rides on
 * `request.session`; the route's own module reads it back.
 */
export type SessionLookup = (db: Queryable, idHash: string) => Promise<SessionClient | null>

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The signed-in client of a route declaring `auth: 'client'` or `'staff'`, which onRequest has
     * already checked; a public route reads `session` instead (reading `client` there is a bug and
     * answers 401).
     */
    readonly client: SessionClient
    /** the session's client, if any */
    session: SessionClient | null
    sessionHash: string | null
  }
  interface FastifyReply {
    /** sets the cookies of a session a service opened (sign-in, password reset) */
    setSession: (sessionId: string) => void
    /** clears the session cookies (sign-out, a session that ended) */
    clearSession: () => void
  }
  interface FastifyInstance {
    /** every route with the access it declared, for the tests that hold each route to it */
    routeAccess: RouteAccessEntry[]
  }
  interface FastifyContextConfig {
    /** who may call the route; checked before the body is parsed or validated */
    auth?: RouteAccess
    /** the route's own session lookup (SessionLookup); findSessionClient without it */
    sessionLookup?: SessionLookup
  }
}

/** `client`: a signed-in client; `staff`: a signed-in staff member; `public`: anyone. */
export type RouteAccess = 'public' | 'client' | 'staff'
export interface RouteAccessEntry {
  method: string
  url: string
  auth: RouteAccess | undefined
  /** the field error codes the route declared (error-handler.ts) */
  fieldErrors: FastifyContextConfig['fieldErrors']
}

/**
 * Paths that are called without a browser session, and so without CSRF: the device API, the local
 * CLI, and the payment providers' webhooks (each proves itself by its signature).
 */
const CSRF_EXEMPT = [new RegExp(`^${DEVICE_API_PREFIX}`), /^\/api\/admin\/cli\//, /^\/api\/payments\/webhook\//]
/** the web app's content-hashed files (web-app.ts) */
const ASSETS_PREFIX = '/app/assets/'

/**
 * Sessions: an opaque random id in an HttpOnly cookie, stored as its SHA-256 hash; a JS-readable
 * `user_status=logged` cookie; and a double-submit CSRF token (cookie echoed in X-CSRFToken).
 */
export const sessionPlugin = fp(async (app: FastifyInstance, opts: { db: Db; secure: boolean }) => {
  const { db } = opts
  const cookieBase = { path: '/', sameSite: 'lax' as const, secure: opts.secure }

  app.decorateRequest('session', null)
  app.decorateRequest('sessionHash', null)
  app.decorateRequest('client', {
    getter(this: FastifyRequest) {
      if (!this.session) throw new AppError('unauthorized')
      return this.session
    },
  })
  app.decorateReply('setSession', function (this: FastifyReply, sessionId: string) {
    const base = { ...cookieBase, maxAge: SESSION_TTL_SECONDS }
    this.setCookie(COOKIES.session, sessionId, { ...base, httpOnly: true })
    this.setCookie(COOKIES.userStatus, 'logged', { ...base, httpOnly: false })
    // a new CSRF token at sign-in, so a token planted before sign-in is not reused
    this.setCookie(COOKIES.csrf, randomToken(24), { ...base, httpOnly: false, maxAge: 365 * 24 * 3600 })
  })
  app.decorateReply('clearSession', function (this: FastifyReply) {
    this.clearCookie(COOKIES.session, cookieBase)
    this.clearCookie(COOKIES.userStatus, cookieBase)
  })

  const routeAccess: RouteAccessEntry[] = []
  app.decorate('routeAccess', routeAccess)
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth
    for (const method of [route.method].flat()) routeAccess.push({ method, url: route.url, auth, fieldErrors: route.config?.fieldErrors })
    // the OpenAPI document says which calls need the session cookie (and, for writes, the CSRF header)
    if ((auth === 'client' || auth === 'staff') && route.schema) {
      const write = [route.method].flat().some((m) => m !== 'GET' && m !== 'HEAD')
      route.schema = { ...route.schema, security: [write ? { session: [], csrf: [] } : { session: [] }] }
    }
  })

  // Identity, rights and CSRF are all settled here, in onRequest: before the body is parsed and
  // validated, so an anonymous or unprivileged caller learns nothing about the schema (401/403, not 400).
  // The calls made without a browser session (the device API above all, the hot path) pass straight
  // through: a callback hook that answers at once, with no promise or session work per request.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config?.auth === 'public' && CSRF_EXEMPT.some((re) => re.test(request.url))) return done()
    checkAccess(request, reply).then(() => done(), done)
  })

  async function checkAccess(request: FastifyRequest, reply: FastifyReply) {
    await loadSession(request, reply)
    const auth = request.routeOptions.config?.auth
    if (auth === 'client' || auth === 'staff') {
      if (!request.session) throw new AppError('unauthorized')
      if (auth === 'staff' && !request.session.is_staff) throw new AppError('forbidden_staff')
    }
  }

  async function loadSession(request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split('?')[0]!
    // the build's hashed files are the same for everyone and cached for a year: no cookie rides on them
    if (CSRF_EXEMPT.some((re) => re.test(path)) || path.startsWith(ASSETS_PREFIX)) return
    // every other response carries a CSRF token the page can echo
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
    const client = await (request.routeOptions.config?.sessionLookup ?? findSessionClient)(db, hash)
    if (client) {
      request.session = client
      request.sessionHash = hash
    } else {
      reply.clearSession()
    }
  }
})
