import { describe, expect, it } from 'vitest'
import { ERRORS, ROLES, contracts, may, type Contract, type Role } from '@portal/domain'
import { Agent, STRONG_PASSWORD, expectError, lastMailTo, signedInClient, useTestApp, type TestContext } from '../../test/harness.ts'

const t = useTestApp()
const FORBIDDEN = ERRORS.forbidden_role.code

/** A corporate account signed in as its own owner. */
async function corporateOwner(ctx: Pick<TestContext, 'app' | 'db'>, email?: string) {
  const owner = await signedInClient(ctx, email)
  expect((await owner.agent.post('/api/client/', { options: { corporate_member: true } })).statusCode).toBe(200)
  return owner
}

/** Invites `email` as `role` and answers the token from the mail's link. */
async function invite(agent: Agent, email: string, role: Role) {
  const res = await agent.post('/api/org/invitations/', { email, role })
  expect(res.statusCode, res.body).toBe(200)
  const mail = await lastMailTo(t.db, email)
  const token = /\/app\/invitation\/([A-Za-z0-9_-]+)\//.exec(mail?.link ?? '')?.[1]
  expect(token, mail?.text_body).toBeTruthy()
  return token!
}

/** A person with their own account who joins the owner's organisation as `role` and acts in it. */
async function member(owner: Awaited<ReturnType<typeof corporateOwner>>, role: Role) {
  const person = await signedInClient(t)
  const token = await invite(owner.agent, person.email, role)
  const res = await person.agent.post(`/api/invitation/${token}/accept/`)
  expect(res.statusCode, res.body).toBe(200)
  return person
}

const concrete = (path: string) => `/api${path.replace(/:[A-Za-z_]+/g, '1')}`
/** every call a signed-in client makes; leaving the organisation last, as it ends the membership the table runs in */
const clientCalls = Object.entries(contracts as Record<string, Contract>)
  .filter(([, c]) => c.auth === 'client')
  .sort(([a], [b]) => Number(a === 'orgLeave') - Number(b === 'orgLeave'))

describe('every client route checks the role on the server', () => {
  it('declares a permission on every client call', () => {
    expect(clientCalls.length).toBeGreaterThan(40)
    expect(clientCalls.filter(([, c]) => !c.permission).map(([name]) => name)).toEqual([])
  })

  it.each(ROLES)('%s: each route answers as may() says, 403 forbidden_role where it may not', async (role) => {
    const owner = await corporateOwner(t)
    const person = await member(owner, role)
    for (const [name, c] of clientCalls) {
      const url = concrete(c.path)
      const res = c.method === 'GET' ? await person.agent.get(url) : await person.agent.post(url, {})
      const refused = res.statusCode === 403 && res.json().error_code === FORBIDDEN
      expect(refused, `${role} ${name} ${c.method} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`).toBe(!may(role, c.permission!))
      expect(res.statusCode, `${role} ${name}`).toBeLessThan(500)
    }
  })

  it('a personal account is the owner of itself', async () => {
    const { agent } = await signedInClient(t)
    const res = await agent.get('/api/org/')
    expect(res.json().orgs).toEqual([expect.objectContaining({ role: 'owner', corporate: false, current: true })])
    expect((await agent.get('/api/transaction/')).statusCode).toBe(200)
  })
})

