import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { PRODUCTS, platformOfProduct } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { runCommand } from '../../cli/commands.ts'
import { FAKE_PAYPAL_CLIENT, startFakePaypal } from '../../test/fake-providers.ts'
import { count, lastMailTo, signedInClient, useTestApp } from '../../test/harness.ts'
import { applyLedgerEntry, balanceAndLedgerSum, owedCents } from '../billing/queries.ts'
import { settlePaid } from '../billing/service.ts'
import { insertTransaction } from '../transactions/queries.ts'
import { capturePaypalOrder } from './providers.ts'
import { openTopUpCheckout } from '../../test/money.ts'

/**
 * Refunds, disputes and reversals through the app: a staff refund through PayPal, PayPal's own
 * refund webhook (delivered 5 times at once), the sandbox's disputes lost and won.
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
const services = () => ({ ctx: () => Promise.resolve(ctx()) })

/** a PayPal top-up of the client's, paid (captured) */
async function paidPaypalTopUp(clientId: number, email: string, amountCents: number) {
  const { tx, session } = await openTopUpCheckout(ctx(), t.db, {
    clientId,
    email,
    source: 'paypal',
    amountCents,
    expiresAt: new Date(Date.now() + 3600_000),
    successUrl: 'http://portal.test/ok/',
    cancelUrl: 'http://portal.test/no/',
  })
  paypalApi.approve(session.sessionId)
  expect((await capturePaypalOrder(ctx(), clientId, session.sessionId)).transaction_status).toBe('ok')
  return { transactionId: tx.id, orderId: session.sessionId }
}

/** a paid sandbox renewal of a license of the client's (the transaction names the license) */
async function paidLicensePurchase(clientId: number) {
  return t.db.transaction(async (tx) => {
    const [license] = await tx.query<{ id: number }>(
      `INSERT INTO licenses (client_id, type, product, title, config, token, expire_date)
       VALUES ($1, $2, $3, 'Studio camera', $4::jsonb, $5, now() + interval '30 days') RETURNING id`,
      [
        clientId,
        platformOfProduct(PRODUCTS[0]),
        PRODUCTS[0],
        JSON.stringify({ product: PRODUCTS[0], os_type: null }),
        `T${Math.random().toString(36).slice(2)}`,
      ],
    )
    const licenseId = Number(license!.id)
    const row = await insertTransaction(tx, {
      clientId,
      type: 1,
      status: 1,
      amountCents: 2_900,
      kind: 'renewal',
      description: 'Nuitrack Pro renewal',
      lines: [{ description: 'Nuitrack Pro renewal', quantity: 1, amount_cents: 2_900 }],
      paymentSource: 'stripe',
      invoiceNumber: null,
    })
    await tx.query("UPDATE transactions SET license_id = $2, provider = 'sandbox', provider_session_id = $3 WHERE id = $1", [
      row.id,
      licenseId,
      `sbch_${row.id}`,
    ])
    await settlePaid(tx, row.id, { paymentMethod: 'Visa •••• 4242', now: new Date() })
    return { transactionId: row.id, licenseId }
  })
}

afterEach(async () => {
  // the ledger's sum plus what is owed is the balance, for every client, whatever was taken back
  const rows = await t.db.query<{ id: number }>('SELECT id FROM clients')
  for (const r of rows) {
    const { balance, ledger } = await balanceAndLedgerSum(t.db, Number(r.id))
    expect(ledger, `client ${r.id}`).toBe(balance)
  }
})

const deliver = (w: { body: string; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: '/api/payments/webhook/paypal/', headers: w.headers, payload: w.body })

