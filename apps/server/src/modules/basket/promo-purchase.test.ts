import { describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import { count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'
import { applyPaymentEvent } from '../billing/service.ts'
import { createPromo, releaseStalePromoReservations } from '../promo/service.ts'

const t = useTestApp()

const AI = { config: { product: 'nuitrack_ai_perpetual' }, count: 1 }
const order = (promocode: string | null, payment_source = 'stripe') => ({
  payment_source,
  success_url: '/app/nuitrack/license-purchase-success/',
  cancel_url: '/app/nuitrack/basket/checkout/',
  items: [AI],
  promocode,
})

async function promo(code: string, discount: string, maxActivations: number | null = null, platforms: string[] = []) {
  const made = await createPromo(t.db, { code, discount, platforms, expires: null, maxActivations })
  expect(made.ok).toBe(true)
}

const used = async (code: string) =>
  Number((await t.db.query<{ n: number }>('SELECT activations_used AS n FROM promo_codes WHERE lower(code) = lower($1)', [code]))[0]!.n)

const sessionOf = async (transactionId: number) =>
  (await t.db.query<{ provider_session_id: string }>('SELECT provider_session_id FROM transactions WHERE id = $1', [transactionId]))[0]!.provider_session_id

describe('promo codes in a purchase', () => {
  it('discounts a card order, reserves an activation, spends it when paid and fulfils once', async () => {
    await promo('SPRING10', '10%', 3)
    const c = await signedInClient(t)
    const res = await c.agent.post('/api/resource/buy/', order('spring10'))
    expect(res.statusCode, res.body).toBe(200)
    // 299.90 less 10 %
    expect(res.json()).toMatchObject({ status: 'pending', amount: 269.91 })
    expect(await used('SPRING10')).toBe(1)
    const sessionId = await sessionOf(res.json().transaction_id)
    // the sandbox checkout charges the discounted total as one line
    const page = (await c.agent.get(`/api/sandbox/checkout/${sessionId}/`)).json()
    expect(page).toMatchObject({ amount: 269.91, lines: [{ amount: 269.91 }] })
    const event = { provider: 'sandbox' as const, eventId: 'evt_promo_1', sessionId, outcome: 'paid' as const, amountCents: 26_991 }
    await Promise.all([applyPaymentEvent(t.app.ctx, event), applyPaymentEvent(t.app.ctx, event)])
    const [group] = (await c.agent.get('/api/group/')).json().groups
    expect(group).toMatchObject({ limit: 1, config: { product: 'nuitrack_ai_perpetual' } })
    expect(await used('SPRING10')).toBe(1)
    expect(await count(t.db, 'promo_reservations WHERE confirmed_at IS NOT NULL')).toBe(1)
    // the invoice lines show the discount
    const [row] = await t.db.query<{ lines: { amount_cents: number; kind?: string }[] }>('SELECT lines FROM transactions WHERE id = $1', [
      res.json().transaction_id,
    ])
    expect(row!.lines.map((l) => l.amount_cents)).toEqual([29_990, -2_999])
  })

  it('gives the activation back when the payment is declined or the checkout cannot open', async () => {
    await promo('ONCE', '15', 1)
    const c = await signedInClient(t)
    const res = await c.agent.post('/api/resource/buy/', order('ONCE'))
    expect(res.json().amount).toBe(284.9)
    const other = await signedInClient(t)
    expectError(await other.agent.post('/api/resource/buy/', order('ONCE')), 400, ERRORS.promo_used_up.code)
    await applyPaymentEvent(t.app.ctx, {
      provider: 'sandbox',
      eventId: 'evt_decline',
      sessionId: await sessionOf(res.json().transaction_id),
      outcome: 'declined',
    })
    expect(await used('ONCE')).toBe(0)
    expect((await c.agent.post('/api/resource/buy/', order('ONCE'))).statusCode).toBe(200)
  })

  it("refuses each kind of bad code with the spec's codes, and a promo with balance payment", async () => {
    await promo('FACEONLY', '5%', null, ['face'])
    const c = await signedInClient(t)
    expectError(await c.agent.post('/api/resource/buy/', order('NOPE')), 400, 'c2bcf3bf')
    expectError(await c.agent.post('/api/resource/buy/', order('FACEONLY')), 400, '75d895af')
    expectError(await c.agent.post('/api/resource/buy/', order('FACEONLY', 'balance')), 400, ERRORS.promo_not_with_balance.code, 'payment_source')
    expect(await count(t.db, 'transactions')).toBe(0)
  })

  it('parallel purchases of 10 clients, 3 each, use a code with 5 activations at most 5 times, one per client', async () => {
    await promo('FIVE', '50%', 5)
    const clients = await Promise.all(Array.from({ length: 10 }, () => signedInClient(t)))
    const results = await Promise.all(clients.flatMap((c) => [1, 2, 3].map(() => c.agent.post('/api/resource/buy/', order('FIVE')))))
    for (const r of results.filter((r) => r.statusCode !== 200)) expectError(r, 400, ERRORS.promo_used_up.code)
    expect(await used('FIVE')).toBeLessThanOrEqual(5)
    const held = await t.db.query<{ client_id: string; n: number }>(
      'SELECT client_id, count(*)::int AS n FROM promo_reservations WHERE released_at IS NULL AND confirmed_at IS NULL GROUP BY client_id',
    )
    expect(held.length).toBe(await used('FIVE'))
    for (const h of held) expect(h.n).toBe(1)
  })

  it('holds one activation per client: a new checkout replaces the one before, and others can still use the code', async () => {
    await promo('TWO', '10%', 2)
    const c = await signedInClient(t)
    const checkouts = []
    for (let i = 0; i < 5; i++) {
      const res = await c.agent.post('/api/resource/buy/', order('TWO'))
      expect(res.statusCode, res.body).toBe(200)
      checkouts.push(res.json().transaction_id as number)
    }
    expect(await used('TWO')).toBe(1)
    const other = await signedInClient(t)
    expect((await other.agent.post('/api/resource/buy/', order('TWO'))).statusCode).toBe(200)
    expect(await used('TWO')).toBe(2)
    // the first, replaced checkout is paid after all: the customer keeps what they paid for, and
    // the code counts it without going over its maximum
    await applyPaymentEvent(t.app.ctx, {
      provider: 'sandbox',
      eventId: 'evt_late',
      sessionId: await sessionOf(checkouts[0]!),
      outcome: 'paid',
      amountCents: 26_991,
    })
    expect((await c.agent.get('/api/group/')).json().groups).toHaveLength(1)
    expect(await used('TWO')).toBe(2)
  })

  it('releases the activation of a checkout left open for an hour; paid later, it counts again', async () => {
    await promo('HOUR', '10%', 1)
    const c = await signedInClient(t)
    const res = await c.agent.post('/api/resource/buy/', order('HOUR'))
    expect(await used('HOUR')).toBe(1)
    expect(await releaseStalePromoReservations(t.db)).toBe(0)
    await t.db.query(`UPDATE promo_reservations SET reserved_at = now() - interval '61 minutes'`)
    expect(await releaseStalePromoReservations(t.db)).toBe(1)
    expect(await used('HOUR')).toBe(0)
    await applyPaymentEvent(t.app.ctx, {
      provider: 'sandbox',
      eventId: 'evt_hour',
      sessionId: await sessionOf(res.json().transaction_id),
      outcome: 'paid',
      amountCents: 26_991,
    })
    expect(await used('HOUR')).toBe(1)
    expect(await count(t.db, 'promo_reservations WHERE confirmed_at IS NOT NULL AND released_at IS NULL')).toBe(1)
  })
})
