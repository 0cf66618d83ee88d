import { describe, expect, it } from 'vitest'
import { ERRORS, FLEET_ACTIVATION_DAYS, PLATFORMS, type FleetSummary, type FleetView } from '@portal/domain'
import { randomToken } from '../../platform/crypto.ts'
import { expectError, signedInClient, useTestApp, type Agent } from '../../test/harness.ts'

const t = useTestApp()

// business time of every test: a Wednesday at noon (UTC)
const NOW = new Date('2026-06-17T12:00:00Z')

const viewOf = async (agent: Agent) => {
  const res = await agent.get('/api/account/fleet/')
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as FleetView
}
const summaryOf = async (agent: Agent, platform: string) => {
  const res = await agent.get(`/api/account/fleet/${platform}/`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as FleetSummary
}

async function license(clientId: number, product: string, more: { expire?: string; activated?: string; status?: number; revoked?: boolean } = {}) {
  const [row] = await t.db.query<{ id: string }>(
    `INSERT INTO licenses (client_id, type, product, token, expire_date, activation_date, status, revoked_at)
     VALUES ($1, 'x', $2, $3, $4, $5, $6, CASE WHEN $7 THEN now() END) RETURNING id`,
    [clientId, product, randomToken(12), more.expire ?? null, more.activated ?? null, more.status ?? 0, more.revoked ?? false],
  )
  return Number(row!.id)
}
const event = (clientId: number, licenseId: number, kind: string, at: string) =>
  t.db.query('INSERT INTO activity_events (client_id, license_id, kind, created_at) VALUES ($1, $2, $3, $4)', [clientId, licenseId, kind, at])

let invoice = 900_000
async function paid(
  clientId: number,
  p: { cents: number; at: string; kind?: string; type?: 0 | 1; pending?: boolean; licenseId?: number; groupId?: number; entry?: string },
) {
  const [row] = await t.db.query<{ id: string }>(
    `INSERT INTO transactions (client_id, type, status, amount_cents, kind, description, lines, payment_source, invoice_number, paid_at, license_id, group_id)
     VALUES ($1, $2, $3, $4, $5, 'test', $6, 'stripe', $7, $8, $9, $10) RETURNING id`,
    [
      clientId,
      p.type ?? 1,
      p.pending ? 1 : 0,
      p.cents,
      p.kind ?? 'purchase',
      JSON.stringify(p.entry ? [{ description: 'line', quantity: 1, amount_cents: p.cents, entry_id: p.entry }] : []),
      p.pending ? null : (invoice += 1) + Math.floor(Math.random() * 1_000_000) * 100,
      p.pending ? null : p.at,
      p.licenseId ?? null,
      p.groupId ?? null,
    ],
  )
  return Number(row!.id)
}
let note = 900_000
const creditNote = (clientId: number, transactionId: number, cents: number, at: string, kind = 'refund', restored: string | null = null) =>
  t.db.query(
    `INSERT INTO credit_notes (number, client_id, transaction_id, kind, amount_cents, reason, issued_at, restored_at)
     VALUES ($1, $2, $3, $4, $5, 'test', $6, $7)`,
    [(note += 1) + Math.floor(Math.random() * 1_000_000) * 100, clientId, transactionId, kind, cents, at, restored],
  )

const zeros = Object.fromEntries(PLATFORMS.map((p) => [p, 0]))

describe('GET /api/account/fleet/', () => {
  it('activations per UTC day and platform over 90 days: empty days are zeros, other kinds and other clients do not count', async () => {
    t.clock.set(NOW)
    const a = await signedInClient(t)
    const b = await signedInClient(t)
    const nuitrack = await license(a.client.id, 'old')
    const face = await license(a.client.id, 'face_online_custom')
    const machine = await license(a.client.id, 'fmc_subscribe')
    const theirs = await license(b.client.id, 'old')
    await event(a.client.id, nuitrack, 'activated', '2026-06-17T00:00:00Z')
    await event(a.client.id, nuitrack, 'activated', '2026-06-17T11:59:00Z')
    await event(a.client.id, nuitrack, 'activated', '2026-06-10T23:59:59Z')
    await event(a.client.id, face, 'activated', '2026-06-10T08:00:00Z')
    await event(a.client.id, machine, 'activated', '2026-03-20T00:00:00Z')
    // the day before the window, a line of another kind, another client's activation
    await event(a.client.id, nuitrack, 'activated', '2026-03-19T23:59:59Z')
    await event(a.client.id, face, 'released', '2026-06-10T09:00:00Z')
    await event(b.client.id, theirs, 'activated', '2026-06-17T10:00:00Z')

    const days = (await viewOf(a.agent)).activations
    expect(days).toHaveLength(FLEET_ACTIVATION_DAYS)
    expect(days[0]).toEqual({ day: '2026-03-20', ...zeros, 'face-machine': 1 })
    expect(days.at(-1)).toEqual({ day: '2026-06-17', ...zeros, nuitrack: 2 })
    expect(days.find((d) => d.day === '2026-06-10')).toEqual({ day: '2026-06-10', ...zeros, nuitrack: 1, face: 1 })
    expect(days.find((d) => d.day === '2026-06-11')).toEqual({ day: '2026-06-11', ...zeros })
    // one row per day, in order, none skipped
    expect(new Set(days.map((d) => d.day)).size).toBe(FLEET_ACTIVATION_DAYS)
    expect([...days.map((d) => d.day)].sort()).toEqual(days.map((d) => d.day))
    const total = days.reduce((s, d) => s + PLATFORMS.reduce((n, p) => n + d[p], 0), 0)
    expect(total).toBe(5)

    // the other client sees its own one activation only
    const theirDays = (await viewOf(b.agent)).activations
    expect(theirDays.reduce((s, d) => s + d.nuitrack, 0)).toBe(1)
  })

  it('licenses by status and expiring per week: live licenses of the client only, every week present', async () => {
    t.clock.set(NOW)
    const a = await signedInClient(t)
    const b = await signedInClient(t)
    await license(a.client.id, 'old', { expire: '2026-06-20T00:00:00Z', activated: '2026-06-01T00:00:00Z' })
    await license(a.client.id, 'face_online_custom', { expire: '2026-07-01T00:00:00Z' })
    await license(a.client.id, 'fmc_subscribe', { expire: '2026-07-02T00:00:00Z', status: 1 })
    await license(a.client.id, 'old', { expire: '2026-12-01T00:00:00Z' })
    // expired already, revoked, another client's
    await license(a.client.id, 'old', { expire: '2026-06-01T00:00:00Z' })
    await license(a.client.id, 'old', { expire: '2026-06-22T00:00:00Z', revoked: true })
    await license(b.client.id, 'old', { expire: '2026-06-22T00:00:00Z' })

    const view = await viewOf(a.agent)
    expect(Object.fromEntries(view.license_status.map((s) => [s.status, s.count]))).toEqual({ new: 2, active: 1, suspended: 2, holded: 0, paused: 0 })
    // the week of now (Monday 15 June) to the week of now + 90 days (Monday 14 September)
    expect(view.expiring).toHaveLength(14)
    expect(view.expiring[0]).toEqual({ week: '2026-06-15', count: 1 })
    expect(view.expiring.find((w) => w.week === '2026-06-29')).toEqual({ week: '2026-06-29', count: 2 })
    expect(view.expiring.at(-1)).toEqual({ week: '2026-09-14', count: 0 })
    expect(view.expiring.reduce((s, w) => s + w.count, 0)).toBe(3)
  })

  it('spend per month and platform in cents: paid debits less refunds, no top-ups, pending or other clients', async () => {
    t.clock.set(NOW)
    const a = await signedInClient(t)
    const b = await signedInClient(t)
    const nuitrack = await license(a.client.id, 'nuitrack_online_subscription_monthly')
    const [group] = await t.db.query<{ id: string }>(
      `INSERT INTO license_groups (client_id, type, product, token) VALUES ($1, 'x', 'fmc_subscribe', $2) RETURNING id`,
      [a.client.id, randomToken(12)],
    )
    // a basket order of Face SDK (its first line names the sale entry), partly refunded in the month
    const order = await paid(a.client.id, { cents: 5000, at: '2026-06-03T10:00:00Z', entry: 'face_online_all_in_one_2592000' })
    await creditNote(a.client.id, order, 2000, '2026-06-10T10:00:00Z')
    // a renewal of a Nuitrack license in May, disputed and the dispute won: still spent
    const renewal = await paid(a.client.id, { cents: 1999, at: '2026-05-10T10:00:00Z', kind: 'renewal', licenseId: nuitrack })
    await creditNote(a.client.id, renewal, 1999, '2026-05-20T10:00:00Z', 'dispute', '2026-05-25T10:00:00Z')
    // a group upgrade of Face Machine, the last day of the window's first month
    await paid(a.client.id, { cents: 700, at: '2025-07-31T23:59:59Z', kind: 'upgrade', groupId: Number(group!.id) })
    // a purchase of April refunded in full in May: negative in May
    const april = await paid(a.client.id, { cents: 300, at: '2026-04-02T10:00:00Z', entry: 'na_subscribe_2592000' })
    await creditNote(a.client.id, april, 300, '2026-05-02T10:00:00Z')
    // not spend: a top-up (and its refund), a pending checkout, a purchase before the window, another client's
    const topUp = await paid(a.client.id, { cents: 10_000, at: '2026-05-01T10:00:00Z', kind: 'top_up', type: 0 })
    await creditNote(a.client.id, topUp, 10_000, '2026-05-02T10:00:00Z')
    await paid(a.client.id, { cents: 800, at: '2026-06-01T10:00:00Z', pending: true, entry: 'face_online_subscribe_2592000' })
    await paid(a.client.id, { cents: 900, at: '2025-06-30T23:59:59Z', entry: 'face_online_subscribe_2592000' })
    await paid(b.client.id, { cents: 9999, at: '2026-06-03T10:00:00Z', entry: 'face_online_subscribe_2592000' })

    const spend = (await viewOf(a.agent)).spend
    expect(spend.map((m) => m.month)).toEqual([
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
    ])
    expect(spend[0]).toEqual({ month: '2025-07', ...zeros, 'face-machine': 700 })
    expect(spend.find((m) => m.month === '2026-04')).toEqual({ month: '2026-04', ...zeros, 'nuitrack-analytics': 300 })
    expect(spend.find((m) => m.month === '2026-05')).toEqual({ month: '2026-05', ...zeros, nuitrack: 1999, 'nuitrack-analytics': -300 })
    expect(spend.find((m) => m.month === '2026-06')).toEqual({ month: '2026-06', ...zeros, face: 3000 })
    expect(spend.find((m) => m.month === '2025-12')).toEqual({ month: '2025-12', ...zeros })
    for (const m of spend) for (const p of PLATFORMS) expect(Number.isInteger(m[p])).toBe(true)
  })

  it('an account with nothing answers every day, week and month with zeros', async () => {
    t.clock.set(NOW)
    const a = await signedInClient(t)
    const view = await viewOf(a.agent)
    expect(view.activations).toHaveLength(FLEET_ACTIVATION_DAYS)
    expect(view.spend).toHaveLength(12)
    expect(view.expiring).toHaveLength(14)
    expect([...view.activations, ...view.spend].every((r) => PLATFORMS.every((p) => r[p] === 0))).toBe(true)
    expect(view.license_status.every((s) => s.count === 0)).toBe(true)
  })
})

describe('GET /api/account/fleet/{platform}/', () => {
  it("counts the platform's bound devices and its licenses expiring in 90 days, nobody else's", async () => {
    t.clock.set(NOW)
    const a = await signedInClient(t)
    const b = await signedInClient(t)
    const nuitrack = await license(a.client.id, 'old', { expire: '2026-07-01T00:00:00Z' })
    await license(a.client.id, 'old', { expire: '2026-10-01T00:00:00Z' })
    const face = await license(a.client.id, 'face_online_custom', { expire: '2026-06-18T00:00:00Z' })
    const revoked = await license(a.client.id, 'old', { expire: '2026-07-01T00:00:00Z', revoked: true })
    const theirs = await license(b.client.id, 'old', { expire: '2026-07-01T00:00:00Z' })
    const device = (licenseId: number, released: boolean) =>
      t.db.query(`INSERT INTO devices (license_id, kind, released_at) VALUES ($1, 'online', CASE WHEN $2 THEN now() END)`, [licenseId, released])
    await device(nuitrack, false)
    await device(nuitrack, false)
    await device(nuitrack, true)
    await device(face, false)
    await device(revoked, false)
    await device(theirs, false)

    expect(await summaryOf(a.agent, 'nuitrack')).toEqual({ active_devices: 2, expiring_soon: 1 })
    expect(await summaryOf(a.agent, 'face')).toEqual({ active_devices: 1, expiring_soon: 1 })
    expect(await summaryOf(a.agent, 'face-machine')).toEqual({ active_devices: 0, expiring_soon: 0 })
    expect(await summaryOf(b.agent, 'nuitrack')).toEqual({ active_devices: 1, expiring_soon: 1 })
  })

  it('refuses a platform it does not know, and a caller not signed in', async () => {
    const a = await signedInClient(t)
    expect((await a.agent.get('/api/account/fleet/windows/')).statusCode).toBe(400)
    const res = await t.app.inject({ method: 'GET', url: '/api/account/fleet/' })
    expectError(res, 401, ERRORS.unauthorized.code)
  })
})
