import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { COOKIES, ERRORS, PLATFORM_ARCHITECTURES, REQUEST_FILE_HEADER, contracts, encodeBase64, type Contract, type ErrorName } from '@portal/domain'
import { runCommand } from '../cli/commands.ts'
import { Agent, STRONG_PASSWORD, signedInClient, useTestApp } from './harness.ts'
import { candidatesNear, probesOf, validates, type Schema } from './document-schema.ts'

/**
 * Hostile input against every route of the OpenAPI document: each string field with NUL, lone
 * surrogates, 1 MB of text and a number; each number with -1, 2^31, 2^53+1, 1e308 and friends;
 * record keys; malformed bodies; hostile path parameters and query strings. No answer may be a 5xx,
 * and the server must still answer afterwards. It writes what it sent and what came back to
 * test-results/fuzz-summary.json.
 */

const t = useTestApp()

interface Operation {
  parameters?: { name: string; in: 'path' | 'query'; schema?: Schema }[]
  requestBody?: { content?: Record<string, { schema: Schema }> }
  security?: unknown
}
type Path = (string | number)[]
type Leaf = { path: Path; kind: 'string' | 'number' | 'key' }

const MB = 'x'.repeat(1024 * 1024)
const STRING_CASES: [string, unknown][] = [
  ['NUL', '\u0000'],
  ['NUL inside', 'ab\u0000cd'],
  ['lone high surrogate', '\ud800'],
  ['lone low surrogate', 'x\udfff'],
  ['reversed surrogates', '\udc00\ud800'],
  ['1 MB', MB],
  ['number', 12345],
  ['object', { $gt: '' }],
]
const NUMBER_CASES: [string, unknown][] = [
  ['-1', -1],
  ['2^31', 2 ** 31],
  ['-2^31-1', -(2 ** 31) - 1],
  ['2^53+1', 2 ** 53 + 1],
  ['1e308', 1e308],
  ['-1e308', -1e308],
  ['1.5', 1.5],
  ['string', '1'],
]
const KEY_CASES: [string, string][] = [
  ['NUL key', '\u0000'],
  ['surrogate key', 'k\ud800'],
  ['__proto__ key', '__proto__'],
  ['constructor key', 'constructor'],
  ['long key', 'k'.repeat(100_000)],
]
const nest = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
const MALFORMED: [string, string, string][] = [
  ['not JSON', 'application/json', 'this is not json'],
  ['truncated JSON', 'application/json', '{"title": "x'],
  ['empty body', 'application/json', ''],
  ['array', 'application/json', '[{"title":"x"}]'],
  ['null', 'application/json', 'null'],
  ['string', 'application/json', '"x"'],
  ['number', 'application/json', '1e308'],
  ['nested 64', 'application/json', nest(64)],
  ['nested 100000', 'application/json', nest(100_000)],
  ['nested arrays 100000', 'application/json', '['.repeat(100_000) + ']'.repeat(100_000)],
  ['__proto__', 'application/json', '{"__proto__":{"polluted":true,"is_staff":true}}'],
  ['constructor.prototype', 'application/json', '{"constructor":{"prototype":{"polluted":true}}}'],
  ['text/plain', 'text/plain', '{"title":"x"}'],
  ['form', 'application/x-www-form-urlencoded', 'title=x&limit=2'],
  ['json with bad charset', 'application/json; charset=utf-16', '{"title":"x"}'],
]
/** bytes that are not UTF-8 at all, inside an otherwise well-formed body */
const INVALID_UTF8 = Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xff, 0xfe, 0xc0, 0x80, 0xed, 0xa0, 0x80]), Buffer.from('"}')])
const PATH_CASES: [string, string][] = [
  ['NUL', '%00'],
  ['traversal', '..%2F..%2Fetc%2Fpasswd'],
  ['dot dot', '..'],
  ['huge number', '99999999999999999999999'],
  ['2^53+1', '9007199254740993'],
  ['-1', '-1'],
  ['1e308', '1e308'],
  ['encoded lone surrogate', '%ED%A0%80'],
  ['bad percent', '%E0%A4%A'],
  ['long', 'x'.repeat(2000)],
]
const QUERY_CASES: [string, string][] = [
  ['NUL', '%00'],
  ['encoded lone surrogate', '%ED%A0%80'],
  ['huge number', '99999999999999999999999'],
  ['1e308', '1e308'],
  ['array', '&$name=a&$name=b'],
  ['1 MB', 'y'.repeat(200_000)],
]