describe('invitations', () => {
  it('a new person registers through the link and acts in the organisation with the role', async () => {
    const owner = await corporateOwner(t)
    const email = 'new.developer@example.com'
    const token = await invite(owner.agent, email, 'developer')
    const anon = new Agent(t.app)
    const preview = await anon.get(`/api/invitation/${token}/`)
    expect(preview.json()).toEqual({ org_name: owner.email, email, role: 'developer', account_exists: false })
    const res = await anon.post(`/api/invitation/${token}/register/`, { password: STRONG_PASSWORD })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().person.email).toBe(email)
    expect(res.json().orgs).toEqual([
      expect.objectContaining({ role: 'owner', corporate: false, current: false }),
      expect.objectContaining({ id: owner.client.id, role: 'developer', corporate: true, current: true }),
    ])
    // signed in, acting in the organisation: licenses yes, money no
    expect((await anon.get('/api/license/')).statusCode).toBe(200)
    expectError(await anon.post('/api/balance/refill/', { amount: '10' }), 403, FORBIDDEN)
    // the link works once
    expectError(await new Agent(t.app).get(`/api/invitation/${token}/`), 404, ERRORS.invitation_invalid.code)
    expectError(await new Agent(t.app).post(`/api/invitation/${token}/register/`, { password: STRONG_PASSWORD }), 404, ERRORS.invitation_invalid.code)
    // and the new account signs in with its own password
    expect((await new Agent(t.app).post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })).statusCode).toBe(200)
  })

  it('an expired link is refused', async () => {
    const owner = await corporateOwner(t)
    const token = await invite(owner.agent, 'late@example.com', 'viewer')
    await t.db.query("UPDATE invitations SET expires_at = now() - interval '1 second'")
    expectError(await new Agent(t.app).get(`/api/invitation/${token}/`), 404, ERRORS.invitation_invalid.code)
    expectError(await new Agent(t.app).post(`/api/invitation/${token}/register/`, { password: STRONG_PASSWORD }), 404, ERRORS.invitation_invalid.code)
    // nor is it listed as open
    expect((await owner.agent.get('/api/org/members/')).json().invitations).toEqual([])
  })

  it('a person with an account accepts after signing in with the invited e-mail, once', async () => {
    const owner = await corporateOwner(t)
    const person = await signedInClient(t)
    const other = await signedInClient(t)
    const token = await invite(owner.agent, person.email.toUpperCase(), 'billing')
    expect((await new Agent(t.app).get(`/api/invitation/${token}/`)).json().account_exists).toBe(true)
    expectError(await new Agent(t.app).post(`/api/invitation/${token}/accept/`), 401, ERRORS.unauthorized.code)
    expectError(await other.agent.post(`/api/invitation/${token}/accept/`), 403, ERRORS.invitation_other_email.code)
    // an account of that e-mail cannot be made through the link
    expectError(await new Agent(t.app).post(`/api/invitation/${token}/register/`, { password: STRONG_PASSWORD }), 400, ERRORS.email_in_use.code)
    const res = await person.agent.post(`/api/invitation/${token}/accept/`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().orgs.find((o: { current: boolean }) => o.current)).toMatchObject({ id: owner.client.id, role: 'billing' })
    expectError(await person.agent.post(`/api/invitation/${token}/accept/`), 404, ERRORS.invitation_invalid.code)
    // a member is not invited again
    expectError(await owner.agent.post('/api/org/invitations/', { email: person.email, role: 'viewer' }), 409, ERRORS.already_member.code, 'email')
    const members = (await owner.agent.get('/api/org/members/')).json().members
    expect(members.map((m: { email: string; role: string; founder: boolean }) => [m.email, m.role, m.founder])).toEqual([
      [owner.email, 'owner', true],
      [person.email, 'billing', false],
    ])
  })

  it('a withdrawn invitation stops working; a personal account invites nobody', async () => {
    const owner = await corporateOwner(t)
    await invite(owner.agent, 'maybe@example.com', 'viewer')
    const token = await invite(owner.agent, 'maybe@example.com', 'developer')
    const open = (await owner.agent.get('/api/org/members/')).json().invitations
    expect(open).toEqual([expect.objectContaining({ email: 'maybe@example.com', role: 'developer' })])
    expect((await owner.agent.post(`/api/org/invitations/${open[0].id}/revoke/`)).json().invitations).toEqual([])
    expectError(await new Agent(t.app).get(`/api/invitation/${token}/`), 404, ERRORS.invitation_invalid.code)
    const personal = await signedInClient(t)
    expectError(await personal.agent.post('/api/org/invitations/', { email: 'x@example.com', role: 'viewer' }), 409, ERRORS.not_corporate.code)
  })
})

