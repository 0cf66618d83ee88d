import { describe, expect, it } from 'vitest'
import { DAY_SECONDS, ERASE_AFTER_DAYS, ERASE_WARNING_DAYS, ERRORS, FACE_MACHINE_PLANS } from '@portal/domain'
import { runCommand } from '../../cli/commands.ts'
import { count, signedInClient, useTestApp, type Agent } from '../../test/harness.ts'
import { sweepPausedTrials } from './erasure.ts'
import { listPausedTrials } from './queries.ts'

const t = useTestApp()

async function trialOf(agent: Agent, product: 'fmc_subscribe' | 'na_subscribe') {
  const tag = product === 'fmc_subscribe' ? 'FMC Trial' : 'NA Trial'
  return (await agent.post('/api/resource/create/', { count: 1, config: { product, tag } })).json().licenses[0] as { id: number; token: string }
}
const code = (res: { json(): unknown }) => (res.json() as { error_code: string }).error_code
const sweep = () => sweepPausedTrials(t.app.ctx, t.clock.now())

describe('GET /api/face-machine/rates/', () => {
  it("answers the catalogue's plans; needs a session", async () => {
    const c = await signedInClient(t)
    const res = await c.agent.get('/api/face-machine/rates/')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ plans: FACE_MACHINE_PLANS })
    expect(res.json().plans.find((p: { plan_id: number }) => p.plan_id === 3)).toMatchObject({ transactions: { per_second: 1 } })
    const anon = await t.app.inject({ method: 'GET', url: '/api/face-machine/rates/' })
    expect(anon.statusCode).toBe(401)
  })
})

describe('GET /api/nuitrack-analytics/{id}/upgrade-cost/', () => {
  it('20 for an Analytics trial (the tier-4 price, and it follows the price list); not found for another platform or client; none once upgraded', async () => {
    const c = await signedInClient(t)
    const other = await signedInClient(t)
    const na = await trialOf(c.agent, 'na_subscribe')
    const fm = await trialOf(c.agent, 'fmc_subscribe')
    expect((await c.agent.get(`/api/nuitrack-analytics/${na.id}/upgrade-cost/`)).json()).toEqual({ amount: 20 })
    await t.db.query("UPDATE prices SET cost_cents = 2550 WHERE product = 'na_subscribe' AND tier = 4")
    expect((await c.agent.get(`/api/nuitrack-analytics/${na.id}/upgrade-cost/`)).json()).toEqual({ amount: 25.5 })
    for (const [agent, id] of [
      [c.agent, fm.id],
      [other.agent, na.id],
      [c.agent, 'x'],
    ] as const) {
      const res = await agent.get(`/api/nuitrack-analytics/${id}/upgrade-cost/`)
      expect(res.statusCode).toBe(404)
      expect(code(res)).toBe('63f560db')
    }
    await t.db.query(`UPDATE licenses SET config = config || '{"upgraded": true}' WHERE id = $1`, [na.id])
    const none = await c.agent.get(`/api/nuitrack-analytics/${na.id}/upgrade-cost/`)
    expect(none.statusCode).toBe(400)
    expect(code(none)).toBe(ERRORS.action_unavailable.code)
  })
})