/** A plausible value for a field, by its name and schema, so that one hostile field gets far. */
function base(s: Schema, name: string, ids: Ids, every = false): unknown {
  const alt = s.anyOf ?? s.oneOf
  if (alt) return base(alt.find((a) => a.type !== 'null') ?? alt[0]!, name, ids)
  if (s.enum) return s.enum[0]
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {}
      // `every`: the optional fields too (a body that needs one of two, or one of three)
      for (const k of every ? Object.keys(s.properties ?? {}) : (s.required ?? [])) out[k] = base(s.properties![k]!, k, ids)
      return out
    }
    case 'array':
      return s.minItems ? [base(s.items ?? {}, name, ids)] : []
    case 'integer':
    case 'number':
      if (name === 'limit') return 2
      if (name === 'client_id') return ids.clientId
      return Math.max(1, s.minimum ?? 1)
    case 'boolean':
      return false
    case 'string':
      return plausible(s, name, ids)
    default:
      return null
  }
}

function stringFor(name: string, ids: Ids): string {
  if (['username', 'email', 'client_email'].includes(name)) return ids.email
  if (['password', 'old_password'].includes(name)) return STRONG_PASSWORD
  if (name === 'new_password') return 'Another-9pass'
  if (name === 'key') return ids.licenseKey
  if (name === 'fingerprint') return 'fuzz-device'
  if (name === 'confirmation_token') return 'A'.repeat(32)
  if (name === 'product') return 'nuitrack_trial'
  if (name === 'max_version') return '1.0'
  if (name === 'allowed_platforms') return PLATFORM_ARCHITECTURES[0]!
  if (name === 'success_url' || name === 'cancel_url') return '/app/nuitrack/'
  return 'Fuzz value'
}

/** stringFor's value when the field's schema takes it, else a common one it takes */
function plausible(s: Schema, name: string, ids: Ids): string {
  const first = stringFor(name, ids)
  return (
    [first, 'Fuzz value', 'Fuzzvalue1', 'fuzz', 'FUZZ10', 'sales', '+1 555 0100', 'A message long enough for its minimum', 'https://hooks.example/portal'].find(
      (v) => validates(s, v),
    ) ?? first
  )
}

function leaves(s: Schema, path: Path): Leaf[] {
  const alt = s.anyOf ?? s.oneOf
  if (alt)
    return alt.flatMap((a) => leaves(a, path)).filter((l, i, all) => all.findIndex((o) => o.path.join('/') === l.path.join('/') && o.kind === l.kind) === i)
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type
  if (type === 'object' || s.properties) {
    const out: Leaf[] = []
    for (const [k, v] of Object.entries(s.properties ?? {})) out.push(...leaves(v, [...path, k]))
    if (s.additionalProperties && typeof s.additionalProperties === 'object') {
      out.push({ path, kind: 'key' }, ...leaves(s.additionalProperties, [...path, 'k']))
    }
    return out
  }
  if (type === 'array') return leaves(s.items ?? {}, [...path, 0])
  if (type === 'string') return [{ path, kind: 'string' }]
  if (type === 'integer' || type === 'number') return [{ path, kind: 'number' }]
  return []
}

/** A copy of `body` with the value at `path` replaced (parents made as needed). */
function withValue(body: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>
  let node = copy
  for (const [i, seg] of path.entries()) {
    if (i === path.length - 1) node[seg] = value
    else {
      if (typeof node[seg] !== 'object' || node[seg] === null) node[seg] = typeof path[i + 1] === 'number' ? [] : {}
      node = node[seg] as Record<string | number, unknown>
    }
  }
  return copy
}

/** A copy of `body` with the record at `path` holding one hostile key. */
function withKey(body: unknown, path: Path, key: string): string {
  const copy = withValue(body, path, { [`__KEY__`]: 1 })
  return JSON.stringify(copy).replace('"__KEY__"', JSON.stringify(key))
}

interface Ids {
  email: string
  clientId: number
  licenseId: number
  groupId: number
  deviceId: number
  licenseKey: string
}

