import { describe, expect, it } from 'vitest'
import { signedInClient, useTestApp, type Agent } from '../../test/harness.ts'
import { credit } from '../../test/money.ts'

/** A trial ends when the customer's trial ends, and a purchase is never filed as a trial. */
const t = useTestApp()

type View = { id: number; group_id: number; expire_date: string | null; is_trial: boolean; subscription_status: string | null; next_payment: string | null }
const TRIALS = [
  { product: 'na_subscribe', tag: 'NA Trial', days: 7 },
  { product: 'fmc_subscribe', tag: 'FMC Trial', days: 30 },
] as const

async function startTrial(agent: Agent, trial: (typeof TRIALS)[number]): Promise<View> {
  const res = await agent.post('/api/resource/create/', { count: 1, config: { product: trial.product, tag: trial.tag } })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().licenses[0]
}

describe('a trial ends when the trial as first started ends', () => {
  for (const trial of TRIALS) {
    it(`${trial.product}: revoke into its group and generate again: the same end, never none`, async () => {
      const { agent } = await signedInClient(t)
      const first = await startTrial(agent, trial)
      expect(first.expire_date).not.toBeNull()
      expect((await agent.post(`/api/license/${first.id}/release/`, {})).statusCode).toBe(200)
      t.clock.advance(3 * 86_400)
      const again = await agent.post(`/api/group/${first.group_id}/new-license/`, {})
      expect(again.statusCode, again.body).toBe(200)
      expect(again.json()).toMatchObject({ is_trial: true, expire_date: first.expire_date })

      // past the trial's end a license made from its group is already over
      expect((await agent.post(`/api/license/${again.json().id}/release/`, {})).statusCode).toBe(200)
      t.clock.advance(trial.days * 86_400)
      const late = (await agent.post(`/api/group/${first.group_id}/new-license/`, {})).json()
      expect(late.expire_date).toBe(first.expire_date)
      expect(new Date(late.expire_date).getTime()).toBeLessThan(t.clock.now().getTime())
    })
  }
})

describe('the profile says which trials were used', () => {
  it('trials_used names a trial once taken, revoked or not, and the trial is refused again', async () => {
    const { agent } = await signedInClient(t)
    expect((await agent.get('/api/client/')).json().trials_used).toEqual([])
    const trial = await startTrial(agent, TRIALS[0])
    expect((await agent.get('/api/client/')).json().trials_used).toEqual(['na_subscribe'])
    expect((await agent.post(`/api/license/${trial.id}/release/`, {})).statusCode).toBe(200)
    expect((await agent.get('/api/client/')).json().trials_used).toEqual(['na_subscribe'])
    expect((await agent.post('/api/resource/create/', { count: 1, config: { product: 'na_subscribe', tag: 'NA Trial' } })).json().error_code).toBe('153b99a1')
  })
})

describe('a purchase after a trial', () => {
  it('the paid Analytics seat lands in a group of its own product and term, and is no trial', async () => {
    const c = await signedInClient(t)
    const trial = await startTrial(c.agent, TRIALS[0])
    await credit(t.db, c.client.id, 100_000)
    const bought = await c.agent.post('/api/resource/buy/', {
      payment_source: 'balance',
      success_url: '/app/nuitrack-analytics/license-purchase-success/',
      cancel_url: '/app/nuitrack-analytics/basket/',
      items: [{ config: { product: 'na_subscribe', license_expire_delta: 2_592_000 }, count: 1 }],
    })
    expect(bought.statusCode, bought.body).toBe(200)
    const groups = (await c.agent.get('/api/group/')).json().groups as { id: number; limit: number; is_default: boolean; config: { tag?: string } }[]
    const paid = groups.find((g) => g.id !== trial.group_id)!
    expect(paid).toMatchObject({ limit: 1, is_default: true })
    expect(paid.config.tag ?? null).toBeNull()
    expect(groups.find((g) => g.id === trial.group_id)).toMatchObject({ limit: 0, is_default: false })

    const license = (await c.agent.post(`/api/group/${paid.id}/new-license/`, {})).json() as View
    expect(license).toMatchObject({ is_trial: false, subscription_status: 'active' })
    expect(license.expire_date).not.toBeNull()
    // the trial is untouched: still a trial, in its own group
    expect((await c.agent.get(`/api/license/${trial.id}/`)).json()).toMatchObject({ is_trial: true, group_id: trial.group_id })
  })
})