describe('workspace calls', () => {
  it("each platform's calls take only its own licenses; pause records paused_at, resume clears it", async () => {
    const c = await signedInClient(t)
    const fm = await trialOf(c.agent, 'fmc_subscribe')
    const na = await trialOf(c.agent, 'na_subscribe')
    expect((await runCommand(t.db, ['licenses:grant', c.email, 'nuitrack_subscribe', '1', '--os-type', '1'])).code).toBe(0)
    const group = (await c.agent.get('/api/group/')).json().groups.find((g: { product: string }) => g.product === 'nuitrack_subscribe')
    const nu = (await c.agent.post(`/api/group/${group.id}/new-license/`, {})).json()
    for (const [platform, wrong] of [
      ['facemachine', [na.id, nu.id]],
      ['nuitrack-analytics', [fm.id, nu.id]],
    ] as const) {
      for (const id of wrong) {
        for (const action of ['deactivate-workspace', 'activate-workspace']) {
          const res = await c.agent.post(`/api/${platform}/${id}/${action}/`)
          expect(res.statusCode, `${platform} ${action} ${id}`).toBe(404)
          expect(code(res)).toBe('63f560db')
        }
      }
    }
    const paused = await c.agent.post(`/api/facemachine/${fm.id}/deactivate-workspace/`)
    expect(paused.statusCode).toBe(200)
    expect(paused.json()).toMatchObject({ state: 'paused', data_erased_at: null })
    const pausedAt = new Date(paused.json().paused_at).getTime()
    expect(Math.abs(pausedAt - t.clock.now().getTime())).toBeLessThan(5_000)
    expect(new Date(paused.json().data_erase_date).getTime()).toBe(pausedAt + ERASE_AFTER_DAYS * DAY_SECONDS * 1000)
    // the list answers the same dates as the single view
    const listed = (await c.agent.get('/api/license/')).json().licenses.find((l: { id: number }) => l.id === fm.id)
    expect({ paused_at: listed.paused_at, data_erase_date: listed.data_erase_date }).toEqual({
      paused_at: paused.json().paused_at,
      data_erase_date: paused.json().data_erase_date,
    })
    // pausing again keeps the first date
    t.clock.advance(3600)
    expect((await c.agent.post(`/api/facemachine/${fm.id}/deactivate-workspace/`)).json().paused_at).toBe(paused.json().paused_at)
    const resumed = (await c.agent.post(`/api/facemachine/${fm.id}/activate-workspace/`)).json()
    expect(resumed).toMatchObject({ paused_at: null, data_erase_date: null, data_erased_at: null })
    expect((await c.agent.post(`/api/nuitrack-analytics/${na.id}/deactivate-workspace/`)).json().state).toBe('paused')
    // a paused license whose period has ended cannot resume
    t.clock.advance(8 * DAY_SECONDS)
    const late = await c.agent.post(`/api/nuitrack-analytics/${na.id}/activate-workspace/`)
    expect(late.statusCode).toBe(400)
    expect(code(late)).toBe(ERRORS.license_status.code)
    expect(ERRORS.license_status.code).toBe('23504d45')
  })
})

