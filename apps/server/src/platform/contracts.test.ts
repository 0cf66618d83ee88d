import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { ERRORS, contractErrors, contracts, type Contract } from '@portal/domain'
import { buildApp } from '../app.ts'
import { testConfig, workerDb } from '../test/harness.ts'

let app: FastifyInstance
beforeAll(async () => {
  // with the admin token, so the CLI's call is served too
  app = await buildApp({ config: testConfig(), db: await workerDb(), runJobs: false, adminToken: 'contracts-test-token' })
  await app.ready()
})
afterAll(async () => {
  await app?.close()
})

const all = Object.entries(contracts as Record<string, Contract>)
const key = (method: string, url: string) => `${method} ${url}`
/** the API's own routes: swagger-ui's pages and the document itself are not calls */
const served = () =>
  app.routeAccess
    .filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.url !== '/api/openapi.json')
    .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS')
    .map((r) => key(r.method, r.url))

describe('one contract per call', () => {
  it('every route served under /api is a contract, and every contract is served', () => {
    const declared = all.map(([, c]) => key(c.method, `/api${c.path}`))
    expect(new Set(declared).size, 'two contracts name the same call').toBe(declared.length)
    const routes = served()
    expect(routes.filter((r) => !declared.includes(r))).toEqual([])
    expect(declared.filter((d) => !routes.includes(d))).toEqual([])
    // the lists are the real ones: every module's calls are in them
    expect(routes.length).toBeGreaterThan(40)
  })

  it('the route takes its access, permission and field errors from the contract', () => {
    const byKey = new Map(app.routeAccess.map((r) => [key(r.method, r.url), r]))
    for (const [name, c] of all) {
      const r = byKey.get(key(c.method, `/api${c.path}`))
      expect(r?.auth, name).toBe(c.auth)
      expect(r?.permission, name).toBe(c.permission)
      expect(r?.fieldErrors, name).toEqual(c.fieldErrors)
    }
  })

  it('the OpenAPI document lists every contract with its answers', async () => {
    const doc = (await app.inject('/api/openapi.json')).json() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }
    for (const [name, c] of all) {
      if (c.hide) continue
      const op = doc.paths[`/api${c.path.replace(/:(\w+)/g, '{$1}')}`]?.[c.method.toLowerCase()]
      expect(op, name).toBeDefined()
      const statuses = new Set([...Object.keys(c.response), ...Object.keys(c.rawAnswers ?? {}), ...contractErrors(c).map((e) => String(ERRORS[e].status))])
      expect(Object.keys(op!.responses).sort(), name).toEqual([...statuses].sort())
    }
  })

  it('every call declares what it answers on success: JSON by its schema, a redirect or a file by its media type', async () => {
    const doc = (await app.inject('/api/openapi.json')).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }> }>>
    }
    for (const [name, c] of all) {
      if (c.hide) continue
      const op = doc.paths[`/api${c.path.replace(/:(\w+)/g, '{$1}')}`]![c.method.toLowerCase()]!
      const success = Object.entries(op.responses).filter(([s]) => Number(s) < 400)
      expect(success.length, `${name} declares no success`).toBeGreaterThan(0)
      for (const [status, answer] of success) {
        if (status === '302') expect(answer.headers, `${name} ${status}`).toHaveProperty('Location')
        else expect(Object.keys(answer.content ?? {}).length, `${name} ${status}`).toBeGreaterThan(0)
      }
    }
    expect(Object.keys(doc.paths['/api/transaction/{id}/invoice/']!.get!.responses['200']!.content!)).toEqual(['application/pdf'])
    expect(Object.keys(doc.paths['/api/account/history/export/']!.get!.responses['200']!.content!)).toEqual(['text/csv'])
    expect(doc.paths['/api/service/redirect/']!.get!.responses).toHaveProperty('302')
  })

  it("each contract's errors are catalogue names", () => {
    for (const [name, c] of all) {
      for (const e of [...c.errors, ...Object.values(c.fieldErrors ?? {})]) expect(Object.keys(ERRORS), `${name}: ${e}`).toContain(e)
    }
  })
})