describe('organisation scoping', () => {
  it('a person in two organisations sees the current one only; the other’s ids are not found', async () => {
    const a = await corporateOwner(t)
    const b = await corporateOwner(t)
    const person = await member(a, 'developer')
    const tokenB = await invite(b.agent, person.email, 'viewer')
    expect((await person.agent.post(`/api/invitation/${tokenB}/accept/`)).statusCode).toBe(200)
    const orgs = (await person.agent.get('/api/org/')).json().orgs
    expect(orgs.map((o: { id: number; role: string; current: boolean }) => [o.id, o.role, o.current])).toEqual([
      [person.client.id, 'owner', false],
      [a.client.id, 'developer', false],
      [b.client.id, 'viewer', true],
    ])
    // a trial made by the owner of A
    const made = await a.agent.post('/api/resource/create/', { count: 1, config: { product: 'nuitrack_trial' } })
    expect(made.statusCode, made.body).toBe(200)
    const licenseId = made.json().licenses[0].id as number
    // acting in B, A's license is not found (and B's viewer changes nothing)
    expectError(await person.agent.get(`/api/license/${licenseId}/`), 404, ERRORS.not_found.code)
    expect((await person.agent.get('/api/license/')).json().licenses).toEqual([])
    expectError(await person.agent.post(`/api/license/${licenseId}/`, { title: 'Mine' }), 403, FORBIDDEN)
    // switched to A, it is there and the developer renames it; the history names who did it
    expect((await person.agent.post('/api/org/switch/', { org_id: a.client.id })).json().orgs[1].current).toBe(true)
    expect((await person.agent.get(`/api/license/${licenseId}/`)).statusCode).toBe(200)
    expect((await person.agent.post(`/api/license/${licenseId}/`, { title: 'Kiosk 7' })).statusCode).toBe(200)
    const history = (await a.agent.get('/api/account/history/')).json().events
    expect(history[0]).toMatchObject({ kind: 'renamed', actor: person.email })
    expect(history.at(-1)).toMatchObject({ kind: 'created', actor: a.email })
    const csv = await a.agent.get('/api/account/history/export/')
    const [header, first] = csv.body.split(/\r?\n/)
    expect(header!.split(',').at(-1)).toBe('actor')
    expect(first!.endsWith(person.email)).toBe(true)
    // an organisation the person is not in is not found, and the session stays where it was
    const stranger = await signedInClient(t)
    expectError(await person.agent.post('/api/org/switch/', { org_id: stranger.client.id }), 404, ERRORS.not_found.code)
    expect((await person.agent.get(`/api/license/${licenseId}/`)).statusCode).toBe(200)
  })

  it('a removed member’s session falls back to their own account', async () => {
    const owner = await corporateOwner(t)
    const person = await member(owner, 'developer')
    await owner.agent.post('/api/resource/create/', { count: 1, config: { product: 'nuitrack_trial' } })
    expect((await person.agent.get('/api/license/')).json().licenses).toHaveLength(1)
    expect((await owner.agent.post(`/api/org/members/${person.client.id}/remove/`)).statusCode).toBe(200)
    expect((await person.agent.get('/api/license/')).json().licenses).toEqual([])
    expect((await person.agent.get('/api/org/')).json().orgs).toEqual([expect.objectContaining({ id: person.client.id, current: true })])
  })
})

describe('owners', () => {
  it('the last owner cannot step down, leave or be removed; the organisation’s own sign-in stays', async () => {
    const owner = await corporateOwner(t)
    const id = owner.client.id
    expectError(await owner.agent.post(`/api/org/members/${id}/role/`, { role: 'viewer' }), 409, ERRORS.last_owner.code)
    expectError(await owner.agent.post(`/api/org/members/${id}/remove/`), 409, ERRORS.founder_stays.code)
    expectError(await owner.agent.post('/api/org/leave/'), 409, ERRORS.founder_stays.code)
    const second = await member(owner, 'owner')
    // with a second owner the first may step down; then the second is the last
    expect((await owner.agent.post(`/api/org/members/${id}/role/`, { role: 'viewer' })).statusCode).toBe(200)
    expectError(await second.agent.post('/api/org/leave/'), 409, ERRORS.last_owner.code)
    expectError(await second.agent.post(`/api/org/members/${second.client.id}/role/`, { role: 'billing' }), 409, ERRORS.last_owner.code)
    // the account's own sign-in, now a viewer, administers nothing
    expectError(await owner.agent.post(`/api/org/members/${second.client.id}/remove/`), 403, FORBIDDEN)
    expectError(await second.agent.post(`/api/org/members/${id}/remove/`), 409, ERRORS.founder_stays.code)
    expectError(await second.agent.post('/api/org/members/999999/role/', { role: 'viewer' }), 404, ERRORS.not_found.code)
    // made owner again, the second owner may leave
    expect((await second.agent.post(`/api/org/members/${id}/role/`, { role: 'owner' })).statusCode).toBe(200)
    const left = await second.agent.post('/api/org/leave/')
    expect(left.json().orgs).toEqual([expect.objectContaining({ id: second.client.id, current: true })])
  })
})