it('no route answers a 5xx to hostile input, and the server answers afterwards', { timeout: 240_000 }, async () => {
  // a customer with a group, a license and a device, and a staff member
  const customer = await signedInClient(t)
  expect((await runCommand(t.db, ['licenses:grant', customer.email, 'nuitrack_subscribe', '5', '--os-type', '1'])).code).toBe(0)
  const group = (await customer.agent.get('/api/group/')).json().groups[0]
  const license = (await customer.agent.post(`/api/group/${group.id}/new-license/`, {})).json()
  const device = (await customer.agent.post('/api/sdk/activate/', { key: license.token, fingerprint: 'fuzz-device' })).json()
  const staff = await signedInClient(t)
  await t.db.query('UPDATE clients SET is_staff = true WHERE id = $1', [staff.client.id])
  const ids: Ids = {
    email: customer.email,
    clientId: customer.client.id,
    licenseId: license.id,
    groupId: group.id,
    deviceId: device.device?.id ?? 1,
    licenseKey: license.token,
  }

  const doc = (await t.app.inject('/api/openapi.json')).json() as { paths: Record<string, Record<string, Operation>> }
  const access = new Map(t.app.routeAccess.map((r) => [`${r.method} ${r.url}`, r.auth]))

  let sent = 0
  let n = 0
  const statuses = new Map<number, number>()
  const perRoute: Record<string, { cases: number; statuses: Record<number, number> }> = {}
  const failures: string[] = []
  /** hostile cases the server accepted (2xx): not faults in themselves, listed so a reader can judge them */
  const accepted: string[] = []

  for (const [openapiPath, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const M = method.toUpperCase()
      const fastifyPath = openapiPath.replace(/\{(\w+)\}/g, ':$1')
      const who = access.get(`${M} ${fastifyPath}`) === 'staff' ? staff : customer
      const routeName = `${M} ${openapiPath}`
      const stats = (perRoute[routeName] = { cases: 0, statuses: {} as Record<number, number> })

      const pathValue = (name: string) => {
        if (name === 'deviceId') return String(ids.deviceId)
        if (name === 'token') return 'A'.repeat(32)
        if (openapiPath.startsWith('/api/group/')) return String(ids.groupId)
        if (openapiPath.startsWith('/api/client/')) return String(ids.clientId)
        return String(ids.licenseId)
      }
      const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name)
      const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query')
      const url = (override?: [string, string]) =>
        openapiPath.replace(/\{(\w+)\}/g, (_, name: string) => (override && override[0] === name ? override[1] : pathValue(name)))
      const validQuery = queryParams.map((p) => `${p.name}=${encodeURIComponent(String(base(p.schema ?? {}, p.name, ids)))}`).join('&')

      const send = async (label: string, target: string, payload?: string | Buffer, contentType = 'application/json') => {
        // every request from its own address, so the per-address limits do not hide what comes after them
        n++
        const headers: Record<string, string> = { cookie: [...who.agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
        if (M !== 'GET') headers['x-csrftoken'] = who.agent.cookies.get(COOKIES.csrf) ?? ''
        if (payload !== undefined) headers['content-type'] = contentType
        const res = await t.app.inject({
          method: M as 'POST',
          url: target,
          headers,
          payload,
          remoteAddress: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
        })
        sent++
        stats.cases++
        stats.statuses[res.statusCode] = (stats.statuses[res.statusCode] ?? 0) + 1
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
        if (res.statusCode < 300) accepted.push(`${routeName} [${label}]`)
        if (res.statusCode >= 500) failures.push(`${routeName} [${label}] -> ${res.statusCode} ${res.body.slice(0, 300)}`)
        else if (res.headers['content-type']?.toString().includes('json')) {
          // every JSON refusal is a coded error
          const body = res.json()
          if (res.statusCode >= 400 && (typeof body.error_code !== 'string' || typeof body.error !== 'string'))
            failures.push(`${routeName} [${label}] -> ${res.statusCode} uncoded ${res.body.slice(0, 300)}`)
        }
        return res
      }

      const schema = op.requestBody?.content?.['application/json']?.schema
      const qs = validQuery ? `?${validQuery}` : ''
      if (schema) {
        const body = base(schema, '', ids)
        for (const leaf of leaves(schema, [])) {
          const where = leaf.path.join('.') || '(body)'
          if (leaf.kind === 'key') {
            for (const [label, key] of KEY_CASES) await send(`${where} ${label}`, url() + qs, withKey(body, leaf.path, key))
            continue
          }
          // for strings also the plausible value with a hostile character added, which passes the field's format rules
          const plausible = stringFor(String(leaf.path.at(-1) ?? ''), ids)
          const cases: [string, unknown][] =
            leaf.kind === 'string' ? [...STRING_CASES, ['NUL appended', `${plausible}\u0000`], ['surrogate appended', `${plausible}\ud800`]] : [...NUMBER_CASES]
          if (leaf.path.at(-1) === 'data') {
            // `data` carries a request file in base64: hostile text inside the file, too
            cases.push(['request file with NUL', encodeBase64(`${REQUEST_FILE_HEADER}\nserial=SN\u0000X\n`)])
            cases.push(['request file not UTF-8', btoa(`${REQUEST_FILE_HEADER}\nserial=\xff\xfe\n`)])
          }
          for (const [label, value] of cases) await send(`${where} ${label}`, url() + qs, JSON.stringify(withValue(body, leaf.path, value)))
        }
      }
      if (M !== 'GET') {
        for (const [label, type, payload] of MALFORMED) await send(`malformed ${label}`, url() + qs, payload, type)
        await send('malformed invalid UTF-8', url() + qs, INVALID_UTF8)
      }
      const validBody = schema ? JSON.stringify(base(schema, '', ids)) : M === 'GET' ? undefined : '{}'
      for (const name of pathParams) {
        for (const [label, value] of PATH_CASES) await send(`path ${name} ${label}`, url([name, value]) + qs, validBody)
      }
      for (const p of queryParams) {
        for (const [label, value] of QUERY_CASES) {
          const rest = queryParams.filter((o) => o.name !== p.name).map((o) => `${o.name}=${encodeURIComponent(String(base(o.schema ?? {}, o.name, ids)))}`)
          await send(`query ${p.name} ${label}`, `${url()}?${[...rest, `${p.name}=${value.replaceAll('$name', p.name)}`].join('&')}`, validBody)
        }
      }
      // unknown and hostile query parameters on every route
      await send('query unknown', `${url()}?${validQuery ? `${validQuery}&` : ''}x=%00&__proto__[polluted]=1&license_id=%ED%A0%80`, validBody)

      // a hostile request may have ended the session (logout, a password change): sign in again
      if ((await who.agent.get('/api/client/')).statusCode === 401) {
        const again = new Agent(t.app, '10.250.0.1')
        const res = await again.post('/api/client/signin/', { username: who.email, password: who.password })
        expect(res.statusCode, `re-sign-in after ${routeName}: ${res.body}`).toBe(200)
        who.agent = again
      }
    }
  }

  // prototype pollution never reached a plain object
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()

  const summary = {
    routes: Object.keys(perRoute).length,
    requests: sent,
    statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
    failures,
    accepted,
    per_route: perRoute,
  }
  mkdirSync('test-results', { recursive: true })
  writeFileSync(join('test-results', 'fuzz-summary.json'), JSON.stringify(summary, null, 2))
  console.log(`fuzz: ${summary.routes} routes, ${sent} requests, statuses ${JSON.stringify(summary.statuses)}, ${failures.length} 5xx`)

  expect(failures).toEqual([])
  expect(summary.routes).toBeGreaterThanOrEqual(40)

  // and the server still answers, to reads and to a real sign-in
  expect((await t.app.inject('/api/health/')).statusCode).toBe(200)
  const fresh = await signedInClient(t)
  expect((await fresh.agent.get('/api/license/')).statusCode).toBe(200)
})

it('NUL, lone surrogates and out-of-range integers answer a coded 400 on their field', async () => {
  const customer = await signedInClient(t)
  expect((await runCommand(t.db, ['licenses:grant', customer.email, 'nuitrack_subscribe', '5', '--os-type', '1'])).code).toBe(0)
  const group = (await customer.agent.get('/api/group/')).json().groups[0]
  const license = (await customer.agent.post(`/api/group/${group.id}/new-license/`, {})).json()
  const staff = await signedInClient(t)
  await t.db.query('UPDATE clients SET is_staff = true WHERE id = $1', [staff.client.id])
  const anon = new Agent(t.app, '10.200.0.1')
  const staffBody = {
    title: 'Custom',
    count: 1,
    client_email: customer.email,
    config: { product: 'face_offline_perpetual', license_expire_delta: null, device_bound: false, max_version: null, license_content: {} },
  }
  const cases: [Agent, string, unknown, string, string][] = [
    [anon, '/api/client/signup/', { username: `new${'\u0000'}@example.com`, password: STRONG_PASSWORD }, 'e4a5b8f4', 'username'],
    [anon, '/api/client/signin/', { username: `${customer.email}\u0000`, password: STRONG_PASSWORD }, '6a38afc1', 'username'],
    [anon, '/api/client/signin/', { username: customer.email, password: 'Str0ng-Pass\ud800' }, '6a38afc1', 'password'],
    [anon, '/api/client/send-password-reset-url/', { client_email: `${customer.email}\u0000` }, '6a38afc1', 'client_email'],
    [anon, '/api/client/send-confirmation-url/', { client_email: `${customer.email}\udc00` }, '6a38afc1', 'client_email'],
    [anon, '/api/nuitrack-analytics/fill-info/', { username: customer.email, password: STRONG_PASSWORD, name: 'Ada\u0000' }, '6a38afc1', 'name'],
    [customer.agent, '/api/client/', { name: 'Ada\u0000' }, '6a38afc1', 'name'],
    [customer.agent, '/api/client/', { company: { address: 'Main St\ud800' } }, '6a38afc1', 'company.address'],
    [customer.agent, '/api/client/', { email: `moved${'\u0000'}@example.com` }, 'e4a5b8f4', 'email'],
    [customer.agent, `/api/license/${license.id}/`, { title: 'T\u0000' }, 'd097efb8', 'title'],
    [customer.agent, `/api/group/${group.id}/split/`, { title: 'Key\ud800', limit: 2 }, 'd097efb8', 'title'],
    [customer.agent, `/api/group/${group.id}/split/`, { title: 'Key', limit: 2 ** 31 }, '3073f8c2', 'limit'],
    [customer.agent, `/api/group/${group.id}/resize/`, { limit: 2 ** 53 + 1 }, '3073f8c2', 'limit'],
    [customer.agent, `/api/license/${license.id}/activate/offline/`, { data: 'AAAA\u0000' }, '6a38afc1', 'data'],
    // a NUL inside the request file the base64 carries
    [customer.agent, `/api/license/${license.id}/activate/offline/`, { data: encodeBase64(`${REQUEST_FILE_HEADER}\nserial=SN\u0000X\n`) }, '71e4fc02', 'data'],
    [customer.agent, `/api/license/${license.id}/activate/offline/`, { hardware_key_serial: 'USB\u0000' }, '6a38afc1', 'hardware_key_serial'],
    [customer.agent, '/api/sdk/activate/', { key: license.token, fingerprint: 'fp', name: 'Kiosk\u0000' }, '6a38afc1', 'name'],
    [customer.agent, '/api/sdk/activate/', { key: license.token, fingerprint: 'fp', properties: { serial: '\ud800' } }, '6a38afc1', 'properties.serial'],
    [anon, '/api/sdk/validate/', { key: '\u0000', fingerprint: 'x' }, '6a38afc1', 'key'],
    [anon, '/api/sdk/deactivate/', { key: license.token, fingerprint: 'x\u0000' }, '6a38afc1', 'fingerprint'],
    [
      staff.agent,
      '/api/resource/custom/create/',
      { ...staffBody, config: { ...staffBody.config, license_expire_delta: 2 ** 31 } },
      '6a38afc1',
      'config.license_expire_delta',
    ],
    [
      staff.agent,
      '/api/resource/custom/create/',
      { ...staffBody, config: { ...staffBody.config, license_content: { 'age\u0000': 1 } } },
      '6a38afc1',
      'config.license_content',
    ],
    [
      staff.agent,
      '/api/resource/custom/create/',
      { ...staffBody, config: { ...staffBody.config, license_content: { age: 2 ** 31 } } },
      '6a38afc1',
      'config.license_content.age',
    ],
    [
      staff.agent,
      '/api/resource/custom/create/',
      { ...staffBody, config: { ...staffBody.config, xml_config: '<a>\u0000</a>' } },
      '6a38afc1',
      'config.xml_config',
    ],
    [staff.agent, '/api/resource/custom/create/', { ...staffBody, custom_tags_extra: { tag: '\ud800' } }, '6a38afc1', 'custom_tags_extra.tag'],
  ]
  for (const [agent, url, body, code, field] of cases) {
    const res = await agent.post(url, body)
    const what = `${url} ${JSON.stringify(body)}: ${res.statusCode} ${res.body}`
    expect(res.statusCode, what).toBe(400)
    expect(res.json(), what).toMatchObject({ error_code: code, field })
  }
  // headers are the caller's text too: a sign-in whose user agent the database cannot store still signs in
  const ua = await t.app.inject({
    method: 'POST',
    url: '/api/client/signin/',
    headers: { 'content-type': 'application/json', 'user-agent': `agent\u0000${'😀'.repeat(200)}`, 'x-csrftoken': 'c', cookie: 'csrftoken=c' },
    payload: JSON.stringify({ username: customer.email, password: STRONG_PASSWORD }),
    remoteAddress: '10.200.0.2',
  })
  expect(ua.statusCode, ua.body).toBe(200)
  // nothing of it reached the database
  expect((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM licenses WHERE client_id = $1`, [customer.client.id]))[0]!.n).toBe(1)
  expect((await customer.agent.get('/api/client/')).json().client_info.name).toBe('')
})

it('every route answers a plausible request with a status its document declares', { timeout: 240_000 }, async () => {
  const customer = await signedInClient(t)
  expect((await runCommand(t.db, ['licenses:grant', customer.email, 'nuitrack_subscribe', '5', '--os-type', '1'])).code).toBe(0)
  const group = (await customer.agent.get('/api/group/')).json().groups[0]
  const license = (await customer.agent.post(`/api/group/${group.id}/new-license/`, {})).json()
  const device = (await customer.agent.post('/api/sdk/activate/', { key: license.token, fingerprint: 'walk-device' })).json()
  const staff = await signedInClient(t)
  await t.db.query('UPDATE clients SET is_staff = true WHERE id = $1', [staff.client.id])
  const ids: Ids = {
    email: customer.email,
    clientId: customer.client.id,
    licenseId: license.id,
    groupId: group.id,
    deviceId: device.device?.id ?? 1,
    licenseKey: license.token,
  }
  const doc = (await t.app.inject('/api/openapi.json')).json() as {
    paths: Record<string, Record<string, Operation & { responses: Record<string, unknown> }>>
  }
  const access = new Map(t.app.routeAccess.map((r) => [`${r.method} ${r.url}`, r.auth]))
  const undeclared: string[] = []
  let n = 0
  for (const [openapiPath, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const M = method.toUpperCase()
      const who = access.get(`${M} ${openapiPath.replace(/\{(\w+)\}/g, ':$1')}`) === 'staff' ? staff : customer
      const url = openapiPath.replace(/\{(\w+)\}/g, (_, name: string) => {
        if (name === 'deviceId') return String(ids.deviceId)
        if (name === 'token') return 'A'.repeat(32)
        if (openapiPath.startsWith('/api/group/')) return String(ids.groupId)
        if (openapiPath.startsWith('/api/client/')) return String(ids.clientId)
        return String(ids.licenseId)
      })
      const query = (op.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => `${p.name}=${encodeURIComponent(String(base(p.schema ?? {}, p.name, ids)))}`)
        .join('&')
      const schema = op.requestBody?.content?.['application/json']?.schema
      n++
      const headers: Record<string, string> = { cookie: [...who.agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
      if (M !== 'GET') headers['x-csrftoken'] = who.agent.cookies.get(COOKIES.csrf) ?? ''
      if (M !== 'GET') headers['content-type'] = 'application/json'
      const res = await t.app.inject({
        method: M as 'POST',
        url: `${url}${query ? `?${query}` : ''}`,
        headers,
        payload: M === 'GET' ? undefined : JSON.stringify(schema ? base(schema, '', ids) : {}),
        remoteAddress: `10.99.${(n >> 8) & 255}.${n & 255}`,
      })
      if (!(String(res.statusCode) in op.responses)) undeclared.push(`${M} ${openapiPath} -> ${res.statusCode} ${res.body.slice(0, 200)}`)
      // a request may have ended the session (logout, a password change): sign in again
      if ((await who.agent.get('/api/client/')).statusCode === 401) {
        const again = new Agent(t.app, '10.250.1.1')
        expect((await again.post('/api/client/signin/', { username: who.email, password: who.password })).statusCode).toBe(200)
        who.agent = again
      }
    }
  }
  expect(n).toBeGreaterThanOrEqual(40)
  expect(undeclared).toEqual([])
})

/** A field of a request, with the schema the document gives it. */
interface Field {
  in: 'body' | 'query' | 'path'
  path: Path
  schema: Schema
}

/** The body's fields at every depth (an array is a field, and so is its first item's each field). */
function bodyFields(s: Schema, path: Path): Field[] {
  if (s.anyOf ?? s.oneOf) return path.length ? [{ in: 'body', path, schema: s }] : []
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type
  if (type === 'object' || s.properties) return Object.entries(s.properties ?? {}).flatMap(([k, v]) => bodyFields(v, [...path, k]))
  if (type === 'array') return [{ in: 'body', path, schema: s }, ...bodyFields(s.items ?? {}, [...path, 0])]
  return [{ in: 'body', path, schema: s }]
}

function valueAt(body: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, seg) => (node === null || typeof node !== 'object' ? undefined : (node as Record<string | number, unknown>)[seg]), body)
}

/** a path segment as a URL carries it (a lone surrogate has no UTF-8: its bytes, encoded) */
const pathSegment = (v: unknown) => {
  try {
    return encodeURIComponent(String(v))
  } catch {
    return '%ED%A0%80'
  }
}

async function customerStaffAndIds() {
  const customer = await signedInClient(t)
  expect((await runCommand(t.db, ['licenses:grant', customer.email, 'nuitrack_subscribe', '5', '--os-type', '1'])).code).toBe(0)
  const group = (await customer.agent.get('/api/group/')).json().groups[0]
  const license = (await customer.agent.post(`/api/group/${group.id}/new-license/`, {})).json()
  const device = (await customer.agent.post('/api/sdk/activate/', { key: license.token, fingerprint: 'probe-device' })).json()
  const staff = await signedInClient(t)
  await t.db.query('UPDATE clients SET is_staff = true WHERE id = $1', [staff.client.id])
  const ids: Ids = {
    email: customer.email,
    clientId: customer.client.id,
    licenseId: license.id,
    groupId: group.id,
    deviceId: device.device?.id ?? 1,
    licenseKey: license.token,
  }
  return { customer, staff, ids }
}

it(
  'every constraint the document states is kept: a value just outside it is refused on its field, one just inside is not, and every answer is declared',
  { timeout: 240_000 },
  async () => {
    const { customer, staff, ids } = await customerStaffAndIds()
    const doc = (await t.app.inject('/api/openapi.json')).json() as {
      paths: Record<string, Record<string, Operation & { responses: Record<string, unknown> }>>
    }
    const routes = new Map(t.app.routeAccess.map((r) => [`${r.method} ${r.url}`, r]))
    const validationCode = ERRORS.validation_failed.code
    const undeclared: string[] = []
    const notRefused: string[] = []
    const refusedInside: string[] = []
    const unprobed: string[] = []
    const constraints = new Set<string>()
    let n = 0
    for (const [openapiPath, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const M = method.toUpperCase()
        const route = routes.get(`${M} ${openapiPath.replace(/\{(\w+)\}/g, ':$1')}`)
        const who = route?.auth === 'staff' ? staff : customer
        const pathValue = (name: string) => {
          if (name === 'deviceId') return String(ids.deviceId)
          if (name === 'token') return 'A'.repeat(32)
          if (openapiPath.startsWith('/api/group/')) return String(ids.groupId)
          if (openapiPath.startsWith('/api/client/')) return String(ids.clientId)
          return String(ids.licenseId)
        }
        const params = op.parameters ?? []
        const bodySchema = op.requestBody?.content?.['application/json']?.schema
        const body = bodySchema ? base(bodySchema, '', ids) : undefined
        const query = Object.fromEntries(
          params.filter((p) => p.in === 'query' && 'required' in p && p.required).map((p) => [p.name, base(p.schema ?? {}, p.name, ids)]),
        )
        const fields: Field[] = [
          ...params.map((p) => ({ in: p.in, path: [p.name], schema: p.schema ?? {} }) as Field),
          ...(bodySchema ? bodyFields(bodySchema, []) : []),
        ]
        const send = async (field: Field, value: unknown) => {
          const name = String(field.path[0])
          const url = openapiPath.replace(/\{(\w+)\}/g, (_, p: string) =>
            field.in === 'path' && p === name ? pathSegment(value) : encodeURIComponent(pathValue(p)),
          )
          const q = { ...query, ...(field.in === 'query' ? { [name]: value } : {}) }
          const qs = Object.entries(q)
            .map(([k, v]) => `${k}=${pathSegment(v)}`)
            .join('&')
          const payload = field.in === 'body' ? withValue(body, field.path, value) : body
          n++
          const headers: Record<string, string> = { cookie: [...who.agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
          if (M !== 'GET') headers['x-csrftoken'] = who.agent.cookies.get(COOKIES.csrf) ?? ''
          if (M !== 'GET') headers['content-type'] = 'application/json'
          return t.app.inject({
            method: M as 'POST',
            url: `${url}${qs ? `?${qs}` : ''}`,
            headers,
            payload: M === 'GET' ? undefined : JSON.stringify(payload ?? {}),
            remoteAddress: `10.77.${(n >> 8) & 255}.${n & 255}`,
          })
        }
        for (const field of fields) {
          const near =
            field.in === 'path'
              ? pathValue(String(field.path[0]))
              : (valueAt(field.in === 'body' ? body : query, field.path) ?? base(field.schema, String(field.path.at(-1)), ids))
          const found = probesOf(field.schema, near)
          const where = `${M} ${openapiPath} ${field.in} ${field.path.join('.')}`
          unprobed.push(...found.unprobed.map((u) => `${where}: ${u}`))
          for (const probe of found.probes) {
            constraints.add(`${where} ${probe.constraint}`)
            const res = await send(field, probe.value)
            const what = `${where} ${probe.constraint} ${JSON.stringify(probe.value).slice(0, 80)} -> ${res.statusCode} ${res.body.slice(0, 160)}`
            if (!(String(res.statusCode) in op.responses)) undeclared.push(what)
            const answer = res.headers['content-type']?.toString().includes('json') ? (res.json() as { error_code?: string; field?: string }) : {}
            const own = String(field.path.filter((seg) => typeof seg === 'string').at(-1))
            const declared = route?.fieldErrors && Object.hasOwn(route.fieldErrors, own) ? (route.fieldErrors[own] as ErrorName) : undefined
            const fieldCodes: string[] = [validationCode, ...(declared ? [ERRORS[declared].code] : [])]
            const onField = field.in === 'path' ? res.statusCode === 400 : answer.field === field.path.join('.')
            const refusedForIt = res.statusCode === 400 && onField && fieldCodes.includes(answer.error_code ?? '')
            if (probe.inside && refusedForIt) refusedInside.push(what)
            if (!probe.inside && !(res.statusCode >= 400 && res.statusCode < 500 && typeof answer.error_code === 'string' && onField)) notRefused.push(what)
            // a probe may have changed the password or ended the session: the customer signs in again
            if (M === 'POST' && openapiPath === '/api/client/change-password/' && res.statusCode === 200)
              who.password = String(valueAt(withValue(body, field.path, probe.value), ['new_password']))
          }
        }
        if ((await who.agent.get('/api/client/')).statusCode === 401) {
          const again = new Agent(t.app, '10.250.2.1')
          const res = await again.post('/api/client/signin/', { username: who.email, password: who.password })
          expect(res.statusCode, `re-sign-in after ${M} ${openapiPath}: ${res.body}`).toBe(200)
          who.agent = again
        }
      }
    }
    console.log(`document constraints: ${constraints.size} probed with ${n} requests`)
    expect({ undeclared, notRefused, refusedInside, unprobed }).toEqual({ undeclared: [], notRefused: [], refusedInside: [], unprobed: [] })
    // the walk reaches the constraints this work put in the document
    for (const expected of [
      'GET /api/license/ query limit maximum 200',
      'POST /api/client/signup/ body password minLength 8',
      'POST /api/client/signup/ body username maxLength 150',
      'POST /api/license/{id}/ body title maxLength 256',
      'POST /api/client/ body phone maxLength 30',
      'POST /api/group/{id}/split/ body limit minimum 2',
      'POST /api/group/{id}/resize/ body limit minimum 1',
    ])
      expect(constraints, expected).toContain(expected)
    expect([...constraints].filter((c) => c.startsWith('POST /api/resource/buy/ body success_url pattern')).length).toBe(2)
  },
)

/**
 * Rules between fields, which JSON Schema cannot state beside one field: the document says them in
 * words. A refusal by one of these is not a rule of the field the walk changed.
 */
const BETWEEN_FIELDS = new Set(['validity_required_error', 'lock_options_error', 'fill_info_empty_error', 'list_group_with_page_error', 'product_filter_error'])

it("the document states every rule the server's schemas keep: what a schema refuses, the document refuses", async () => {
  const ids: Ids = { email: 'someone@example.com', clientId: 1, licenseId: 1, groupId: 1, deviceId: 1, licenseKey: 'A'.repeat(32) }
  const doc = (await t.app.inject('/api/openapi.json')).json() as { paths: Record<string, Record<string, Operation>> }
  const missing: string[] = []
  const basesRefused: string[] = []
  let checked = 0
  for (const [name, c] of Object.entries(contracts as Record<string, Contract>)) {
    if (c.hide) continue
    const op = doc.paths[`/api${c.path.replace(/:(\w+)/g, '{$1}')}`]![c.method.toLowerCase()]!
    const params = op.parameters ?? []
    const bodySchema = op.requestBody?.content?.['application/json']?.schema
    const parts: [Contract['body'], Schema | undefined, Field[], Record<string, unknown>][] = [
      [c.body, bodySchema, bodySchema ? bodyFields(bodySchema, []) : [], (bodySchema ? base(bodySchema, '', ids) : {}) as Record<string, unknown>],
      [c.query, undefined, params.filter((p) => p.in === 'query').map((p) => ({ in: 'query', path: [p.name], schema: p.schema ?? {} })), {}],
      [c.params, undefined, params.filter((p) => p.in === 'path').map((p) => ({ in: 'path', path: [p.name], schema: p.schema ?? {} })), {}],
    ]
    for (const [zod, whole, fields, start] of parts) {
      if (!zod) continue
      // a query or path parameter is text on the wire: the server's schema reads the text, the document the value
      const wire = (f: Field, v: unknown) => (f.in === 'body' ? v : String(v))
      // the path's parameters and the required query ones; an optional one is tried alone
      const needed = (f: Field) => f.in === 'path' || params.some((p) => p.name === f.path[0] && 'required' in p && p.required)
      const baseline = Object.fromEntries(
        fields
          .filter((f) => f.in !== 'body' && needed(f))
          .map((f) => [f.path[0], wire(f, f.in === 'path' ? (f.schema.enum?.[0] ?? '1') : base(f.schema, String(f.path[0]), ids))]),
      )
      let first = { ...start, ...(fields[0]?.in === 'body' ? {} : baseline) }
      if (!zod.safeParse(first).success && whole) first = base(whole, '', ids, true) as Record<string, unknown>
      if (!zod.safeParse(first).success) {
        basesRefused.push(`${name}: ${JSON.stringify(first).slice(0, 120)}`)
        continue
      }
      for (const f of fields) {
        const near = valueAt(first, f.path) ?? base(f.schema, String(f.path.at(-1)), ids)
        for (const v of candidatesNear(f.schema, near)) {
          if (f.in !== 'body' && typeof v === 'object' && v !== null) continue
          const request = f.in === 'body' ? withValue(first, f.path, v) : { ...first, [f.path[0]!]: wire(f, v) }
          const parsed = zod.safeParse(request)
          checked++
          if (parsed.success) continue
          const own = parsed.error.issues.filter((i) => !(i.code === 'custom' && BETWEEN_FIELDS.has(i.message)))
          if (!own.length) continue
          const allowed = f.in === 'body' ? validates(whole!, request) : validates(f.schema, v)
          if (allowed)
            missing.push(`${name} ${f.in} ${f.path.join('.')} ${JSON.stringify(v).slice(0, 60)}: the server refuses (${own[0]!.message}), the document allows`)
        }
      }
    }
  }
  expect(basesRefused).toEqual([])
  expect(missing).toEqual([])
  expect(checked).toBeGreaterThan(5000)
})
