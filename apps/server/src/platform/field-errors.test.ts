import { describe, expect, it } from 'vitest'
import { LIMITS } from '@portal/domain'
import { Agent, expectError, signedInClient, useTestApp } from '../test/harness.ts'

const t = useTestApp()

type JsonSchema = {
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  anyOf?: JsonSchema[]
  allOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  additionalProperties?: JsonSchema | boolean
}

/** Every property name at any depth of a JSON schema (what a failing field's name can be). */
function fieldNames(s: JsonSchema | boolean | undefined, into = new Set<string>()): Set<string> {
  if (!s || typeof s !== 'object') return into
  for (const [name, inner] of Object.entries(s.properties ?? {})) {
    into.add(name)
    fieldNames(inner, into)
  }
  for (const inner of [s.items, s.additionalProperties, ...(s.anyOf ?? []), ...(s.allOf ?? []), ...(s.oneOf ?? [])]) fieldNames(inner, into)
  return into
}

async function bodies() {
  const doc = (await new Agent(t.app).get('/api/openapi.json')).json() as {
    paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>
  }
  const out = new Map<string, Set<string>>()
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const schema = op.requestBody?.content?.['application/json']?.schema
      if (schema) out.set(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`, fieldNames(schema))
    }
  }
  return out
}

describe('field error codes are declared with the route', () => {
  it('a route names only fields its body has, and every body with a title answers bad_title for it', async () => {
    const byRoute = await bodies()
    const declared = t.app.routeAccess.filter((r) => r.fieldErrors)
    expect(declared.length).toBeGreaterThan(5)
    for (const r of declared) {
      const fields = byRoute.get(`${r.method} ${r.url}`)
      expect(fields, `${r.method} ${r.url} declares fieldErrors but has no JSON body`).toBeDefined()
      for (const f of Object.keys(r.fieldErrors!)) expect([...fields!], `${r.method} ${r.url}: ${f}`).toContain(f)
    }
    for (const [route, fields] of byRoute) {
      if (!fields.has('title')) continue
      const entry = t.app.routeAccess.find((r) => `${r.method} ${r.url}` === route)
      expect(entry?.fieldErrors?.title, `${route} has a title`).toBe('bad_title')
    }
  })

  it('answers the declared code, and the generic one for a field the route does not name', async () => {
    const a = new Agent(t.app)
    expectError(await a.post('/api/client/signup/', { username: 'not-an-email', password: 'Str0ng-Pass' }), 400, 'e4a5b8f4', 'username')
    // the same field on sign-in names no code: validation failed
    expectError(await a.post('/api/client/signin/', { username: 'not-an-email', password: 'x' }), 400, '6a38afc1', 'username')
    const { agent } = await signedInClient(t)
    expectError(await agent.post('/api/client/', { email: 'nope' }), 400, 'e4a5b8f4', 'email')
  })

  it('names a nested field by its whole path: a company’s name is not the person’s name', async () => {
    const { agent } = await signedInClient(t)
    const long = (max: number) => 'x'.repeat(max + 1)
    expectError(await agent.post('/api/client/', { company: { name: long(LIMITS.companyName) } }), 400, '6a38afc1', 'company.name')
    expectError(await agent.post('/api/client/', { name: long(LIMITS.name) }), 400, '6a38afc1', 'name')
    expectError(await agent.post('/api/client/', { company: { site: long(LIMITS.companySite) } }), 400, '6a38afc1', 'company.site')
  })
})