describe('personal and corporate', () => {
  it('switching to corporate makes an organisation with its owner; back only while it has one member', async () => {
    const owner = await signedInClient(t)
    expect((await owner.agent.get('/api/org/members/')).json().members).toEqual([])
    const owned = await corporateOwner(t)
    expect((await owned.agent.get('/api/org/members/')).json().members).toEqual([expect.objectContaining({ role: 'owner', founder: true, you: true })])
    const person = await member(owned, 'viewer')
    expectError(await owned.agent.post('/api/client/', { options: { corporate_member: false } }), 409, ERRORS.org_has_members.code)
    expect((await owned.agent.get('/api/client/')).json().client_info.options.corporate_member).toBe(true)
    await owned.agent.post(`/api/org/members/${person.client.id}/remove/`)
    const back = await owned.agent.post('/api/client/', { options: { corporate_member: false } })
    expect(back.statusCode, back.body).toBe(200)
    expect((await owned.agent.get('/api/org/members/')).json().members).toEqual([])
    expect((await owned.agent.get('/api/org/')).json().orgs).toEqual([expect.objectContaining({ role: 'owner', corporate: false })])
  })
})

describe('an API token of an organisation', () => {
  /** a call with the token only: no cookie, no CSRF header */
  const bearer = (secret: string, method: 'GET' | 'POST', url: string) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${secret}` }, ...(method === 'POST' ? { payload: {} } : {}) })
  const makeToken = async (agent: Agent, scope: 'read' | 'manage') => {
    const res = await agent.post('/api/account/tokens/', { name: 'script', scope, expires_in_days: 30 })
    expect(res.statusCode, res.body).toBe(201)
    return (res.json() as { secret: string }).secret
  }

  it("acts with its creator's role there, capped by its scope, and acts no more once the creator is removed", async () => {
    const owner = await corporateOwner(t)
    const developer = await member(owner, 'developer')
    const billing = await member(owner, 'billing')

    const devToken = await makeToken(developer.agent, 'manage')
    const [row] = await t.db.query<{ client_id: number; created_by: number }>('SELECT client_id, created_by FROM api_tokens')
    expect(row).toEqual({ client_id: owner.client.id, created_by: developer.client.id })
    expect((await bearer(devToken, 'GET', '/api/license/')).statusCode).toBe(200)
    // a developer reads no payment documents, with the cookie or with a token
    expectError(await bearer(devToken, 'GET', '/api/transaction/'), 403, FORBIDDEN)
    // billing members manage no tokens
    expectError(await billing.agent.post('/api/account/tokens/', { name: 'x', scope: 'read', expires_in_days: 30 }), 403, FORBIDDEN)

    // the owner's read token reads what a viewer reads, and writes nothing
    const readToken = await makeToken(owner.agent, 'read')
    expect((await bearer(readToken, 'GET', '/api/transaction/')).statusCode).toBe(200)
    expectError(await bearer(readToken, 'POST', '/api/license/1/'), 403, ERRORS.api_token_read_only.code)

    expect((await owner.agent.post(`/api/org/members/${developer.client.id}/remove/`)).statusCode).toBe(200)
    expectError(await bearer(devToken, 'GET', '/api/license/'), 401, ERRORS.api_token_revoked.code)
  })
})
