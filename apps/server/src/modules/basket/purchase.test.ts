import { describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import { count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'
import { credit } from '../../test/money.ts'
import { balanceAndLedgerSum } from '../billing/queries.ts'

const t = useTestApp({ PAYMENTS_CARD_PROVIDER: 'stripe' })

const body = (items: unknown[], payment_source = 'balance') => ({
  payment_source,
  success_url: '/app/nuitrack/license-purchase-success/',
  cancel_url: '/app/nuitrack/basket/',
  items,
})
const AI_PERPETUAL = { config: { product: 'nuitrack_ai_perpetual', os_type: 1 }, count: 2 }

describe('POST /api/resource/buy/ from the balance', () => {
  it('debits the price from the table, records a paid debit with its invoice number and puts the licenses in the groups', async () => {
    const c = await signedInClient(t)
    await credit(t.db, c.client.id, 100_000)
    // a price or plan in the request is not trusted
    const res = await c.agent.post('/api/resource/buy/', body([{ ...AI_PERPETUAL, config: { ...AI_PERPETUAL.config, price: 1, plan_id: 99 } }]))
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ status: 'paid', amount: 599.8, payment: null })
    expect(await balanceAndLedgerSum(t.db, c.client.id)).toEqual({ balance: 100_000 - 59_980, ledger: 100_000 - 59_980 })
    const groups = (await c.agent.get('/api/group/')).json().groups
    expect(groups).toHaveLength(1)
    expect(groups[0]).toMatchObject({ limit: 2, config: { product: 'nuitrack_ai_perpetual', os_type: 1 } })
    expect(groups[0].config.plan_id ?? null).toBeNull()
    const [tx] = await t.db.query<{ type: number; status: number; invoice_number: string; payment_method: string; lines: { entry_id: string }[] }>(
      'SELECT type, status, invoice_number, payment_method, lines FROM transactions WHERE id = $1',
      [res.json().transaction_id],
    )
    expect(tx).toMatchObject({ type: 1, status: 0, payment_method: 'Balance' })
    expect(Number(tx!.invoice_number)).toBe(2)
    expect(tx!.lines[0]!.entry_id).toBe('nuitrack_ai_perpetual_0')
    expect(await count(t.db, "jobs WHERE name = 'payments.receipt'")).toBe(1)
  })

  it('refuses a short balance with insufficient_funds and changes nothing', async () => {
    const c = await signedInClient(t)
    await credit(t.db, c.client.id, 59_979)
    expectError(await c.agent.post('/api/resource/buy/', body([AI_PERPETUAL])), 409, '851abab0')
    expect(await balanceAndLedgerSum(t.db, c.client.id)).toEqual({ balance: 59_979, ledger: 59_979 })
    expect(await count(t.db, 'license_groups WHERE client_id = $1', [c.client.id])).toBe(0)
    expect(await count(t.db, "transactions WHERE kind = 'purchase'")).toBe(0)
    // the refused attempt gave its invoice number back: the next paid one follows without a gap
    await credit(t.db, c.client.id, 1)
    expect(Number((await t.db.query<{ n: string }>('SELECT max(invoice_number) AS n FROM transactions'))[0]!.n)).toBe(2)
  })

  it('refuses what the catalogue does not sell, naming the line', async () => {
    const c = await signedInClient(t)
    await credit(t.db, c.client.id, 100_000)
    expectError(
      await c.agent.post('/api/resource/buy/', body([AI_PERPETUAL, { config: { product: 'nuitrack_unlimited' }, count: 1 }])),
      400,
      ERRORS.item_not_for_sale.code,
      'items.1',
    )
    const res = await c.agent.post('/api/resource/buy/', body([{ config: { product: 'face_online_all_in_one', license_expire_delta: 1 }, count: 1 }]))
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ field: 'items.0' })
    expect((await c.agent.post('/api/resource/buy/', body([{ config: { product: 'nuitrack_ai_perpetual' }, count: 0 }]))).statusCode).toBe(400)
    expect((await c.agent.post('/api/resource/buy/', body([]))).statusCode).toBe(400)
    expect((await c.agent.post('/api/resource/buy/', { ...body([AI_PERPETUAL]), success_url: 'https://evil.example/' })).statusCode).toBe(400)
    expect(await balanceAndLedgerSum(t.db, c.client.id)).toEqual({ balance: 100_000, ledger: 100_000 })
  })

  it('prices a face all-in-one term by its months and fulfils into the group of that term', async () => {
    const c = await signedInClient(t)
    await credit(t.db, c.client.id, 30_000)
    const res = await c.agent.post('/api/resource/buy/', body([{ config: { product: 'face_online_all_in_one', license_expire_delta: 15_552_000 }, count: 1 }]))
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().amount).toBe(300)
    const [group] = (await c.agent.get('/api/group/')).json().groups
    expect(group).toMatchObject({ months: 6, limit: 1, config: { license_expire_delta: 15_552_000, max_reactivation_count: 1 } })
  })

  it('sells a custom Face SDK subscription priced from its components, into a group of its own per configuration', async () => {
    const c = await signedInClient(t)
    await credit(t.db, c.client.id, 100_000)
    const custom = (content: Record<string, number>) => ({ config: { product: 'face_online_custom_subscribe', license_content: content }, count: 1 })
    const first = await c.agent.post('/api/resource/buy/', body([custom({ matcher: 1, database: 1_000, detector: 1 })]))
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json().amount).toBe(19)
    expect((await c.agent.post('/api/resource/buy/', body([custom({ detector: 1 })]))).statusCode).toBe(200)
    expectError(await c.agent.post('/api/resource/buy/', body([custom({})])), 400, ERRORS.item_not_for_sale.code, 'items.0')
    const groups = (await c.agent.get('/api/group/')).json().groups as { config: { license_content: unknown; license_expire_delta: number }; limit: number }[]
    expect(groups.map((g) => g.config.license_content)).toEqual(
      expect.arrayContaining([
        { matcher: 1, detector: 1, database: 1_000 },
        { detector: 1, database: 0 },
      ]),
    )
    expect(groups.every((g) => g.limit === 1 && g.config.license_expire_delta === 2_592_000)).toBe(true)
    expect(await balanceAndLedgerSum(t.db, c.client.id)).toEqual({ balance: 100_000 - 1_900 - 500, ledger: 100_000 - 1_900 - 500 })
  })

  it('subscribes to subscription products only, answering the subscription id', async () => {
    const c = await signedInClient(t)
    await credit(t.db, c.client.id, 100_000)
    const monthly = { config: { product: 'nuitrack_ai_subscription_monthly', license_expire_delta: 2_592_000 }, count: 1 }
    const res = await c.agent.post('/api/resource/subscribe/', body([monthly]))
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ status: 'paid', amount: 9.99, subscription_id: res.json().order_id })
    expectError(await c.agent.post('/api/resource/subscribe/', body([AI_PERPETUAL])), 400, ERRORS.item_not_for_sale.code, 'items.0')
  })

  it('a card payment with no provider to serve it answers external_payments_unavailable and leaves no transaction', async () => {
    const c = await signedInClient(t)
    expectError(await c.agent.post('/api/resource/buy/', body([AI_PERPETUAL], 'stripe')), 503, 'external_payments_unavailable')
    expect(await count(t.db, 'transactions')).toBe(0)
  })

  it('100 parallel balance purchases never overspend: exact balance, one ledger entry and one fulfilment per success', async () => {
    const c = await signedInClient(t)
    // enough for 37 Pro monthly licenses at 3.28
    await credit(t.db, c.client.id, 37 * 328 + 100)
    const one = { config: { product: 'nuitrack_online_subscription_monthly', license_expire_delta: 2_592_000 }, count: 1 }
    // a 503 (no pool connection in time, on a loaded machine) changed nothing: the client sends it again, as a browser's retry would
    const buy = async () => {
      for (;;) {
        const res = await c.agent.post('/api/resource/buy/', body([one]))
        if (res.statusCode !== 503) return res
      }
    }
    const results = await Promise.all(Array.from({ length: 100 }, () => buy()))
    const ok = results.filter((r) => r.statusCode === 200)
    expect(ok).toHaveLength(37)
    for (const r of results.filter((r) => r.statusCode !== 200)) expectError(r, 409, '851abab0')
    expect(await balanceAndLedgerSum(t.db, c.client.id)).toEqual({ balance: 100, ledger: 100 })
    expect(await count(t.db, "transactions WHERE kind = 'purchase' AND status = 0")).toBe(37)
    expect(await count(t.db, 'ledger_entries WHERE amount_cents < 0')).toBe(37)
    const [group] = (await c.agent.get('/api/group/')).json().groups
    expect(group.limit).toBe(37)
  })
})