describe('the erasure sweep of paused cloud trials', () => {
  it('warns 5 days before, erases 30 days after the pause, each once; a resume afterwards works and starts empty', async () => {
    const c = await signedInClient(t)
    const fm = await trialOf(c.agent, 'fmc_subscribe')
    await t.db.query("UPDATE licenses SET data = 'ZmlsZQ==', activation_date = now() WHERE id = $1", [fm.id])
    await t.db.query("INSERT INTO devices (license_id, kind, fingerprint, name) VALUES ($1, 'online', 'fp-w', 'Cam')", [fm.id])
    // a paid (upgraded) Face Machine paused beside it is never erased
    const other = await signedInClient(t)
    const paid = await trialOf(other.agent, 'fmc_subscribe')
    await t.db.query(`UPDATE licenses SET config = config || '{"upgraded": true}' WHERE id = $1`, [paid.id])
    expect((await other.agent.post(`/api/facemachine/${paid.id}/deactivate-workspace/`)).statusCode).toBe(200)

    const pausedView = (await c.agent.post(`/api/facemachine/${fm.id}/deactivate-workspace/`)).json()
    expect(pausedView.data_erase_date).not.toBeNull()
    expect(await sweep()).toEqual({ warned: 0, erased: 0 })
    t.clock.advance((ERASE_AFTER_DAYS - ERASE_WARNING_DAYS) * DAY_SECONDS - 60)
    expect(await sweep()).toEqual({ warned: 0, erased: 0 })
    t.clock.advance(120)
    expect(await sweep()).toEqual({ warned: 1, erased: 0 })
    expect(await sweep()).toEqual({ warned: 0, erased: 0 })
    const mails = await t.db.query<{ to_address: string; subject: string; text_body: string }>('SELECT to_address, subject, text_body FROM mail_outbox')
    expect(mails).toHaveLength(1)
    expect(mails[0]!.to_address).toBe(c.email)
    expect(mails[0]!.subject).toContain(pausedView.data_erase_date.slice(0, 10))
    expect(mails[0]!.text_body).toContain(`/app/face-machine/dashboard/${fm.id}/info/`)

    t.clock.advance(ERASE_WARNING_DAYS * DAY_SECONDS)
    expect(await sweep()).toEqual({ warned: 0, erased: 1 })
    expect(await sweep()).toEqual({ warned: 0, erased: 0 })
    const erased = (await c.agent.get(`/api/license/${fm.id}/`)).json()
    expect(erased).toMatchObject({ data: null, activations: [], data_erase_date: null })
    expect(erased.data_erased_at).not.toBeNull()
    expect(await count(t.db, "devices WHERE license_id = $1 AND release_kind = 'erasure'", [fm.id])).toBe(1)
    expect((await other.agent.get(`/api/license/${paid.id}/`)).json().data_erased_at).toBeNull()
    expect(await count(t.db, 'mail_outbox')).toBe(1)

    // the 30-day trial's own period has ended by now: no resume
    const late = await c.agent.post(`/api/facemachine/${fm.id}/activate-workspace/`)
    expect(code(late)).toBe(ERRORS.license_status.code)
  })

  it('a resume before the erasure keeps the data and cancels the warning; a later pause starts a new 30 days', async () => {
    const c = await signedInClient(t)
    const na = await trialOf(c.agent, 'na_subscribe')
    await t.db.query("UPDATE licenses SET data = 'ZmlsZQ==', expire_date = now() + interval '90 days' WHERE id = $1", [na.id])
    await c.agent.post(`/api/nuitrack-analytics/${na.id}/deactivate-workspace/`)
    t.clock.advance((ERASE_AFTER_DAYS - 2) * DAY_SECONDS)
    expect(await sweep()).toEqual({ warned: 1, erased: 0 })
    expect((await c.agent.post(`/api/nuitrack-analytics/${na.id}/activate-workspace/`)).statusCode).toBe(200)
    t.clock.advance(3 * DAY_SECONDS)
    expect(await sweep()).toEqual({ warned: 0, erased: 0 })
    expect((await c.agent.get(`/api/license/${na.id}/`)).json()).toMatchObject({ data: 'ZmlsZQ==', data_erased_at: null })
    // paused again: its own 30 days, and its own warning
    await c.agent.post(`/api/nuitrack-analytics/${na.id}/deactivate-workspace/`)
    t.clock.advance((ERASE_AFTER_DAYS + 1) * DAY_SECONDS)
    expect(await sweep()).toEqual({ warned: 0, erased: 1 })
    const erased = (await c.agent.get(`/api/license/${na.id}/`)).json()
    expect(erased.data).toBeNull()
    // the erasure does not wait for a late warning: the data is gone, and the resume starts empty
    await t.db.query("UPDATE licenses SET expire_date = $2::timestamptz + interval '30 days' WHERE id = $1", [na.id, t.clock.now()])
    const resumed = await c.agent.post(`/api/nuitrack-analytics/${na.id}/activate-workspace/`)
    expect(resumed.statusCode).toBe(200)
    expect(resumed.json()).toMatchObject({ paused_at: null, data: null, data_erase_date: null })
    expect(resumed.json().data_erased_at).not.toBeNull()
  })

  it("finds its candidates through the paused licenses' index, not by reading every license", async () => {
    // a table of licenses that are mostly not paused, as in production, with its statistics
    const c = await signedInClient(t)
    const trial = await trialOf(c.agent, 'na_subscribe')
    await t.db.query(
      `INSERT INTO licenses (client_id, group_id, type, product, config, status, token)
       SELECT client_id, group_id, type, product, config, status, md5('running' || i) FROM licenses, generate_series(1, 3000) i WHERE id = $1`,
      [trial.id],
    )
    expect((await c.agent.post(`/api/nuitrack-analytics/${trial.id}/deactivate-workspace/`)).statusCode).toBe(200)
    await t.db.query('ANALYZE licenses')
    // the sweep's own statement, as it sends it
    let statement: { sql: string; params?: unknown[] } | undefined
    await listPausedTrials({ query: async (sql, params) => ((statement = { sql, params }), []) }, ['na_subscribe'], new Date(), 10)
    const plan = await t.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement!.sql}`, statement!.params)
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain('licenses_paused_idx')
  })

  it('runs on the job queue', async () => {
    await t.app.ctx.jobs.tick()
    expect((await t.db.query<{ name: string }>('SELECT name FROM job_schedules')).map((r) => r.name)).toContain('cloud.erase-paused-trials')
  })
})
