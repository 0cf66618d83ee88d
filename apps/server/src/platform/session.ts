import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import {
  COOKIES,
  CSRF_HEADER,
  SESSION_TTL_SECONDS,
  TOKEN_LAST_USED_EVERY_SECONDS,
  isTokenShape,
  may,
  tokenMay,
  type Permission,
  type Role,
  type TokenScope,
} from '@portal/domain'
import type { Db, Queryable } from '../db/db.ts'
import { randomToken, safeEqual, sha256 } from './crypto.ts'
import { AppError } from './errors.ts'
import { findBearerToken, findSessionClient } from './queries.ts'
import { DEVICE_API_PREFIX } from './device-api.ts'
import { BatchedLimiter } from './rate-limit.ts'

export interface SessionClient {
  /** the account the request acts for (the session's current organisation): every service's client id */
  id: number
  is_staff: boolean
  /** the signed-in person, who the history records as having acted */
  actor_id: number
  /** the person's role in that account, which each client route's permission is checked against */
  role: Role
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
    /** the API token a bearer call was made with (null for a cookie call) */
    apiToken: { id: number; scope: TokenScope } | null
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
    /** what a client route needs of the caller's role (the contract's `permission`) */
    permission?: Permission
    /** the route's own session lookup (SessionLookup); findSessionClient without it */
    sessionLookup?: SessionLookup
    /** the call also takes a customer API token (the contract's `bearer`) */
    bearer?: boolean
  }
}

/** `client`: a signed-in client; `staff`: a signed-in staff member; `public`: anyone. */
export type RouteAccess = 'public' | 'client' | 'staff'
export interface RouteAccessEntry {
  method: string
  url: string
  auth: RouteAccess | undefined
  permission: Permission | undefined
  /** the field error codes the route declared (error-handler.ts) */
  fieldErrors: FastifyContextConfig['fieldErrors']
  /** the route takes a customer API token */
  bearer: boolean
}

/**
 * Paths that are called without a browser session, and so without CSRF: the device API, the local
 * CLI, and the payment providers' webhooks (each proves itself by its signature).
 */
const CSRF_EXEMPT = [new RegExp(`^${DEVICE_API_PREFIX}`), /^\/api\/admin\/cli\//, /^\/api\/payments\/webhook\//]
/** the web app's content-hashed files (web-app.ts) */
const ASSETS_PREFIX = '/app/assets/'

/** `Authorization: Bearer <token>`: the token, or null when the header is absent or of another scheme */
function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  if (typeof header !== 'string') return null
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header)
  return m ? m[1]! : null
}

/** the device API's limits (per key, per address, a minute), which bearer calls share per token */
export interface BearerLimits {
  perKey: number
  perIp: number
}

/**
 * Sessions: an opaque random id in an HttpOnly cookie, stored as its SHA-256 hash; a JS-readable
 * `user_status=logged` cookie; and a double-submit CSRF token (cookie echoed in X-CSRFToken).
 * Customer API tokens: `Authorization: Bearer lp_…` on the routes whose contract says `bearer`,
 * in place of the cookie and without CSRF (a browser never sends the header by itself).
 */
export const sessionPlugin = fp(async (app: FastifyInstance, opts: { db: Db; secure: boolean; bearerLimits: BearerLimits }) => {
  const { db } = opts
  // the device API's accounting: counted in the process, flushed to the shared counters (rate-limit.ts)
  const limiter = new BatchedLimiter(db.relaxed, 60, 200, { log: app.log })
  app.addHook('onClose', async () => limiter.stop())
  const cookieBase = { path: '/', sameSite: 'lax' as const, secure: opts.secure }

  app.decorateRequest('session', null)
  app.decorateRequest('sessionHash', null)
  app.decorateRequest('apiToken', null)
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
    const bearer = route.config?.bearer === true
    if (bearer && auth !== 'client') throw new Error(`${route.url}: only a client call can take an API token`)
    for (const method of [route.method].flat())
      routeAccess.push({ method, url: route.url, auth, permission: route.config?.permission, fieldErrors: route.config?.fieldErrors, bearer })
    // the OpenAPI document says which calls need the session cookie (and, for writes, the CSRF header),
    // and which take an API token instead
    if ((auth === 'client' || auth === 'staff') && route.schema) {
      const write = [route.method].flat().some((m) => m !== 'GET' && m !== 'HEAD')
      const cookie: Record<string, string[]> = write ? { session: [], csrf: [] } : { session: [] }
      route.schema = { ...route.schema, security: bearer ? [cookie, { bearer: [] }] : [cookie] }
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
    const token = request.routeOptions.config?.auth === 'public' || request.is404 ? null : bearerOf(request)
    if (token !== null) return bearerAccess(request, token)
    await loadSession(request, reply)
    const auth = request.routeOptions.config?.auth
    if (auth === 'client' || auth === 'staff') {
      if (!request.session) throw new AppError('unauthorized')
      if (auth === 'staff' && !request.session.is_staff) throw new AppError('forbidden_staff')
      // a client route without a declared permission is refused, so none can forget it
      if (auth === 'client' && !permitted(request.session.role, request.routeOptions.config?.permission)) throw new AppError('forbidden_role')
    }
  }

  /**
   * A call with an API token: the route must take one (sign-in, account, tokens and purchases never
   * do), the device API's rate limits per token and per address, then the token itself (unknown,
   * revoked, expired: each its own 401), its creator's role in the account capped by its scope (a
   * read token acts as a viewer) against the route's permission, and its scope for the method
   * (tokenMay). A token whose creator has left the account acts no more. No cookie is read or set,
   * and no CSRF token is asked for.
   */
  async function bearerAccess(request: FastifyRequest, token: string) {
    if (request.routeOptions.config?.bearer !== true) throw new AppError('api_token_not_accepted')
    const hash = sha256(token)
    const limits = opts.bearerLimits
    if (
      !limiter.take([
        { key: `api:token:${hash}`, max: limits.perKey },
        { key: `api:ip:${request.ip}`, max: limits.perIp },
      ])
    ) {
      throw new AppError('rate_limited')
    }
    const found = isTokenShape(token) ? await findBearerToken(db, hash, TOKEN_LAST_USED_EVERY_SECONDS) : null
    if (!found) throw new AppError('api_token_unknown')
    if (found.revoked) throw new AppError('api_token_revoked')
    if (found.expired) throw new AppError('api_token_expired')
    if (found.creator_id === null || found.creator_role === null) throw new AppError('api_token_revoked')
    const role: Role = found.scope === 'read' ? 'viewer' : found.creator_role
    if (!tokenMay(found.scope, request.method)) throw new AppError('api_token_read_only')
    if (!permitted(role, request.routeOptions.config?.permission)) throw new AppError('forbidden_role')
    request.session = { id: found.client_id, is_staff: found.is_staff, actor_id: found.creator_id, role }
    request.apiToken = { id: found.id, scope: found.scope }
  }

  async function loadSession(request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split('?')[0]!
    // no route: the not-found handler answers 404, or 405 for a method the path is not served with,
    // before any CSRF check (nothing would be done, so nothing needs guarding)
    if (request.is404) return
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

/** The one check of a role against a route's declared permission (none declared: refused). */
export const permitted = (role: Role, permission: Permission | undefined): boolean => permission !== undefined && may(role, permission)
