import { describe, expect, it } from 'vitest'
import { ERRORS, MONTH_SECONDS, csvCell, encodeBase64, formatRequestFile, type ActivityEvent } from '@portal/domain'
import { runCommand } from '../../cli/commands.ts'
import { Agent, count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'
import { credit } from '../../test/money.ts'
import { settle } from '../../test/transactions.ts'
import { runRenewals } from '../subscriptions/renewal.ts'
import { sweepPausedTrials } from '../cloud/erasure.ts'

const t = useTestApp()

type Signed = Awaited<ReturnType<typeof signedInClient>>

const historyOf = async (agent: Agent, licenseId: number) => {
  const res = await agent.get(`/api/license/${licenseId}/history/`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json().events as ActivityEvent[]
}
const accountHistory = async (agent: Agent, query = '') => {
  const res = await agent.get(`/api/account/history/${query}`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as { events: ActivityEvent[]; total: number; offset: number; limit: number }
}
const kinds = (events: ActivityEvent[]) => events.map((e) => e.kind)
const eventsIn = (clientId: number) => count(t.db, 'activity_events WHERE client_id = $1', [clientId])

const request = (serial: string) => encodeBase64(formatRequestFile({ serial, sensor_name: 'RealSense D435', reg: `REG-${serial}` }))

/** A Nuitrack trial (free, offline, one request-file seat). */
async function nuitrackTrial(c: Signed, title?: string) {
  const res = await c.agent.post('/api/resource/create/', { count: 1, ...(title ? { title } : {}), config: { product: 'nuitrack_trial' } })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().licenses[0] as { id: number; token: string; title: string }
}

/** A granted default group of `product` (the CLI) and one license generated from it. */
async function fromGroup(c: Signed, product = 'old') {
  expect((await runCommand(t.db, ['licenses:grant', c.email, product, '3', '--os-type', '1'])).code).toBe(0)
  const group = (await c.agent.get('/api/group/')).json().groups.find((g: { product: string }) => g.product === product)
  const made = await c.agent.post(`/api/group/${group.id}/new-license/`, { title: 'From the group' })
  expect(made.statusCode, made.body).toBe(200)
  return { group: group as { id: number }, license: made.json() as { id: number; token: string } }
}

/** A staff-made custom license: online (the device API activates it) or locked to a USB token. */
async function staffCustom(c: Signed, kind: 'online' | 'usb' = 'online') {
  const staff = await signedInClient(t)
  await t.db.query('UPDATE clients SET is_staff = true WHERE id = $1', [staff.client.id])
  const product = kind === 'online' ? 'face_online_custom' : 'face_offline_custom'
  const res = await staff.agent.post('/api/resource/custom/create/', {
    title: 'Custom',
    count: 1,
    client_email: c.email,
    config: { product, license_expire_delta: 31104000, device_bound: false, max_version: null, license_content: { matcher: 1 }, online: kind === 'online' },
    custom_tags: kind === 'usb' ? { hardware_key_serial: true } : {},
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().licenses[0] as { id: number; token: string }
}

describe('each change writes one line, in its transaction', () => {
  it('a trial is created; renamed (once per change); activated by a request file (once per device); its device released', async () => {
    const c = await signedInClient(t)
    const trial = await nuitrackTrial(c, 'First')
    expect(kinds(await historyOf(c.agent, trial.id))).toEqual(['created'])
    expect((await historyOf(c.agent, trial.id))[0]).toMatchObject({
      license_id: trial.id,
      license_title: 'First',
      details: { product: 'nuitrack_trial', origin: 'trial', title: 'First' },
    })

    expect((await c.agent.post(`/api/license/${trial.id}/`, { title: 'Second' })).statusCode).toBe(200)
    // the same title again changes nothing and says nothing
    expect((await c.agent.post(`/api/license/${trial.id}/`, { title: 'Second' })).statusCode).toBe(200)
    const activated = await c.agent.post(`/api/license/${trial.id}/activate/offline/`, { data: request('SN-7') })
    expect(activated.statusCode, activated.body).toBe(200)
    // the same device again: a new file, no new line
    expect((await c.agent.post(`/api/license/${trial.id}/activate/offline/`, { data: request('SN-7') })).statusCode).toBe(200)

    const events = await historyOf(c.agent, trial.id)
    expect(kinds(events)).toEqual(['activated', 'renamed', 'created'])
    expect(events[1]).toMatchObject({ kind: 'renamed', details: { from: 'First', to: 'Second' }, license_title: 'Second' })
    expect(events[0]).toMatchObject({ kind: 'activated', details: { channel: 'request_file', serial: 'SN-7', sensor: 'RealSense D435' } })

    const deviceId = activated.json().activations[0].id
    expect((await c.agent.post(`/api/license/${trial.id}/devices/${deviceId}/release/`, {})).statusCode).toBe(200)
    const released = (await historyOf(c.agent, trial.id))[0]!
    expect(released).toMatchObject({ kind: 'released', details: { by: 'customer', device_id: deviceId, serial: 'SN-7', sensor: 'RealSense D435' } })
    expect(await eventsIn(c.client.id)).toBe(4)
  })

  it('a USB token activation names its serial', async () => {
    const c = await signedInClient(t)
    const lic = await staffCustom(c, 'usb')
    const res = await c.agent.post(`/api/license/${lic.id}/activate/offline/`, { hardware_key_serial: 'USB-42' })
    expect(res.statusCode, res.body).toBe(200)
    expect((await historyOf(c.agent, lic.id))[0]).toMatchObject({ kind: 'activated', details: { channel: 'usb_token', serial: 'USB-42', sensor: null } })
  })

  it('generated from a group (pre-info and offline group activation), revoked back into it; the CLI grant is the group’s line', async () => {
    const c = await signedInClient(t)
    const { group, license } = await fromGroup(c)
    const [generated] = await historyOf(c.agent, license.id)
    expect(generated).toMatchObject({ kind: 'generated', group_id: group.id, details: { origin: 'group', product: 'old', title: 'From the group' } })
    expect((await c.agent.post(`/api/license/${license.id}/release/`, {})).statusCode).toBe(200)
    const account = await accountHistory(c.agent)
    expect(kinds(account.events)).toEqual(['revoked', 'generated', 'created'])
    expect(account.events[0]).toMatchObject({ license_id: license.id, group_id: group.id })
    expect(account.events[2]).toMatchObject({ license_id: null, group_id: group.id, details: { origin: 'cli', count: 3, product: 'old' } })
    // a revoked license is gone from the client's list: its own history is not found
    expectError(await c.agent.get(`/api/license/${license.id}/history/`), 404, ERRORS.not_found.code)

    const byGroup = await c.agent.post(`/api/group/${group.id}/activate/offline/`, { data: request('SN-G') })
    expect(byGroup.statusCode, byGroup.body).toBe(200)
    expect(kinds(await historyOf(c.agent, byGroup.json().id))).toEqual(['activated', 'generated'])
    expect((await historyOf(c.agent, byGroup.json().id))[1]!.details).toMatchObject({ origin: 'activation' })
  })

  it('staff-made licenses are created; the device API activates (once per device) and releases', async () => {
    const c = await signedInClient(t)
    const lic = await staffCustom(c)
    expect((await historyOf(c.agent, lic.id))[0]).toMatchObject({ kind: 'created', details: { origin: 'staff', product: 'face_online_custom' } })
    const sdk = new Agent(t.app)
    const body = { key: lic.token, fingerprint: 'fp-1', name: 'Kiosk', properties: { serial: 'S-1', sensor_name: 'Astra' } }
    expect((await sdk.post('/api/sdk/activate/', body, { csrf: false })).statusCode).toBe(200)
    expect((await sdk.post('/api/sdk/activate/', body, { csrf: false })).statusCode).toBe(200)
    expect((await sdk.post('/api/sdk/deactivate/', { key: lic.token, fingerprint: 'fp-1' }, { csrf: false })).statusCode).toBe(200)
    // nothing left to release: refused, no line
    expect((await sdk.post('/api/sdk/deactivate/', { key: lic.token, fingerprint: 'fp-1' }, { csrf: false })).statusCode).toBe(404)
    const events = await historyOf(c.agent, lic.id)
    expect(kinds(events)).toEqual(['released', 'activated', 'created'])
    expect(events[1]).toMatchObject({ details: { channel: 'sdk', serial: 'S-1', sensor: 'Astra', name: 'Kiosk' } })
    expect(events[0]).toMatchObject({ details: { by: 'sdk', serial: 'S-1', sensor: 'Astra' } })
  })

  it('a cloud trial paused and resumed (a second pause says nothing); the erasure releases its devices', async () => {
    const c = await signedInClient(t)
    const fm = (await c.agent.post('/api/resource/create/', { count: 1, config: { product: 'fmc_subscribe', tag: 'FMC Trial' } })).json().licenses[0]
    expect((await c.agent.post(`/api/license/${fm.id}/pause/`)).statusCode).toBe(200)
    expect((await c.agent.post(`/api/facemachine/${fm.id}/deactivate-workspace/`)).statusCode).toBe(200)
    expect((await c.agent.post(`/api/license/${fm.id}/resume/`)).statusCode).toBe(200)
    expect(kinds(await historyOf(c.agent, fm.id))).toEqual(['resumed', 'paused', 'created'])

    expect((await c.agent.post(`/api/license/${fm.id}/pause/`)).statusCode).toBe(200)
    t.clock.advance(31 * 86400)
    expect((await sweepPausedTrials(t.app.ctx, t.clock.now())).erased).toBe(1)
    expect((await historyOf(c.agent, fm.id))[0]).toMatchObject({ kind: 'released', details: { by: 'erasure' } })
  })

  it('a trial upgraded from the balance: upgraded and paid, with the amount and the transaction', async () => {
    const c = await signedInClient(t)
    const fm = (await c.agent.post('/api/resource/create/', { count: 1, config: { product: 'fmc_subscribe', tag: 'FMC Trial' } })).json().licenses[0]
    await credit(t.db, c.client.id, 10_000)
    const res = await c.agent.post(`/api/license/${fm.id}/upgrade/`, {
      payment_source: 'balance',
      success_url: '/app/face-machine/license-purchase-success/',
      cancel_url: '/app/face-machine/dashboard/',
    })
    expect(res.statusCode, res.body).toBe(200)
    const events = await historyOf(c.agent, fm.id)
    expect(kinds(events)).toEqual(['paid', 'upgraded', 'created'])
    expect(events[1]!.details).toMatchObject({ from: 'fmc_subscribe', to: 'fmc_subscribe', trial: true })
    expect(events[0]!.details).toMatchObject({ transaction_id: res.json().transaction_id, transaction_kind: 'upgrade', amount_cents: expect.any(Number) })
    // the top-up that funded it (a staff credit) is not a history line
    expect(await eventsIn(c.client.id)).toBe(3)
  })

  it('Pro → AI paid by card: upgraded and paid when the payment arrives, nothing before', async () => {
    const c = await signedInClient(t)
    const { license } = await fromGroup(c)
    const opened = (
      await c.agent.post(`/api/license/${license.id}/upgrade/`, {
        payment_source: 'stripe',
        success_url: '/app/nuitrack/license-purchase-success/',
        cancel_url: '/app/nuitrack/',
      })
    ).json()
    expect(kinds(await historyOf(c.agent, license.id))).toEqual(['generated'])
    expect((await settle(t.app.ctx, opened.payment.provider_data.session_id, 'paid')).applied).toBe(true)
    const events = await historyOf(c.agent, license.id)
    expect(kinds(events)).toEqual(['paid', 'upgraded', 'generated'])
    expect(events[1]!.details).toMatchObject({ from: 'old', to: 'nuitrack_ai_perpetual', trial: false })
  })

  it('a group upgraded to AI from the balance is the group’s line', async () => {
    const c = await signedInClient(t)
    expect((await runCommand(t.db, ['licenses:grant', c.email, 'old', '3', '--os-type', '1'])).code).toBe(0)
    const group = (await c.agent.get('/api/group/')).json().groups[0]
    await credit(t.db, c.client.id, 100_000)
    const res = await c.agent.post(`/api/group/${group.id}/upgrade/`, {
      payment_source: 'balance',
      limit: 2,
      success_url: '/app/nuitrack/license-purchase-success/',
      cancel_url: '/app/nuitrack/',
    })
    expect(res.statusCode, res.body).toBe(200)
    const events = (await accountHistory(c.agent)).events
    expect(kinds(events)).toEqual(['paid', 'upgraded', 'created'])
    expect(events[1]).toMatchObject({ group_id: group.id, license_id: null, details: { from: 'old', count: 2 } })
    expect(events[0]).toMatchObject({ group_id: group.id, details: { transaction_kind: 'upgrade' } })
  })

  it('a basket purchase from the balance is paid; the subscription renews, is cancelled and reactivated', async () => {
    const c = await signedInClient(t)
    await credit(t.db, c.client.id, 328)
    const bought = await c.agent.post('/api/resource/subscribe/', {
      payment_source: 'balance',
      items: [{ config: { product: 'nuitrack_online_subscription_monthly', license_expire_delta: MONTH_SECONDS }, count: 1 }],
      success_url: '/app/nuitrack/license-purchase-success/',
      cancel_url: '/app/nuitrack/basket/',
    })
    expect(bought.statusCode, bought.body).toBe(200)
    const [paid] = (await accountHistory(c.agent)).events
    expect(paid).toMatchObject({ kind: 'paid', license_id: null, details: { amount_cents: 328, transaction_kind: 'purchase', payment_method: 'Balance' } })
    const group = (await c.agent.get('/api/group/')).json().groups.find((g: { limit: number }) => g.limit > 0)
    const lic = (await c.agent.post(`/api/group/${group.id}/new-license/`, {})).json()

    await credit(t.db, c.client.id, 328)
    t.clock.set(new Date(new Date(lic.expire_date).getTime() + 60_000))
    expect(await runRenewals(t.app.ctx)).toMatchObject({ renewed: 1 })
    const renewed = (await historyOf(c.agent, lic.id))[0]!
    const after = (await c.agent.get(`/api/license/${lic.id}/`)).json()
    expect(renewed).toMatchObject({ kind: 'renewed', details: { amount_cents: 328, transaction_kind: 'renewal' } })
    expect(new Date(renewed.details.until as string).getTime()).toBe(new Date(after.expire_date).getTime())

    expect((await c.agent.post(`/api/license/${lic.id}/cancel-subscription/`)).statusCode).toBe(200)
    // cancelled twice: one line
    expect((await c.agent.post(`/api/license/${lic.id}/cancel-subscription/`)).statusCode).toBe(200)
    const undo = await c.agent.post(`/api/license/${lic.id}/reactivate-subscription/`, {
      success_url: '/app/nuitrack/license-purchase-success/',
      cancel_url: '/app/nuitrack/',
    })
    expect(undo.statusCode, undo.body).toBe(200)
    expect(kinds(await historyOf(c.agent, lic.id))).toEqual(['reactivated', 'cancelled', 'renewed', 'generated'])
  })

  it('the CLI bulk creation writes one line per license', async () => {
    const c = await signedInClient(t)
    expect((await runCommand(t.db, ['licenses:bulk', c.email, '5'])).code).toBe(0)
    expect(await count(t.db, "activity_events WHERE client_id = $1 AND kind = 'created' AND license_id IS NOT NULL", [c.client.id])).toBe(5)
  })
})

describe('a refused or rolled-back change writes nothing', () => {
  it('a refused activation (seat taken), an insufficient balance and a revoke of an activated license leave no line', async () => {
    const c = await signedInClient(t)
    const trial = await nuitrackTrial(c)
    expect((await c.agent.post(`/api/license/${trial.id}/activate/offline/`, { data: request('SN-1') })).statusCode).toBe(200)
    const before = await eventsIn(c.client.id)
    // the trial's one seat is taken: the second device is refused after the checks ran in the transaction
    expect((await c.agent.post(`/api/license/${trial.id}/activate/offline/`, { data: request('SN-2') })).statusCode).toBe(409)
    const fm = (await c.agent.post('/api/resource/create/', { count: 1, config: { product: 'fmc_subscribe', tag: 'FMC Trial' } })).json().licenses[0]
    const upgrade = await c.agent.post(`/api/license/${fm.id}/upgrade/`, {
      payment_source: 'balance',
      success_url: '/app/face-machine/license-purchase-success/',
      cancel_url: '/app/face-machine/dashboard/',
    })
    expectError(upgrade, 409, ERRORS.insufficient_funds.code)
    // the activated trial goes back to no group
    expectError(await c.agent.post(`/api/license/${trial.id}/release/`, {}), 400, ERRORS.action_unavailable.code)
    expect(await eventsIn(c.client.id)).toBe(before + 1)
    expect(kinds(await historyOf(c.agent, fm.id))).toEqual(['created'])
  })

  it('a group activation whose file is refused rolls back the generated license and its line', async () => {
    const c = await signedInClient(t)
    const { group } = await fromGroup(c)
    const before = await eventsIn(c.client.id)
    const bad = await c.agent.post(`/api/group/${group.id}/activate/offline/`, { data: encodeBase64('not a request file') })
    expect(bad.statusCode).toBe(400)
    expect(await eventsIn(c.client.id)).toBe(before)
    expect(await count(t.db, "activity_events WHERE kind = 'generated' AND details->>'origin' = 'activation'")).toBe(0)
  })
})

describe('scoping and paging', () => {
  it("another client's license, a malformed id and an unknown id are not found; signed out is unauthorized", async () => {
    const a = await signedInClient(t)
    const b = await signedInClient(t)
    const trial = await nuitrackTrial(a)
    for (const url of [`/api/license/${trial.id}/history/`, '/api/license/abc/history/', '/api/license/999999/history/', '/api/license/0/history/']) {
      expectError(await b.agent.get(url), 404, ERRORS.not_found.code)
    }
    expect((await accountHistory(b.agent)).events).toEqual([])
    expectError(await new Agent(t.app).get('/api/account/history/'), 401, ERRORS.unauthorized.code)
    expectError(await new Agent(t.app).get(`/api/license/${trial.id}/history/`), 401, ERRORS.unauthorized.code)
  })

  it('pages newest first with offset and limit (at most 200); total counts all', async () => {
    const c = await signedInClient(t)
    const trial = await nuitrackTrial(c, 'T0')
    for (let i = 1; i <= 6; i++) {
      t.clock.advance(60)
      expect((await c.agent.post(`/api/license/${trial.id}/`, { title: `T${i}` })).statusCode).toBe(200)
    }
    const all = await accountHistory(c.agent)
    expect(all.total).toBe(7)
    expect(all.events.map((e) => e.details.to ?? null)).toEqual(['T6', 'T5', 'T4', 'T3', 'T2', 'T1', null])
    const times = all.events.map((e) => new Date(e.created_at).getTime())
    expect([...times].sort((x, y) => y - x)).toEqual(times)
    // business time: the last rename is six minutes after the trial
    expect(times[0]! - times[6]!).toBeGreaterThanOrEqual(6 * 60_000)
    expect(times[0]! - times[6]!).toBeLessThan(7 * 60_000)
    const page = await accountHistory(c.agent, '?offset=2&limit=3')
    expect(page).toMatchObject({ total: 7, offset: 2, limit: 3 })
    expect(page.events.map((e) => e.details.to)).toEqual(['T4', 'T3', 'T2'])
    expect((await accountHistory(c.agent, '?limit=200')).events).toHaveLength(7)
    for (const q of ['?limit=201', '?limit=0', '?offset=-1', '?limit=abc']) {
      expectError(await c.agent.get(`/api/account/history/${q}`), 400, ERRORS.validation_failed.code)
    }
  })
})

describe('GET /api/account/history/export/', () => {
  it('a personal account is refused with its own code', async () => {
    const c = await signedInClient(t)
    expectError(await c.agent.get('/api/account/history/export/'), 403, ERRORS.history_export_corporate.code)
  })

  it('a corporate account gets a CSV attachment: every line, quotes, commas and line breaks escaped, formulas neutralised', async () => {
    const c = await signedInClient(t)
    await t.db.query(`UPDATE clients SET options = options || '{"corporate_member": true}'::jsonb WHERE id = $1`, [c.client.id])
    const trial = await nuitrackTrial(c, '=HYPERLINK("http://evil.example")')
    expect((await c.agent.post(`/api/license/${trial.id}/`, { title: 'Line, "quoted"' })).statusCode).toBe(200)
    const res = await c.agent.get('/api/account/history/export/')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv/)
    expect(res.headers['content-disposition']).toBe('attachment; filename="activity-history.csv"')
    const lines = res.body.trimEnd().split('\r\n')
    expect(lines[0]).toBe('date,event,license_id,license,group_id,details,actor')
    expect(lines).toHaveLength(3)
    const [renamed, created] = [lines[1]!, lines[2]!]
    expect(renamed).toContain(',renamed,')
    // the license's current title, quoted and doubled
    expect(renamed).toContain(`,"Line, ""quoted""",`)
    // the created line's details carry the old title in words: never a cell starting with =
    expect(created).toContain(',created,')
    expect(res.body).not.toMatch(/(^|,)=/m)
  })

  it("the CSV's events and details are words, not JSON", async () => {
    const c = await signedInClient(t)
    await t.db.query(`UPDATE clients SET options = options || '{"corporate_member": true}'::jsonb WHERE id = $1`, [c.client.id])
    const trial = await nuitrackTrial(c, 'Front desk')
    expect((await c.agent.post(`/api/license/${trial.id}/`, { title: 'Lobby' })).statusCode).toBe(200)
    expect((await runCommand(t.db, ['licenses:grant', c.email, 'nuitrack_subscribe', '4', '--os-type', '1'])).code).toBe(0)
    const source = (await c.agent.get('/api/group/')).json().groups.find((g: { product: string }) => g.product === 'nuitrack_subscribe')
    expect((await c.agent.post(`/api/group/${source.id}/split/`, { title: 'Stores', limit: 2 })).statusCode).toBe(200)
    const res = await c.agent.get('/api/account/history/export/')
    expect(res.statusCode, res.body).toBe(200)
    const lines = res.body.trimEnd().split('\r\n')
    expect(lines[0]).toBe('date,event,license_id,license,group_id,details,actor')
    expect(res.body).not.toMatch(/[{}]/)
    // the last column is who acted: the signed-in person, or nobody for the command line
    expect(lines[1]).toMatch(/,group key created,,,\d+,title: Stores; product: Nuitrack subscription; size: 2; source group: #\d+,/)
    expect(lines[1]!.endsWith(`,${c.email}`)).toBe(true)
    expect(lines[2]).toMatch(/,created,,,\d+,product: Nuitrack subscription; count: 4; made by: our team,$/)
    expect(lines[3]).toMatch(/,renamed,\d+,Lobby,,from: Front desk; to: Lobby,/)
    expect(lines[3]!.endsWith(`,${c.email}`)).toBe(true)
    expect(lines[4]).toMatch(/,created,\d+,Lobby,\d+,title: Front desk; product: Nuitrack Trial; made by: free trial/)
  })

  it('csvCell: formula starts get an apostrophe; separators are quoted', () => {
    expect(csvCell('=1+1')).toBe("'=1+1")
    expect(csvCell('+1')).toBe("'+1")
    expect(csvCell('-1')).toBe("'-1")
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)")
    expect(csvCell('=A1,B1')).toBe(`"'=A1,B1"`)
    expect(csvCell('a"b')).toBe('"a""b"')
    expect(csvCell('two\nlines')).toBe('"two\nlines"')
    expect(csvCell(null)).toBe('')
    expect(csvCell(12)).toBe('12')
  })
})

describe('the table is append-only', () => {
  it('an UPDATE or a DELETE of a line is refused by the database', async () => {
    const c = await signedInClient(t)
    await nuitrackTrial(c)
    await expect(t.db.query(`UPDATE activity_events SET kind = 'renamed' WHERE client_id = $1`, [c.client.id])).rejects.toThrow(/append-only/)
    await expect(t.db.query('DELETE FROM activity_events WHERE client_id = $1', [c.client.id])).rejects.toThrow(/append-only/)
    expect(await eventsIn(c.client.id)).toBe(1)
    // an unknown kind is refused too
    await expect(t.db.query(`INSERT INTO activity_events (client_id, kind) VALUES ($1, 'hacked')`, [c.client.id])).rejects.toThrow()
  })

  it("the client's erasure takes its lines with it", async () => {
    const c = await signedInClient(t)
    await nuitrackTrial(c)
    await t.db.query('DELETE FROM sessions WHERE client_id = $1', [c.client.id])
    await t.db.query('DELETE FROM clients WHERE id = $1', [c.client.id])
    expect(await eventsIn(c.client.id)).toBe(0)
  })
})
