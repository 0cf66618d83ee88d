import { describe, expect, it } from 'vitest'
import { ERRORS, UPGRADE_HOLD_MINUTES } from '@portal/domain'
import { runCommand } from '../../cli/commands.ts'
import { count, signedInClient, useTestApp, type Agent } from '../../test/harness.ts'
import { credit, moneyState } from '../../test/money.ts'
import { settle } from '../../test/transactions.ts'
import { expirePendingPayments } from '../payments/expiry.ts'

const t = useTestApp()
const RETURN = { success_url: '/app/nuitrack/license-purchase-success/', cancel_url: '/app/nuitrack/dashboard/' }
const code = (res: { json(): unknown }) => (res.json() as { error_code: string }).error_code
const ON_HOLD = ERRORS.license_on_hold.code

async function proGroup(c: { email: string; agent: Agent }, count = 5) {
  expect((await runCommand(t.db, ['licenses:grant', c.email, 'old', String(count), '--os-type', '1'])).code).toBe(0)
  return (await c.agent.get('/api/group/')).json().groups.find((g: { product: string }) => g.product === 'old') as { id: number }
}
const groupOf = async (agent: Agent, id: number) => (await agent.get('/api/group/')).json().groups.find((g: { id: number }) => g.id === id)

describe('while an upgrade holds a license, every action on it is refused with license_on_hold', () => {
  it('rename, revoke, pause, resume, the workspace calls, offline activation, device release, upgrade; the SDK is told ON_HOLD', async () => {
    const c = await signedInClient(t)
    const fm = (await c.agent.post('/api/resource/create/', { count: 1, config: { product: 'fmc_subscribe', tag: 'FMC Trial' } })).json().licenses[0]
    await t.db.query("INSERT INTO devices (license_id, kind, fingerprint, name) VALUES ($1, 'online', 'fp-h', 'Cam')", [fm.id])
    const [device] = await t.db.query<{ id: number }>('SELECT id FROM devices')
    expect((await c.agent.post(`/api/license/${fm.id}/upgrade/`, { payment_source: 'stripe', ...RETURN })).json().status).toBe('pending')

    const calls: [string, unknown][] = [
      [`/api/license/${fm.id}/`, { title: 'renamed' }],
      [`/api/license/${fm.id}/release/`, {}],
      [`/api/license/${fm.id}/pause/`, {}],
      [`/api/license/${fm.id}/resume/`, {}],
      [`/api/facemachine/${fm.id}/deactivate-workspace/`, {}],
      [`/api/facemachine/${fm.id}/activate-workspace/`, {}],
      [`/api/license/${fm.id}/activate/offline/`, { hardware_key_serial: 'TOKEN-1' }],
      [`/api/license/${fm.id}/devices/${device!.id}/release/`, {}],
      [`/api/license/${fm.id}/upgrade/`, { payment_source: 'balance', ...RETURN }],
    ]
    for (const [url, body] of calls) {
      const res = await c.agent.post(url, body)
      expect([res.statusCode, code(res)], url).toEqual([409, ON_HOLD])
    }
    const sdk = await t.app.inject({ method: 'POST', url: '/api/sdk/activate/', payload: { key: fm.token, fingerprint: 'fp-new' } })
    expect(sdk.statusCode).toBe(409)
    expect(sdk.json().code).toBe('ON_HOLD')
    const validate = await t.app.inject({ method: 'POST', url: '/api/sdk/validate/', payload: { key: fm.token, fingerprint: 'fp-h' } })
    expect(validate.json()).toMatchObject({ valid: false, code: 'ON_HOLD' })
    // nothing changed
    const view = (await c.agent.get(`/api/license/${fm.id}/`)).json()
    expect(view).toMatchObject({ title: `Face Machine #${fm.id}`, state: 'holded', activations: [{ id: device!.id }] })

    // once the window has passed the same calls go through (no job needed)
    t.clock.advance((UPGRADE_HOLD_MINUTES + 1) * 60)
    expect((await c.agent.post(`/api/license/${fm.id}/`, { title: 'renamed' })).statusCode).toBe(200)
    expect((await c.agent.post(`/api/facemachine/${fm.id}/deactivate-workspace/`)).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'POST', url: '/api/sdk/validate/', payload: { key: fm.token, fingerprint: 'fp-h' } })).json().code).toBe('PAUSED')
  })
})

