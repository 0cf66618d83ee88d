import { describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import { count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'
import { credit } from '../../test/money.ts'
import { balanceAndLedgerSum } from '../billing/queries.ts'

/**
 * Section 5: the balance must hold what a purchase charges now, a subscription's first period (one
 * month of a monthly plan, the year of a yearly one, the whole term of a face all-in-one), and the
 * balance is debited exactly that.
 */
const t = useTestApp()
const RETURN = { success_url: '/app/nuitrack/license-purchase-success/', cancel_url: '/app/nuitrack/basket/' }
const subscribe = (agent: Awaited<ReturnType<typeof signedInClient>>['agent'], product: string, delta: number, n = 1) =>
  agent.post('/api/resource/subscribe/', { payment_source: 'balance', items: [{ config: { product, license_expire_delta: delta }, count: n }], ...RETURN })

describe('the balance holds what is charged now', () => {
  it('a monthly plan: one month of each license, the renewals later', async () => {
    const { agent, client } = await signedInClient(t)
    await credit(t.db, client.id, 2 * 999)
    const res = await subscribe(agent, 'nuitrack_ai_subscription_monthly', 2_592_000, 2)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ status: 'paid', amount: 19.98 })
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 0, ledger: 0 })
  })

  it('a yearly plan charges its year now: a balance a cent short of it is refused and nothing changes', async () => {
    const { agent, client } = await signedInClient(t)
    await credit(t.db, client.id, 9_989)
    expectError(await subscribe(agent, 'nuitrack_ai_subscription_yearly', 31_104_000), 409, ERRORS.insufficient_funds.code)
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 9_989, ledger: 9_989 })
    expect(await count(t.db, 'license_groups WHERE client_id = $1', [client.id])).toBe(0)
    await credit(t.db, client.id, 1)
    const res = await subscribe(agent, 'nuitrack_ai_subscription_yearly', 31_104_000)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().amount).toBe(99.9)
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 0, ledger: 0 })
  })

  it('a face all-in-one term charges the whole term now', async () => {
    const { agent, client } = await signedInClient(t)
    await credit(t.db, client.id, 5_000 * 6 - 1)
    const six = (a: typeof agent) =>
      a.post('/api/resource/subscribe/', {
        payment_source: 'balance',
        items: [{ config: { product: 'face_online_all_in_one', license_expire_delta: 15_552_000 }, count: 1 }],
        success_url: '/app/face/license-purchase-success/',
        cancel_url: '/app/face/basket/',
      })
    expectError(await six(agent), 409, ERRORS.insufficient_funds.code)
    await credit(t.db, client.id, 1)
    expect((await six(agent)).json()).toMatchObject({ status: 'paid', amount: 300 })
  })
})