describe('refunds', () => {
  it("PayPal's own refund webhook delivered 5 times at once reverses once: one credit note, one reversal entry, one mail", async () => {
    const { client, email } = await signedInClient(t)
    const { transactionId, orderId } = await paidPaypalTopUp(client.id, email, 5_000)
    const capture = paypalApi.orders.get(orderId)!.capture!
    paypalApi.refunds.push({ id: 'REFPAYPALSIDE1', status: 'COMPLETED', amount: { currency_code: 'USD', value: '50.00' }, capture: capture.id })
    const webhook = paypalApi.webhook('PAYMENT.CAPTURE.REFUNDED', paypalApi.refundResource('REFPAYPALSIDE1'))
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(webhook)))
    for (const res of answers) expect(res.statusCode, res.body).toBe(200)
    expect(await count(t.db, 'credit_notes WHERE transaction_id = $1', [transactionId])).toBe(1)
    expect(await count(t.db, 'ledger_entries WHERE transaction_id = $1 AND credit_note_id IS NOT NULL', [transactionId])).toBe(1)
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 0, ledger: 0 })
    expect((await lastMailTo(t.db, email))?.subject).toBe('Your payment was refunded')
    expect(await count(t.db, "mail_outbox WHERE to_address = $1 AND subject = 'Your payment was refunded'", [email])).toBe(1)
  })

  it("PayPal's refund webhook of a basket order delivered 5 times at once: its licenses suspended once, its rest taken once", async () => {
    const { agent, client, email } = await signedInClient(t)
    const res = await agent.post('/api/resource/buy/', {
      payment_source: 'paypal',
      success_url: '/app/nuitrack/license-purchase-success/',
      cancel_url: '/app/nuitrack/basket/',
      items: [{ config: { product: 'nuitrack_ai_perpetual', os_type: 1 }, count: 3 }],
    })
    expect(res.statusCode, res.body).toBe(200)
    const { transaction_id: transactionId, payment } = res.json() as { transaction_id: number; payment: { provider_data: { session_id: string } } }
    const orderId = payment.provider_data.session_id
    paypalApi.approve(orderId)
    expect((await capturePaypalOrder(ctx(), client.id, orderId)).transaction_status).toBe('ok')
    const [group] = await t.db.query<{ id: number }>('SELECT id FROM license_groups WHERE client_id = $1', [client.id])
    const generated = await agent.post(`/api/group/${group!.id}/new-license/`, { title: 'Lobby' })
    expect(generated.statusCode, generated.body).toBe(200)
    const licenseId = (generated.json() as { id: number }).id
    const hook = await agent.post('/api/account/webhooks/', { url: 'https://example.com/hooks', events: ['license.suspended'] })
    expect(hook.statusCode, hook.body).toBe(201)

    const capture = paypalApi.orders.get(orderId)!.capture!
    paypalApi.refunds.push({ id: 'REFBASKET5', status: 'COMPLETED', amount: { currency_code: 'USD', value: '899.70' }, capture: capture.id })
    const webhook = paypalApi.webhook('PAYMENT.CAPTURE.REFUNDED', paypalApi.refundResource('REFBASKET5'))
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(webhook)))
    for (const a of answers) expect(a.statusCode, a.body).toBe(200)
    expect(await count(t.db, 'credit_notes WHERE transaction_id = $1', [transactionId])).toBe(1)
    expect(await count(t.db, "activity_events WHERE license_id = $1 AND kind = 'suspended'", [licenseId])).toBe(1)
    // the account's webhook hears of it once, however many deliveries of the refund arrived
    expect(await count(t.db, "webhook_deliveries WHERE event = 'license.suspended' AND body LIKE $1", [`%"license_id":${licenseId},%`])).toBe(1)
    const [license] = await t.db.query<{ status: number; suspended_reason: string }>('SELECT status, suspended_reason FROM licenses WHERE id = $1', [licenseId])
    expect(license!.status).toBe(1)
    expect(license!.suspended_reason).toMatch(/^payment refunded \(CN-\d{6}\): refunded at the payment provider$/)
    const [after] = await t.db.query<{ available: number }>('SELECT available FROM license_groups WHERE id = $1', [group!.id])
    expect(after!.available).toBe(0)
    expect(await count(t.db, 'purchase_capacity WHERE transaction_id = $1 AND taken = 2', [transactionId])).toBe(1)
    expect(await count(t.db, "mail_outbox WHERE to_address = $1 AND subject = 'Your payment was refunded'", [email])).toBe(1)
  })

  it('payments:refund through PayPal of a top-up already spent: the shortfall is owed, balance purchases wait, a top-up pays it first', async () => {
    const { client, email } = await signedInClient(t)
    const { transactionId } = await paidPaypalTopUp(client.id, email, 4_000)
    // 30.00 of it spent from the balance
    await t.db.transaction(async (tx) => {
      const spend = await insertTransaction(tx, {
        clientId: client.id,
        type: 1,
        status: 1,
        amountCents: 3_000,
        kind: 'purchase',
        description: 'Nuitrack Pro',
        lines: [],
        paymentSource: 'balance',
        invoiceNumber: null,
      })
      expect(await applyLedgerEntry(tx, client.id, spend.id, -3_000)).toBe(1_000)
    })
    const cli = await runCommand(t.db, ['payments:refund', String(transactionId), '--reason', 'customer asked'], services())
    expect(cli.code, cli.output).toBe(0)
    expect(cli.output).toContain('CN-')
    expect(paypalApi.refunds.at(-1)).toMatchObject({ amount: { value: '40.00' } })
    expect(await owedCents(t.db, client.id)).toBe(3_000)
    expect((await balanceAndLedgerSum(t.db, client.id)).balance).toBe(0)
    // PayPal's webhook about that very refund changes nothing more
    const w = paypalApi.webhook('PAYMENT.CAPTURE.REFUNDED', paypalApi.refundResource(paypalApi.refunds.at(-1)!.id))
    expect((await deliver(w)).statusCode).toBe(200)
    expect(await count(t.db, 'credit_notes WHERE transaction_id = $1', [transactionId])).toBe(1)
    // refunding again: nothing left to refund
    expect((await runCommand(t.db, ['payments:refund', String(transactionId), '--reason', 'again'], services())).code).toBe(1)

    // a purchase from the balance waits while something is owed; a credit pays what is owed first
    await t.db.transaction(async (tx) => {
      const credit = await insertTransaction(tx, {
        clientId: client.id,
        type: 0,
        status: 1,
        amountCents: 5_000,
        kind: 'adjustment',
        description: 'Staff credit',
        lines: [],
        paymentSource: 'staff',
        invoiceNumber: null,
      })
      const buy = await insertTransaction(tx, {
        clientId: client.id,
        type: 1,
        status: 1,
        amountCents: 100,
        kind: 'purchase',
        description: 'x',
        lines: [],
        paymentSource: 'balance',
        invoiceNumber: null,
      })
      expect(await applyLedgerEntry(tx, client.id, buy.id, -100)).toBeNull()
      expect(await applyLedgerEntry(tx, client.id, credit.id, 5_000)).toBe(2_000)
    })
    expect(await owedCents(t.db, client.id)).toBe(0)
  })

  it('payments:refund of a balance purchase is refused: it went through no provider', async () => {
    const cli = await runCommand(t.db, ['payments:refund', '999999', '--reason', 'x'], services())
    expect(cli.code).toBe(1)
    expect((await runCommand(t.db, ['payments:refund', '12'], services())).code).toBe(2)
  })
})

