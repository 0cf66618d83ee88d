import { z } from './zod.ts'
import { ERRORS, type ErrorName } from './errors.ts'
import type { Permission } from './orgs.ts'

/** `client`: a signed-in client; `staff`: a signed-in staff member; `public`: anyone. */
export type RouteAccess = 'public' | 'client' | 'staff'

/** The error body every failure answers with. */
export const errorSchema = z.object({ error_code: z.string(), error: z.string(), field: z.string().optional() })
export const okSchema = z.object({ status: z.literal('ok') })

type Schema = z.ZodType

/**
 * One API call, the single source both sides read: the server registers the route from it (so
 * the OpenAPI document lists every call) and the web takes its request and answer types from it.
 */
export interface Contract {
  method: 'GET' | 'POST'
  /** the path after /api, in Fastify's `:param` form */
  path: string
  auth: RouteAccess
  /**
   * what a `client` call needs of the caller's role in the current organisation (orgs.ts `may`);
   * the session hook refuses a client call that declares none
   */
  permission?: Permission
  summary: string
  tags: readonly string[]
  params?: Schema
  query?: Schema
  body?: Schema
  /**
   * the answers by status that are not catalogue errors: the success (200, or 201 for a creation)
   * and any answer of its own shape (health's 503); none for a redirect
   */
  response: Readonly<Record<number, Schema>>
  /**
   * answers that are no JSON, by status, for the OpenAPI document only: a redirect (its Location) or
   * a file (its media type), which the route sends itself
   */
  rawAnswers?: Readonly<Record<number, { description: string; mediaType?: string }>>
  /** the catalogue errors the call can answer beyond the ones every call can (csrf, rate limit, 500) */
  errors: readonly ErrorName[]
  /** the error a schema failure on a body field answers with, instead of validation_failed */
  fieldErrors?: Readonly<Record<string, ErrorName>>
  /** the body of its errors when the call answers more than `errorSchema` (the device API's code) */
  errorBody?: Schema
  /** left out of the OpenAPI document */
  hide?: boolean
  /**
   * also callable with a customer API token (`Authorization: Bearer lp_…`) instead of the session
   * cookie, without CSRF; a `read` token on GET calls only (tokenMay). Only for `auth: 'client'`.
   */
  bearer?: boolean
}

/**
 * A contract as the browser holds it: its method and path, and the contract itself only as a type,
 * from which a call takes its request and answer types (packages/domain/src/contract-calls.ts).
 */
export interface ContractCall<C extends Contract> {
  readonly method: C['method']
  readonly path: C['path']
  /** never set: carries the contract's type */
  readonly __contract?: C
}

/** checks a contract's shape and keeps its literal types, so callers infer from its schemas */
export const contract = <const C extends Contract>(c: C): C => c

/** Errors any call can answer: a refused CSRF token, a rate limit, a fault. */
export const COMMON_ERRORS = ['csrf_failed', 'rate_limited', 'internal_server_error'] as const satisfies readonly ErrorName[]

/**
 * Every error a call can answer: its own, the ones every call can, the session's for a guarded
 * call, a schema failure for a call that takes input, and its declared field errors.
 */
export function contractErrors(c: Contract): ErrorName[] {
  const names = new Set<ErrorName>([...c.errors, ...COMMON_ERRORS])
  if (c.auth !== 'public') names.add('unauthorized')
  if (c.auth === 'staff') names.add('forbidden_staff')
  if (c.bearer) {
    for (const n of ['api_token_unknown', 'api_token_revoked', 'api_token_expired'] as const) names.add(n)
    if (c.method !== 'GET') names.add('api_token_read_only')
  } else if (c.auth !== 'public') names.add('api_token_not_accepted')
  if (c.auth === 'client' && c.permission !== 'read' && c.permission !== 'self') names.add('forbidden_role')
  if (c.params || c.query || c.body) names.add('validation_failed')
  for (const name of Object.values(c.fieldErrors ?? {})) names.add(name)
  return [...names]
}

/** The statuses of a contract's errors, each answered with the error body. */
export function errorResponses(c: Contract): Record<number, Schema> {
  const statuses = new Set(contractErrors(c).map((name) => ERRORS[name].status as number))
  return Object.fromEntries([...statuses].sort().map((s) => [s, c.errorBody ?? errorSchema]))
}

type Infer<S> = S extends Schema ? z.output<S> : undefined
type Input<S> = S extends Schema ? z.input<S> : undefined

/** what a call answers on success */
export type ContractResponse<C extends Contract> = C['response'] extends { 200: infer S } ? Infer<S> : C['response'] extends { 201: infer S } ? Infer<S> : never
export type ContractBody<C extends Contract> = Input<C['body']>
export type ContractParams<C extends Contract> = Input<C['params']>
export type ContractQuery<C extends Contract> = Input<C['query']>
/** the server-side view of a request: what the schemas let through */
export interface ContractRequest<C extends Contract> {
  Params: Infer<C['params']>
  Body: Infer<C['body']>
  Querystring: Infer<C['query']>
}

/** the URL of a call with its path parameters filled in */
export function contractUrl(c: Pick<Contract, 'path'>, params?: Record<string, string | number>): string {
  return `/api${c.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const v = params?.[name]
    if (v === undefined) throw new Error(`${c.path}: missing :${name}`)
    return encodeURIComponent(String(v))
  })}`
}
