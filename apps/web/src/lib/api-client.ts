import i18next from 'i18next'
import {
  COOKIES,
  ERRORS,
  GENERIC_MESSAGES,
  UNAUTHORIZED_TEXT,
  allMessages,
  contractUrl,
  type Contract,
  type ContractCall,
  type ContractBody,
  type ContractParams,
  type ContractQuery,
  type ContractResponse,
  type ErrorName,
} from '@portal/domain'
import { readCookie } from './cookies.ts'
import { errorStore } from './error-store.ts'
import { notifySession } from './session.ts'

/**
 * The one way the app talks to the API (spec section 7 and the generic error handling of section 8):
 * same-origin cookies, GET parameters in the query string, JSON POSTs with the CSRF header.
 * Errors the caller does not say it handles open the global error modal; every failure also
 * rejects with an ApiError so the caller can stop its own progress state.
 */

export const NETWORK_ERROR_DELAY_MS = 2000
const RETRY_STEP_MS = 250

export class ApiError extends Error {
  readonly status: number
  /** error_code of the answer; 'network_error' or 'internal_server_error' for failures without one */
  readonly code: string | null
  readonly field: string | undefined
  /** true when the global error modal already told the user */
  readonly shown: boolean

  constructor(opts: { status: number; code: string | null; message: string; field?: string; shown: boolean }) {
    super(opts.message)
    this.name = 'ApiError'
    this.status = opts.status
    this.code = opts.code
    this.field = opts.field
    this.shown = opts.shown
  }
}

type ParamValue = string | number | boolean | null | undefined
export interface RequestOptions {
  params?: Record<string, ParamValue>
  /** catalogue errors the caller shows itself (field errors, special screens): no modal for these */
  handle?: readonly ErrorName[]
  /** no modal at all, whatever the failure (the caller decides) */
  silent?: boolean
  /** the catalogue error an error answer without a code stands for (a refill's: external_payments_unavailable) */
  codeless?: ErrorName
  signal?: AbortSignal
  /**
   * a GET whose answer carries an ETag but `no-store` (the license list): the last answer is kept in
   * memory and revalidated with If-None-Match, so a 304 spares the body and nothing lands on disk
   */
  revalidate?: boolean
}

const knownCodes = new Set(Object.keys(allMessages()))
export const isKnownCode = (code: string) => knownCodes.has(code)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function withParams(url: string, params?: Record<string, ParamValue>): string {
  if (!params) return url
  const qs = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) qs.set(k, String(v))
  const s = qs.toString()
  return s ? `${url}${url.includes('?') ? '&' : '?'}${s}` : url
}

function fail(opts: { status: number; code: string | null; message: string; field?: string; modal: ErrorModalInput | null; silent?: boolean }): never {
  const show = opts.modal !== null && !opts.silent
  if (show) errorStore.show(opts.modal!)
  throw new ApiError({ status: opts.status, code: opts.code, message: opts.message, field: opts.field, shown: show })
}
type ErrorModalInput = Parameters<typeof errorStore.show>[0]

/** fetch that waits out short network failures: GETs are retried, and the error shows only after 2 s. */
async function fetchPatiently(url: string, init: RequestInit, opts: RequestOptions): Promise<Response> {
  const started = Date.now()
  for (;;) {
    try {
      return await fetch(url, init)
    } catch (err) {
      if (init.signal?.aborted) throw err
      const elapsed = Date.now() - started
      if (elapsed < NETWORK_ERROR_DELAY_MS) {
        if (init.method === 'GET') {
          await sleep(Math.min(RETRY_STEP_MS, NETWORK_ERROR_DELAY_MS - elapsed))
          continue
        }
        // a POST is not repeated (it may have arrived); the error still waits for the 2 s mark
        await sleep(NETWORK_ERROR_DELAY_MS - elapsed)
      }
      return fail({
        status: 0,
        code: 'network_error',
        message: 'network_error',
        modal: { kind: 'error', message: 'network_error' },
        silent: opts.silent,
      })
    }
  }
}

interface ErrorBody {
  error_code?: unknown
  error?: unknown
  field?: unknown
}

/** the last answer of each revalidated GET by URL (RequestOptions.revalidate); the tag names the client */
const revalidated = new Map<string, { etag: string; data: unknown }>()
const REVALIDATED_MAX = 50