describe('sandbox:dispute', () => {
  it('lost: the license it paid for is suspended with the reason and a history line, a credit note; won: restored', async () => {
    const { agent, client, email } = await signedInClient(t)
    const { transactionId, licenseId } = await paidLicensePurchase(client.id)
    const lost = await runCommand(t.db, ['sandbox:dispute', String(transactionId)], services())
    expect(lost.code, lost.output).toBe(0)
    // the payment documents list the credit note, correcting the invoice, with its PDF
    const docs = (await agent.get('/api/transaction/')).json() as {
      credit_notes: { number: string; corrects_invoice: string; pdf_url: string; amount: number }[]
      owed: number
    }
    expect(docs.credit_notes).toHaveLength(1)
    expect(docs.credit_notes[0]).toMatchObject({ amount: 29, restored: false })
    expect(docs.credit_notes[0]!.number).toMatch(/^CN-\d{6}$/)
    expect(docs.credit_notes[0]!.corrects_invoice).toMatch(/^INV-\d{6}$/)
    const pdf = await agent.get(docs.credit_notes[0]!.pdf_url)
    expect(pdf.statusCode).toBe(200)
    expect(pdf.headers['content-type']).toBe('application/pdf')
    expect(pdf.headers['content-disposition']).toContain(`${docs.credit_notes[0]!.number}.pdf`)
    const stranger = await signedInClient(t)
    expect((await stranger.agent.get(docs.credit_notes[0]!.pdf_url)).statusCode).toBe(404)
    const [license] = await t.db.query<{ status: number; suspended_reason: string | null }>('SELECT status, suspended_reason FROM licenses WHERE id = $1', [
      licenseId,
    ])
    expect(license).toMatchObject({ status: 1 })
    expect(license!.suspended_reason).toContain('payment disputed (CN-')
    expect(await count(t.db, "activity_events WHERE license_id = $1 AND kind = 'suspended'", [licenseId])).toBe(1)
    // its info page says why
    const infoRes = await agent.get(`/api/license/${licenseId}/`)
    expect(infoRes.statusCode, infoRes.body).toBe(200)
    const info = infoRes.json() as { license_status: string; suspended_reason: string | null }
    expect(info.license_status).toBe('suspended')
    expect(info.suspended_reason).toContain('payment disputed')
    expect((await lastMailTo(t.db, email))?.subject).toBe('A payment of yours was taken back')
    // a second dispute of the same payment: nothing more
    expect((await runCommand(t.db, ['sandbox:dispute', String(transactionId), '--outcome', 'lost'], services())).output).toContain('already disputed')

    const won = await runCommand(t.db, ['sandbox:dispute', String(transactionId), '--outcome', 'won'], services())
    expect(won.code, won.output).toBe(0)
    const [back] = await t.db.query<{ status: number; suspended_reason: string | null }>('SELECT status, suspended_reason FROM licenses WHERE id = $1', [
      licenseId,
    ])
    expect(back).toEqual({ status: 0, suspended_reason: null })
    expect(await count(t.db, "activity_events WHERE license_id = $1 AND kind = 'restored'", [licenseId])).toBe(1)
    expect((await runCommand(t.db, ['sandbox:dispute', String(transactionId), '--outcome', 'won'], services())).code).toBe(1)
  })
})
