import { vi } from 'vitest'
import { ERRORS } from '@portal/domain'

export interface Call {
  url: string
  method: string
  body: unknown
  headers: Record<string, string>
  /** the route pattern's `:name` segments */
  params: Record<string, string>
}

export type Route = `${'GET' | 'POST'} /api/${string}`
export type Answer = (call: Call) => Response | Promise<Response>
export type Routes = { [R in Route]?: Answer }

export const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

/** Calls no route of the test answered; setup.ts fails the test with them. */
const unexpected: string[] = []
export const takeUnexpectedCalls = () => unexpected.splice(0)

function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/')
  const got = path.split('/')
  if (want.length !== got.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(':')) params[want[i]!.slice(1)] = decodeURIComponent(got[i]!)
    else if (want[i] !== got[i]) return null
  }
  return params
}

/**
 * Replaces fetch with the routes a test declares (`'GET /api/license/:id/'`, query strings ignored
 * in matching); returns the recorded calls. A call no route answers fails the test: a screen that
 * calls a wrong URL, or one the test did not expect, cannot pass on a catch-all answer.
 */
export function mockApi(routes: Routes) {
  const calls: Call[] = []
  // a literal route wins over a pattern (a test's 'GET /api/license/5/' over the shared ':id')
  const paramCount = (r: string) => r.split('/').filter((s) => s.startsWith(':')).length
  const table = (Object.entries(routes) as [Route, Answer][]).sort(([a], [b]) => paramCount(a) - paramCount(b))
  globalThis.fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input)
    const method = init?.method ?? 'GET'
    const path = url.split('?')[0]!
    for (const [route, answer] of table) {
      const [m, pattern] = route.split(' ') as [string, string]
      const params = m === method ? match(pattern, path) : null
      if (!params) continue
      const call: Call = {
        url,
        method,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
        headers: (init?.headers ?? {}) as Record<string, string>,
        params,
      }
      calls.push(call)
      return answer(call)
    }
    unexpected.push(`${method} ${url}`)
    return json(404, { error_code: ERRORS.route_not_found.code, error: `the test declares no route for ${method} ${url}` })
  }) as typeof fetch
  return calls
}