describe('POST /api/group/{id}/upgrade/', () => {
  it('from the balance: limit licenses move to the AI default group at limit × the upgrade price', async () => {
    const c = await signedInClient(t)
    const group = await proGroup(c)
    expect((await groupOf(c.agent, group.id)).upgradeable).toEqual({ toAI: 'self' })
    await credit(t.db, c.client.id, 3 * 9990)
    const res = await c.agent.post(`/api/group/${group.id}/upgrade/`, { payment_source: 'balance', limit: 3, ...RETURN })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ status: 'paid', amount: 299.7, payment: null })
    const groups = (await c.agent.get('/api/group/')).json().groups
    expect(groups.find((g: { id: number }) => g.id === group.id)).toMatchObject({ limit: 2, holded_limit: 0, held_until: null })
    expect(groups.find((g: { product: string }) => g.product === 'nuitrack_ai_perpetual')).toMatchObject({ limit: 3, os_type: 1, is_default: true })
    expect(await moneyState(t.db, c.client.id)).toMatchObject({ balance: 0, ledger: 0 })
    expect(await count(t.db, "transactions WHERE kind = 'upgrade' AND group_id = $1 AND status = 0 AND invoice_number IS NOT NULL", [group.id])).toBe(1)
  })

  it('refusals: more than available, no upgrade, a staff group, another client, too little money', async () => {
    const c = await signedInClient(t)
    const other = await signedInClient(t)
    const group = await proGroup(c, 2)
    const more = await c.agent.post(`/api/group/${group.id}/upgrade/`, { payment_source: 'stripe', limit: 3, ...RETURN })
    expect([more.statusCode, code(more)]).toEqual([409, ERRORS.not_enough_licenses.code])
    const foreign = await other.agent.post(`/api/group/${group.id}/upgrade/`, { payment_source: 'stripe', limit: 1, ...RETURN })
    expect([foreign.statusCode, code(foreign)]).toEqual([404, '63f560db'])
    const poor = await c.agent.post(`/api/group/${group.id}/upgrade/`, { payment_source: 'balance', limit: 1, ...RETURN })
    expect([poor.statusCode, code(poor)]).toEqual([409, ERRORS.insufficient_funds.code])
    expect((await runCommand(t.db, ['licenses:grant', c.email, 'nuitrack_subscribe', '2', '--os-type', '1'])).code).toBe(0)
    const sub = (await c.agent.get('/api/group/')).json().groups.find((g: { product: string }) => g.product === 'nuitrack_subscribe')
    const none = await c.agent.post(`/api/group/${sub.id}/upgrade/`, { payment_source: 'stripe', limit: 1, ...RETURN })
    expect([none.statusCode, code(none)]).toEqual([400, ERRORS.action_unavailable.code])
    await t.db.query('UPDATE license_groups SET is_default = false WHERE id = $1', [group.id])
    expect((await groupOf(c.agent, group.id)).upgradeable).toEqual({ toAI: 'bySupport' })
    const support = await c.agent.post(`/api/group/${group.id}/upgrade/`, { payment_source: 'stripe', limit: 1, ...RETURN })
    expect([support.statusCode, code(support)]).toEqual([400, ERRORS.upgrade_by_support.code])
    expect(await count(t.db, 'transactions')).toBe(0)
  })

  it('by card: limit licenses are held (holded_limit, held_until) and cannot be generated; paid, they move to AI', async () => {
    const c = await signedInClient(t)
    const group = await proGroup(c, 3)
    const opened = (await c.agent.post(`/api/group/${group.id}/upgrade/`, { payment_source: 'stripe', limit: 2, ...RETURN })).json()
    expect(opened).toMatchObject({ status: 'pending', amount: 199.8 })
    const held = await groupOf(c.agent, group.id)
    expect(held).toMatchObject({ limit: 3, holded_limit: 2, has_available_license: true })
    expect(held.held_until).not.toBeNull()
    // one is free: generated; the held two are not
    expect((await c.agent.post(`/api/group/${group.id}/new-license/`, {})).statusCode).toBe(200)
    const refused = await c.agent.post(`/api/group/${group.id}/new-license/`, {})
    expect([refused.statusCode, code(refused)]).toEqual([409, ERRORS.not_enough_licenses.code])
    const offline = await c.agent.post(`/api/group/${group.id}/activate/offline/`, { hardware_key_serial: 'T-1' })
    expect(code(offline)).toBe(ERRORS.not_enough_licenses.code)
    // a second upgrade of the group while held
    const again = await c.agent.post(`/api/group/${group.id}/upgrade/`, { payment_source: 'stripe', limit: 1, ...RETURN })
    expect([again.statusCode, code(again)]).toEqual([409, ON_HOLD])

    await settle(t.app.ctx, opened.payment.provider_data.session_id, 'paid')
    const groups = (await c.agent.get('/api/group/')).json().groups
    expect(groups.find((g: { id: number }) => g.id === group.id)).toMatchObject({ limit: 0, holded_limit: 0, held_until: null })
    expect(groups.find((g: { product: string }) => g.product === 'nuitrack_ai_perpetual')).toMatchObject({ limit: 2 })
  })

  it('cancelled or expired: the hold ends and the licenses can be generated again', async () => {
    const c = await signedInClient(t)
    const group = await proGroup(c, 2)
    const first = (await c.agent.post(`/api/group/${group.id}/upgrade/`, { payment_source: 'paypal', limit: 2, ...RETURN })).json()
    await settle(t.app.ctx, first.payment.provider_data.session_id, 'declined')
    expect(await groupOf(c.agent, group.id)).toMatchObject({ limit: 2, holded_limit: 0, held_until: null })
    const second = (await c.agent.post(`/api/group/${group.id}/upgrade/`, { payment_source: 'stripe', limit: 2, ...RETURN })).json()
    expect(second.status).toBe('pending')
    t.clock.advance((UPGRADE_HOLD_MINUTES + 1) * 60)
    // derived: held no more before the job
    expect(await groupOf(c.agent, group.id)).toMatchObject({ holded_limit: 0, held_until: null, has_available_license: true })
    expect(await expirePendingPayments(t.app.ctx)).toBe(1)
    const [row] = await t.db.query<{ holded_limit: number; held_until: Date | null }>('SELECT holded_limit, held_until FROM license_groups WHERE id = $1', [
      group.id,
    ])
    expect(row).toEqual({ holded_limit: 0, held_until: null })
    expect((await c.agent.post(`/api/group/${group.id}/new-license/`, {})).statusCode).toBe(200)
    // paid late with one license left: one moves, the other's price is credited to the balance
    await settle(t.app.ctx, second.payment.provider_data.session_id, 'paid')
    const groups = (await c.agent.get('/api/group/')).json().groups
    expect(groups.find((g: { product: string }) => g.product === 'nuitrack_ai_perpetual')).toMatchObject({ limit: 1 })
    expect((await moneyState(t.db, c.client.id)).balance).toBe(9990)
  })

  it('20 parallel group upgrades open one payment and one hold', async () => {
    const c = await signedInClient(t)
    const group = await proGroup(c, 5)
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => c.agent.post(`/api/group/${group.id}/upgrade/`, { payment_source: 'stripe', limit: 2, ...RETURN })),
    )
    const tally: Record<string, number> = {}
    for (const a of answers)
      tally[a.statusCode === 200 ? '200' : `${a.statusCode} ${code(a)}`] = (tally[a.statusCode === 200 ? '200' : `${a.statusCode} ${code(a)}`] ?? 0) + 1
    expect(tally).toEqual({ '200': 1, [`409 ${ON_HOLD}`]: 19 })
    expect(await count(t.db, 'transactions')).toBe(1)
    expect(await groupOf(c.agent, group.id)).toMatchObject({ limit: 5, holded_limit: 2 })
  })
})
