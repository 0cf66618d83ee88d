import { afterAll, describe, expect, it, vi } from 'vitest'
import type { AppContext } from '../../context.ts'
import { runCommand } from '../../cli/commands.ts'
import { FAKE_PAYPAL_CLIENT, startFakePaypal } from '../../test/fake-providers.ts'
import { count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'
import { balanceAndLedgerSum } from '../billing/queries.ts'
import { lockTransaction } from '../transactions/queries.ts'
import { expirePendingPayments } from './expiry.ts'
import { reconcilePayments } from './reconcile.ts'
import { openTopUpCheckout } from '../../test/money.ts'

/**
 * Payments that do not finish at once, through the app against the faithful PayPal fake: a capture
 * PayPal holds stays pending with its order, the reconcile job and PayPal's verified webhook settle
 * it later, once, and nothing ever creates a second order for the same charge.
 */

const paypalApi = await startFakePaypal()
afterAll(() => paypalApi.close())

const t = useTestApp({
  PAYPAL_CLIENT_ID: FAKE_PAYPAL_CLIENT.id,
  PAYPAL_CLIENT_SECRET: FAKE_PAYPAL_CLIENT.secret,
  PAYPAL_API_BASE: paypalApi.url,
  PAYPAL_WEBHOOK_ID: paypalApi.webhookId,
  PAYMENTS_PAYPAL_PROVIDER: 'paypal',
})
const ctx = () => t.app.ctx as AppContext
const HOUR = 3600

/** a pending PayPal top-up of the client's, its order opened at the fake and approved by the buyer */
async function approvedOrder(clientId: number, email: string, amountCents = 4_200) {
  const expiresAt = new Date(t.clock.now().getTime() + 24 * HOUR * 1000)
  const { tx, session } = await openTopUpCheckout(ctx(), t.db, { clientId, email, source: 'paypal', amountCents, expiresAt })
  paypalApi.approve(session.sessionId)
  return { tx, orderId: session.sessionId }
}

async function state(clientId: number, transactionId: number) {
  return {
    status: (await lockTransaction(t.db, transactionId))!.status,
    ...(await balanceAndLedgerSum(t.db, clientId)),
    entries: await count(t.db, 'ledger_entries WHERE transaction_id = $1', [transactionId]),
  }
}

const deliver = (w: { body: string; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: '/api/payments/webhook/paypal/', headers: w.headers, payload: w.body })

describe('a capture PayPal holds for review', () => {
  it('stays pending with its order; settled 7 hours later it is credited once and PayPal has exactly one order', async () => {
    const { agent, client, email } = await signedInClient(t)
    const ordersBefore = paypalApi.orders.size
    const { tx, orderId } = await approvedOrder(client.id, email)
    let paypalNow = Date.now()
    paypalApi.now = () => paypalNow
    paypalApi.holdCaptures = 'PENDING_REVIEW'
    try {
      const held = await agent.post('/api/paypal/capture-payment/', { order_id: orderId })
      expect(held.statusCode, held.body).toBe(200)
      expect(held.json()).toMatchObject({ transaction_id: tx.id, transaction_status: 'pending' })
      // the order id was stored from the first answer (the checkout): the transaction keeps it
      expect((await lockTransaction(t.db, tx.id))!.provider_session_id).toBe(orderId)
      expect(await reconcilePayments(ctx())).toMatchObject({ checked: 1, open: 1, paid: 0 })
      expect(await state(client.id, tx.id)).toEqual({ status: 1, balance: 0, ledger: 0, entries: 0 })
    } finally {
      paypalApi.holdCaptures = null
    }

    // PayPal completes it 7 hours later, when it has forgotten every PayPal-Request-Id of the first hour
    paypalNow += 7 * HOUR * 1000
    t.clock.advance(7 * HOUR)
    paypalApi.settleCapture(paypalApi.orders.get(orderId)!.capture!.id, 'COMPLETED')
    expect(await reconcilePayments(ctx())).toMatchObject({ paid: 1 })
    expect(await state(client.id, tx.id)).toEqual({ status: 0, balance: 4_200, ledger: 4_200, entries: 1 })

    // PayPal's webhook for it, delivered 3 times, a repeated reconcile and the buyer's late sync: nothing more
    const webhook = paypalApi.webhook('PAYMENT.CAPTURE.COMPLETED', paypalApi.captureResource(orderId))
    for (const res of await Promise.all([deliver(webhook), deliver(webhook), deliver(webhook)])) expect(res.statusCode, res.body).toBe(200)
    expect(await reconcilePayments(ctx())).toMatchObject({ paid: 0 })
    expect((await agent.post('/api/paypal/capture-payment/', { order_id: orderId })).json().transaction_status).toBe('ok')
    expect(await state(client.id, tx.id)).toEqual({ status: 0, balance: 4_200, ledger: 4_200, entries: 1 })
    expect(paypalApi.orders.size - ordersBefore).toBe(1)
  })

  it('completed after our 24-hour expiry: payments:reconcile credits it once and logs it for an operator', async () => {
    const { client, email } = await signedInClient(t)
    const { tx, orderId } = await approvedOrder(client.id, email, 3_100)
    paypalApi.holdCaptures = 'ECHECK'
    try {
      await ctx().payments.byName('paypal')!.capture!(orderId).catch(() => undefined)
    } finally {
      paypalApi.holdCaptures = null
    }
    t.clock.advance(25 * HOUR)
    expect(await expirePendingPayments(ctx())).toBeGreaterThanOrEqual(1)
    expect((await state(client.id, tx.id)).status).toBe(3)
    paypalApi.settleCapture(paypalApi.orders.get(orderId)!.capture!.id, 'COMPLETED')

    const operator = vi.spyOn(ctx().log, 'error')
    try {
      const cli = await runCommand(t.db, ['payments:reconcile', '--since', '72h'], { ctx: () => Promise.resolve(ctx()) })
      expect(cli.code, cli.output).toBe(0)
      expect(cli.output).toContain('1 paid now')
      expect(operator.mock.calls.some(([, msg]) => String(msg).includes('after its checkout expired'))).toBe(true)
    } finally {
      operator.mockRestore()
    }
    expect(await state(client.id, tx.id)).toEqual({ status: 0, balance: 3_100, ledger: 3_100, entries: 1 })
    // and never again, whoever reads it back
    expect((await runCommand(t.db, ['payments:reconcile'], { ctx: () => Promise.resolve(ctx()) })).output).toContain('0 paid now')
    expect(await state(client.id, tx.id)).toMatchObject({ balance: 3_100, entries: 1 })
  })

  it('a held capture PayPal denies later is declined by its webhook, nothing credited', async () => {
    const { client, email } = await signedInClient(t)
    const { tx, orderId } = await approvedOrder(client.id, email, 1_500)
    paypalApi.holdCaptures = 'PENDING_REVIEW'
    try {
      await ctx().payments.byName('paypal')!.capture!(orderId).catch(() => undefined)
    } finally {
      paypalApi.holdCaptures = null
    }
    paypalApi.settleCapture(paypalApi.orders.get(orderId)!.capture!.id, 'DECLINED')
    const res = await deliver(paypalApi.webhook('PAYMENT.CAPTURE.DENIED', paypalApi.captureResource(orderId)))
    expect(res.statusCode, res.body).toBe(200)
    expect(await state(client.id, tx.id)).toEqual({ status: 2, balance: 0, ledger: 0, entries: 0 })
  })
})

describe('POST /api/payments/webhook/paypal/', () => {
  it('refuses a webhook PayPal does not verify (forged, or for another webhook id): 400, nothing applied', async () => {
    const { client, email } = await signedInClient(t)
    const { tx, orderId } = await approvedOrder(client.id, email, 900)
    await ctx().payments.byName('paypal')!.capture!(orderId)
    const real = paypalApi.webhook('PAYMENT.CAPTURE.COMPLETED', paypalApi.captureResource(orderId))
    const forged = { ...real, headers: { ...real.headers, 'paypal-transmission-sig': 'Zm9yZ2Vk' } }
    expectError(await deliver(forged), 400, 'cddb3120')
    const unsigned = { ...real, headers: { 'content-type': 'application/json' } }
    expectError(await deliver(unsigned), 400, 'cddb3120')
    expect(await state(client.id, tx.id)).toMatchObject({ status: 1, entries: 0 })
    // the real one credits
    expect((await deliver(real)).statusCode).toBe(200)
    expect(await state(client.id, tx.id)).toMatchObject({ status: 0, balance: 900, entries: 1 })
  })

  it('VAULT.PAYMENT-TOKEN.DELETED: the vaulted wallet is forgotten, once', async () => {
    const { client } = await signedInClient(t)
    await t.db.query(
      `INSERT INTO payment_methods (client_id, provider, source, token, paypal_email) VALUES ($1, 'paypal', 'paypal', 'VTGONE42', 'b@example.com')`,
      [client.id],
    )
    const w = paypalApi.webhook('VAULT.PAYMENT-TOKEN.DELETED', { id: 'VTGONE42' })
    for (const res of await Promise.all([deliver(w), deliver(w)])) expect(res.statusCode, res.body).toBe(200)
    expect(await count(t.db, "payment_methods WHERE token = 'VTGONE42'")).toBe(0)
  })
})
