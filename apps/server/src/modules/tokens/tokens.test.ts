import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { contracts, type Contract } from '@portal/domain'
import { runCommand } from '../../cli/commands.ts'
import { Agent, count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'

const t = useTestApp()

type Signed = Awaited<ReturnType<typeof signedInClient>>

/** A client with a granted default group of online Nuitrack subscriptions (the device API activates them). */
async function owner(licenses = 5) {
  const c = await signedInClient(t)
  expect((await runCommand(t.db, ['licenses:grant', c.email, 'nuitrack_subscribe', String(licenses), '--os-type', '1'])).code).toBe(0)
  const groups = (await c.agent.get('/api/group/')).json().groups as { id: number; limit: number }[]
  return { ...c, group: groups[groups.length - 1]! }
}

async function makeToken(c: Signed, body: { name?: string; scope?: 'read' | 'manage'; expires_in_days?: number | null } = {}) {
  const res = await c.agent.post('/api/account/tokens/', { name: 'CI', scope: 'manage', expires_in_days: 30, ...body })
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as { token: { id: number; hint: string; scope: string; state: string }; secret: string }
}

/** A call with the token only: no cookie, no CSRF header (a script's call). */
function bearer(secret: string, method: 'GET' | 'POST', url: string, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  })
}

const E = {
  unknown: '61991cdb',
  revoked: '5b406fb4',
  expired: '8d5c1652',
  readOnly: '86776ace',
  notAccepted: 'e5aa34a2',
}