async function request<T>(method: 'GET' | 'POST', path: string, body: unknown, opts: RequestOptions = {}): Promise<T> {
  const handled = new Set<string>((opts.handle ?? []).map((name) => ERRORS[name].code))
  // callers may give the path after /api
  const url = path.startsWith('/api/') ? path : `/api${path.startsWith('/') ? '' : '/'}${path}`
  const headers: Record<string, string> = { Accept: 'application/json' }
  const init: RequestInit = { method, credentials: 'same-origin', headers, signal: opts.signal }
  if (method === 'POST') {
    headers['Content-Type'] = 'application/json'
    const csrf = readCookie(COOKIES.csrf)
    if (csrf) headers['X-CSRFToken'] = csrf
    init.body = JSON.stringify(body ?? {})
  }
  const target = withParams(url, opts.params)
  const kept = opts.revalidate ? revalidated.get(target) : undefined
  if (kept) headers['If-None-Match'] = kept.etag
  const res = await fetchPatiently(target, init, opts)
  if (kept && res.status === 304) return kept.data as T
  const ise = { kind: 'error', message: 'internal_server_error' } as const

  let text: string
  try {
    text = await res.text()
  } catch {
    return fail({ status: res.status, code: 'internal_server_error', message: 'internal_server_error', modal: ise, silent: opts.silent })
  }
  let data: unknown = undefined
  if (text !== '') {
    try {
      data = JSON.parse(text)
    } catch {
      // an error page that is no JSON (a proxy's 502) has no code either
      if (!res.ok && opts.codeless) data = undefined
      else {
        if (!res.ok) notifySession()
        return fail({ status: res.status, code: 'internal_server_error', message: 'internal_server_error', modal: ise, silent: opts.silent })
      }
    }
  }
  if (res.ok) {
    const etag = res.headers.get('etag')
    if (opts.revalidate && etag) {
      revalidated.delete(target)
      revalidated.set(target, { etag, data })
      // the oldest first out: a Map iterates in insertion order
      if (revalidated.size > REVALIDATED_MAX) revalidated.delete(revalidated.keys().next().value!)
    }
    return data as T
  }

  // the logged flag follows the user_status cookie: recheck it on every failed answer
  notifySession()
  const err: ErrorBody = data && typeof data === 'object' ? (data as ErrorBody) : {}
  const given = typeof err.error_code === 'string' && err.error_code !== '' ? err.error_code : null
  const code = given ?? (opts.codeless ? ERRORS[opts.codeless].code : null)
  const text_ = typeof err.error === 'string' ? err.error : ''
  const field = typeof err.field === 'string' ? err.field : undefined

  if (text_ === UNAUTHORIZED_TEXT) {
    return fail({ status: res.status, code, message: text_, field, modal: { kind: 'unauthorized', message: 'unauthorized' }, silent: opts.silent })
  }
  if (code === null) {
    return fail({
      status: res.status,
      code: null,
      message: text_ || 'missing_code',
      field,
      modal: { kind: 'error', message: 'missing_code' },
      silent: opts.silent,
    })
  }
  if (handled.has(code)) {
    return fail({ status: res.status, code, message: text_, field, modal: null })
  }
  const modal: ErrorModalInput = isKnownCode(code) ? { kind: 'error', message: code } : ise
  return fail({ status: res.status, code, message: text_, field, modal, silent: opts.silent })
}

export const api = {
  get: <T>(url: string, opts?: RequestOptions) => request<T>('GET', url, undefined, opts),
  post: <T>(url: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', url, body, opts),
}

/** what a call takes: path parameters (numbers welcome), query and body, each only where the contract has one */
export type CallInput<C extends Contract> = (C['params'] extends object
  ? { params: { [K in keyof ContractParams<C>]: string | number } }
  : { params?: never }) &
  (C['query'] extends object ? { query: ContractQuery<C> } : { query?: never }) &
  (C['body'] extends object ? { body: ContractBody<C> } : { body?: never })

/** A call by its contract: the URL, the method and the request and answer types all come from it. */
export function call<C extends Contract>(c: ContractCall<C>, input: CallInput<C>, opts: RequestOptions = {}): Promise<ContractResponse<C>> {
  const url = contractUrl(c, input.params as Record<string, string | number> | undefined)
  const query = input.query as Record<string, ParamValue> | undefined
  const withQuery: RequestOptions = query ? { ...opts, params: { ...query, ...opts.params } } : opts
  return request<ContractResponse<C>>(c.method, url, c.method === 'POST' ? (input.body ?? {}) : undefined, withQuery)
}

const translate = (key: string) => (i18next.exists(key) ? i18next.t(key) : key)

/**
 * A failure the caller handles itself (a code it listed): the field it belongs to and the
 * translated text; null when the modal already told the user or it is not an API error.
 */
export function fieldErrorOf(err: unknown): { field: string | undefined; code: string; message: string } | null {
  if (!(err instanceof ApiError) || err.shown || !err.code) return null
  return { field: err.field, code: err.code, message: i18next.exists(err.code) ? i18next.t(err.code) : err.message || translate('internal_server_error') }
}

/** The modal content for a failure a caller decides to show anyway (account save failures). */
export function describeFailure(err: ApiError): { title: string; message: string; kind: 'error' } {
  const message = err.code && isKnownCode(err.code) ? err.code : 'internal_server_error'
  return { title: translate('error_title') || GENERIC_MESSAGES.error_title, message, kind: 'error' }
}

/**
 * GET of a file the API serves (an invoice PDF) with the session's cookies. Any failure opens the
 * internal_server_error modal, as the spec says of a failed invoice download (section 8).
 */
export async function getFile(url: string, opts: { signal?: AbortSignal } = {}): Promise<Blob> {
  const ise = { kind: 'error', message: 'internal_server_error' } as const
  const failed = (status: number): never => fail({ status, code: 'internal_server_error', message: 'internal_server_error', modal: ise })
  let res: Response
  try {
    res = await fetch(url, { method: 'GET', credentials: 'same-origin', signal: opts.signal })
  } catch {
    return failed(0)
  }
  if (!res.ok) {
    notifySession()
    return failed(res.status)
  }
  try {
    return await res.blob()
  } catch {
    return failed(res.status)
  }
}