describe('API tokens', () => {
  it('are shown once, stored as their SHA-256 only, and listed with a hint and no secret', async () => {
    const c = await signedInClient(t)
    const made = await makeToken(c, { name: 'Provisioning', scope: 'read', expires_in_days: 90 })
    expect(made.secret).toMatch(/^lp_[A-Za-z0-9_-]{43}$/)
    expect(made.token).toMatchObject({ scope: 'read', state: 'active', hint: made.secret.slice(0, 8) })
    const [row] = await t.db.query<{ token_hash: string; created_by: number; days: number }>(
      `SELECT token_hash, created_by, round(extract(epoch FROM expires_at - created_at) / 86400)::int AS days FROM api_tokens`,
    )
    expect(row).toEqual({ token_hash: createHash('sha256').update(made.secret).digest('hex'), created_by: c.client.id, days: 90 })
    const list = await c.agent.get('/api/account/tokens/')
    expect(list.body).not.toContain(made.secret)
    expect(list.json().tokens).toEqual([
      expect.objectContaining({ id: made.token.id, name: 'Provisioning', last_used_at: null, expires_at: expect.any(String) }),
    ])
    // never: no expiry
    expect((await makeToken(c, { expires_in_days: null })).token).toMatchObject({ expires_at: null })
    // only the offered lifetimes and scopes
    expectError(await c.agent.post('/api/account/tokens/', { name: 'x', scope: 'manage', expires_in_days: 7 }), 400, '6a38afc1', 'expires_in_days')
    expectError(await c.agent.post('/api/account/tokens/', { name: 'x', scope: 'admin', expires_in_days: 30 }), 400, '6a38afc1', 'scope')
  })

  it('a manage token lists licenses, generates a key from a group and renames it, with no cookie and no CSRF', async () => {
    const c = await owner()
    const { secret } = await makeToken(c)
    const made = await bearer(secret, 'POST', `/api/group/${c.group.id}/new-license/`, { title: 'Kiosk 1' })
    expect(made.statusCode, made.body).toBe(200)
    expect(made.cookies).toEqual([])
    const license = made.json() as { id: number; token: string }
    const list = await bearer(secret, 'GET', '/api/license/')
    expect(list.statusCode).toBe(200)
    expect(list.json().licenses.map((l: { id: number }) => l.id)).toEqual([license.id])
    const renamed = await bearer(secret, 'POST', `/api/license/${license.id}/`, { title: 'Kiosk 1 (lobby)' })
    expect(renamed.json()).toMatchObject({ id: license.id, title: 'Kiosk 1 (lobby)' })
    expect((await bearer(secret, 'GET', '/api/group/')).statusCode).toBe(200)
    expect((await bearer(secret, 'GET', '/api/transaction/')).statusCode).toBe(200)
    // the key works on the device API, which answers the license file
    const activated = await new Agent(t.app).post('/api/sdk/activate/', { key: license.token, fingerprint: 'kiosk-1' }, { csrf: false })
    expect(activated.statusCode, activated.body).toBe(200)
    expect(activated.json().license_file).toContain('LICENSE')
  })

  it("reaches the account's own data only: another client's license is not found", async () => {
    const a = await owner()
    const b = await owner()
    const theirs = (await b.agent.post(`/api/group/${b.group.id}/new-license/`, {})).json()
    const { secret } = await makeToken(a)
    expectError(await bearer(secret, 'GET', `/api/license/${theirs.id}/`), 404, '63f560db')
    expectError(await bearer(secret, 'POST', `/api/group/${b.group.id}/new-license/`, {}), 404, '63f560db')
  })

  it('a read token makes GET calls only', async () => {
    const c = await owner()
    const { secret } = await makeToken(c, { scope: 'read' })
    expect((await bearer(secret, 'GET', '/api/license/')).statusCode).toBe(200)
    expectError(await bearer(secret, 'POST', `/api/group/${c.group.id}/new-license/`, {}), 403, E.readOnly)
    expect(await count(t.db, 'licenses WHERE client_id = $1', [c.client.id])).toBe(0)
  })

  it('never opens sign-in, the account, token or webhook management, purchases or top-ups', async () => {
    const c = await owner()
    const { secret } = await makeToken(c)
    const refused: ['GET' | 'POST', string, unknown?][] = [
      ['GET', '/api/client/'],
      ['POST', '/api/client/', { name: 'X' }],
      ['POST', '/api/client/change-password/', { old_password: 'a', new_password: 'b' }],
      ['GET', '/api/account/tokens/'],
      ['POST', '/api/account/tokens/', { name: 'more', scope: 'manage', expires_in_days: null }],
      ['POST', '/api/account/tokens/1/revoke/', {}],
      ['GET', '/api/account/webhooks/'],
      ['POST', '/api/account/webhooks/', { url: 'https://example.com/hook', events: ['device.activated'] }],
      ['GET', '/api/account/history/'],
      ['POST', '/api/resource/buy/', { payment_source: 'balance', items: [] }],
      ['POST', '/api/resource/subscribe/', { payment_source: 'balance', items: [] }],
      ['POST', '/api/balance/refill/', { amount: 100 }],
      ['POST', `/api/group/${c.group.id}/upgrade/`, {}],
    ]
    for (const [method, url, body] of refused) expectError(await bearer(secret, method, url, body), 403, E.notAccepted)
    // sign-in is public: the token is no session there, so a POST without the CSRF pair is refused as ever
    expectError(await bearer(secret, 'POST', '/api/client/signin/', { username: c.email, password: c.password }), 403, '2ac46899')
    expect(await count(t.db, 'api_tokens')).toBe(1)
  })

  it('an unknown, malformed, revoked or expired token answers its own coded 401', async () => {
    const c = await owner()
    expectError(await bearer('lp_' + 'x'.repeat(43), 'GET', '/api/license/'), 401, E.unknown)
    expectError(await bearer('not-a-token', 'GET', '/api/license/'), 401, E.unknown)
    const expiring = await makeToken(c)
    await t.db.query(`UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [expiring.token.id])
    expectError(await bearer(expiring.secret, 'GET', '/api/license/'), 401, E.expired)
    expect((await c.agent.get('/api/account/tokens/')).json().tokens[0]).toMatchObject({ id: expiring.token.id, state: 'expired' })
    const { token, secret } = await makeToken(c)
    expect((await bearer(secret, 'GET', '/api/license/')).statusCode).toBe(200)
    const revoked = await c.agent.post(`/api/account/tokens/${token.id}/revoke/`, {})
    expect(revoked.json().token).toMatchObject({ state: 'revoked', revoked_at: expect.any(String) })
    expectError(await bearer(secret, 'GET', '/api/license/'), 401, E.revoked)
    expectError(await bearer(secret, 'POST', `/api/group/${c.group.id}/new-license/`, {}), 401, E.revoked)
    // another account's token cannot be revoked from here
    const other = await signedInClient(t)
    expectError(await other.agent.post(`/api/account/tokens/${expiring.token.id}/revoke/`, {}), 404, '63f560db')
  })

  it('CSRF is not asked of a bearer call and is still asked of a cookie call', async () => {
    const c = await owner()
    const { secret } = await makeToken(c)
    expect((await bearer(secret, 'POST', `/api/group/${c.group.id}/new-license/`, {})).statusCode).toBe(200)
    expectError(await c.agent.post(`/api/group/${c.group.id}/new-license/`, {}, { csrf: false }), 403, '2ac46899')
    expect((await c.agent.post(`/api/group/${c.group.id}/new-license/`, {})).statusCode).toBe(200)
  })

  it('writes the last use at most once a minute', async () => {
    const c = await owner()
    const { token, secret } = await makeToken(c)
    const lastUsed = async () => (await t.db.query<{ at: Date | null }>('SELECT last_used_at AS at FROM api_tokens WHERE id = $1', [token.id]))[0]!.at
    await bearer(secret, 'GET', '/api/license/')
    const first = await lastUsed()
    expect(first).toBeInstanceOf(Date)
    await t.db.query(`UPDATE api_tokens SET last_used_at = now() - interval '30 seconds' WHERE id = $1`, [token.id])
    const recent = await lastUsed()
    await bearer(secret, 'GET', '/api/license/')
    expect(await lastUsed()).toEqual(recent)
    await t.db.query(`UPDATE api_tokens SET last_used_at = now() - interval '61 seconds' WHERE id = $1`, [token.id])
    await bearer(secret, 'GET', '/api/group/')
    expect((await lastUsed())!.getTime()).toBeGreaterThan(recent!.getTime())
    expect((await c.agent.get('/api/account/tokens/')).json().tokens[0].last_used_at).toEqual(expect.any(String))
  })
})

describe('the OpenAPI document', () => {
  it('declares the bearer scheme on exactly the calls whose contract takes a token', async () => {
    const doc = (await t.app.inject('/api/openapi.json')).json()
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' })
    const all = Object.values(contracts) as Contract[]
    const declared = all
      .filter((c) => !c.hide)
      .map((c) => {
        const path = `/api${c.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`
        const security = (doc.paths[path]?.[c.method.toLowerCase()]?.security ?? []) as Record<string, unknown>[]
        return { call: `${c.method} ${c.path}`, bearer: security.some((s) => 'bearer' in s) }
      })
    const expected = all.filter((c) => !c.hide).map((c) => ({ call: `${c.method} ${c.path}`, bearer: c.bearer === true }))
    expect(declared).toEqual(expected)
    expect(declared.filter((d) => d.bearer).length).toBeGreaterThan(10)
    // what stays cookie-only, by name
    for (const c of [
      contracts.profile,
      contracts.tokenCreate,
      contracts.webhookCreate,
      contracts.resourceBuy,
      contracts.balanceRefill,
      contracts.signin,
    ] as Contract[])
      expect(c.bearer).toBeFalsy()
  })
})
