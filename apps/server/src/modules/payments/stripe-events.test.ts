import Stripe from 'stripe'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { PRODUCTS, platformOfProduct } from '@portal/domain'
import { buildApp } from '../../app.ts'
import type { AppContext } from '../../context.ts'
import { runCommand } from '../../cli/commands.ts'
import { postgresDb } from '../../db/db.ts'
import { startFakeStripe, stripeSessionEvent } from '../../test/fake-providers.ts'
import { DB_KIND, count, expectError, lastMailTo, signedInClient, testConfig, useTestApp, workerDatabaseUrl, type TestContext } from '../../test/harness.ts'
import { applyLedgerEntry, balanceAndLedgerSum, owedCents } from '../billing/queries.ts'
import { settlePaid } from '../billing/service.ts'
import { insertTransaction, lockTransaction, setProviderSession } from '../transactions/queries.ts'
import { expirePendingPayments } from './expiry.ts'
import { reconcilePayments } from './reconcile.ts'
import { openTopUpCheckout } from '../../test/money.ts'

/**
 * Stripe's side of payments that do not end in the checkout's webhook, through the app against the
 * faithful Stripe fake: the reconcile reads a Checkout Session back (GET /v1/checkout/sessions/{id})
 * and credits what its webhook never brought, once, however the webhook races it; Stripe's own
 * refund and dispute events (charge.refunded, charge.dispute.created / closed) reverse and restore
 * as payments:refund and sandbox:dispute do, once under parallel and repeated deliveries; a staff
 * refund goes through Stripe Refunds.
 */

const stripeApi = await startFakeStripe()
afterAll(() => stripeApi.close())

const WEBHOOK_SECRET = 'whsec_stripe_events_test'
const ENV = {
  STRIPE_SECRET_KEY: 'sk_test_fake',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_BASE: stripeApi.url,
  PAYMENTS_CARD_PROVIDER: 'stripe',
}
const t = useTestApp(ENV)
const ctx = () => t.app.ctx as AppContext
const services = () => ({ ctx: () => Promise.resolve(ctx()) })

afterEach(async () => {
  stripeApi.mode = 'ok'
  // whatever was taken back, the ledger's sum is the balance, for every client
  for (const r of await t.db.query<{ id: number }>('SELECT id FROM clients')) {
    const { balance, ledger } = await balanceAndLedgerSum(t.db, Number(r.id))
    expect(ledger, `client ${r.id}`).toBe(balance)
  }
})

/** a pending card top-up of the client's, its Checkout Session opened at the fake Stripe */
async function pendingTopUp(clientId: number, email: string, amountCents = 15_000, mode: 'payment' | 'subscription' = 'payment') {
  const expiresAt = new Date(t.clock.now().getTime() + 24 * 3600_000)
  const { tx, session } = await openTopUpCheckout(ctx(), t.db, { clientId, email, source: 'stripe', amountCents, mode, expiresAt })
  return { tx, sessionId: session.sessionId }
}

/** a top-up paid at Stripe and credited by its webhook: the PaymentIntent is what Stripe's refund and dispute events name */
async function paidTopUp(clientId: number, email: string, amountCents = 15_000) {
  const { tx, sessionId } = await pendingTopUp(clientId, email, amountCents)
  const { paymentIntent } = stripeApi.paySession(sessionId)
  const res = await deliver(t.app, stripeSessionEvent('checkout.session.completed', { id: sessionId, amount_total: amountCents, paymentIntent }))
  expect(res.statusCode, res.body).toBe(200)
  expect((await lockTransaction(t.db, tx.id))!.status).toBe(0)
  return { transactionId: tx.id, sessionId, paymentIntent }
}

/** a license renewal of the client's charged off-session on a saved card at Stripe: the transaction's session is its PaymentIntent */
async function paidLicenseRenewal(clientId: number) {
  const card = stripeApi.paySession('cs_saved_card')
  const [license] = await t.db.query<{ id: number }>(
    `INSERT INTO licenses (client_id, type, product, title, config, token, expire_date)
     VALUES ($1, $2, $3, 'Studio camera', $4::jsonb, $5, now() + interval '30 days') RETURNING id`,
    [clientId, platformOfProduct(PRODUCTS[0]), PRODUCTS[0], JSON.stringify({ product: PRODUCTS[0], os_type: null }), `T${Math.random().toString(36).slice(2)}`],
  )
  const licenseId = Number(license!.id)
  const row = await insertTransaction(t.db, {
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
  const charged = await ctx()
    .payments.byName('stripe')!
    .charge({
      transactionId: row.id,
      idempotencyKey: `renewal-test:${row.id}`,
      method: { provider: 'stripe', source: 'stripe', token: card.paymentMethod, customerRef: card.customer },
      amountCents: 2_900,
      description: 'Nuitrack Pro renewal',
      customerEmail: 'x@example.com',
    })
  expect(charged.event.outcome).toBe('paid')
  await t.db.transaction(async (tx) => {
    await tx.query('UPDATE transactions SET license_id = $2 WHERE id = $1', [row.id, licenseId])
    await setProviderSession(tx, row.id, 'stripe', charged.event.sessionId)
    await settlePaid(tx, row.id, { paymentMethod: 'Visa •••• 4242', now: new Date() })
  })
  return { transactionId: row.id, licenseId, paymentIntent: charged.event.sessionId }
}

const deliver = (app: TestContext['app'], event: unknown, secret = WEBHOOK_SECRET) => {
  const payload = JSON.stringify(event)
  return app.inject({
    method: 'POST',
    url: '/api/payments/webhook/stripe/',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
    payload,
  })
}
const deliverAll = async (event: unknown, times: number) => {
  for (const res of await Promise.all(Array.from({ length: times }, () => deliver(t.app, event)))) expect(res.statusCode, res.body).toBe(200)
}

async function state(clientId: number, transactionId: number) {
  return {
    status: (await lockTransaction(t.db, transactionId))!.status,
    ...(await balanceAndLedgerSum(t.db, clientId)),
    entries: await count(t.db, 'ledger_entries WHERE transaction_id = $1 AND credit_note_id IS NULL', [transactionId]),
  }
}
const creditNotes = (transactionId: number) => count(t.db, 'credit_notes WHERE transaction_id = $1', [transactionId])
const license = async (id: number) =>
  (await t.db.query<{ status: number; suspended_reason: string | null }>('SELECT status, suspended_reason FROM licenses WHERE id = $1', [id]))[0]!

describe('the reconcile reads Stripe back', () => {
  it('a paid Checkout Session whose webhook never came is credited once; a later webhook and reconcile change nothing', async () => {
    const { client, email } = await signedInClient(t)
    const { tx, sessionId } = await pendingTopUp(client.id, email)
    expect(await reconcilePayments(ctx())).toMatchObject({ checked: 1, open: 1, paid: 0, unavailable: 0 })
    const { paymentIntent } = stripeApi.paySession(sessionId, { brand: 'visa', last4: '4242' })

    expect(await reconcilePayments(ctx())).toMatchObject({ checked: 1, paid: 1, unavailable: 0 })
    expect(await state(client.id, tx.id)).toEqual({ status: 0, balance: 15_000, ledger: 15_000, entries: 1 })
    const paid = (await lockTransaction(t.db, tx.id))!
    expect(paid.payment_method).toBe('Visa •••• 4242')
    const [{ ref }] = (await t.db.query<{ ref: string }>('SELECT provider_payment_ref AS ref FROM transactions WHERE id = $1', [tx.id])) as [{ ref: string }]
    expect(ref).toBe(paymentIntent)

    // Stripe's webhook comes late, twice; the job runs again: nothing more
    const late = stripeSessionEvent('checkout.session.completed', { id: sessionId, amount_total: 15_000, paymentIntent })
    await deliverAll(late, 2)
    expect(await reconcilePayments(ctx())).toMatchObject({ paid: 0 })
    expect(await state(client.id, tx.id)).toEqual({ status: 0, balance: 15_000, ledger: 15_000, entries: 1 })
    expect(await count(t.db, "jobs WHERE name = 'payments.receipt' AND payload->>'transaction_id' = $1", [String(tx.id)])).toBe(1)
  })

  it('the webhook racing the reconcile (5 deliveries, 3 reconciles at once) credits once', async () => {
    const { client, email } = await signedInClient(t)
    const { tx, sessionId } = await pendingTopUp(client.id, email, 7_000)
    const { paymentIntent } = stripeApi.paySession(sessionId)
    const event = stripeSessionEvent('checkout.session.completed', { id: sessionId, amount_total: 7_000, paymentIntent })
    const [answers, reports] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, () => deliver(t.app, event))),
      Promise.all(Array.from({ length: 3 }, () => reconcilePayments(ctx()))),
    ])
    for (const res of answers) expect(res.statusCode, res.body).toBe(200)
    // whichever came first credited; no reconcile credited beside another
    expect(reports.reduce((sum, r) => sum + r.paid, 0)).toBeLessThanOrEqual(1)
    expect(await state(client.id, tx.id)).toEqual({ status: 0, balance: 7_000, ledger: 7_000, entries: 1 })
  })

  it('processing stays pending; an asynchronous payment failed is declined; a session expired at Stripe expires', async () => {
    const { client, email } = await signedInClient(t)
    const processing = await pendingTopUp(client.id, email, 1_000)
    const failed = await pendingTopUp(client.id, email, 2_000)
    const expired = await pendingTopUp(client.id, email, 3_000)
    stripeApi.settleSession(processing.sessionId, 'processing')
    stripeApi.settleSession(failed.sessionId, 'processing')
    stripeApi.settleSession(failed.sessionId, 'failed')
    stripeApi.settleSession(expired.sessionId, 'expired')
    expect(await reconcilePayments(ctx())).toMatchObject({ checked: 3, open: 1, closed: 2, paid: 0 })
    expect((await state(client.id, processing.tx.id)).status).toBe(1)
    expect((await state(client.id, failed.tx.id)).status).toBe(2)
    expect((await state(client.id, expired.tx.id)).status).toBe(3)
    expect((await balanceAndLedgerSum(t.db, client.id)).balance).toBe(0)
  })

  it('an asynchronous payment that succeeds after our 24-hour expiry: the reconcile credits it once and logs it for an operator', async () => {
    const { client, email } = await signedInClient(t)
    const { tx, sessionId } = await pendingTopUp(client.id, email, 6_000)
    stripeApi.settleSession(sessionId, 'processing')
    t.clock.advance(25 * 3600)
    expect(await expirePendingPayments(ctx())).toBe(1)
    expect(await reconcilePayments(ctx())).toMatchObject({ checked: 1, open: 1 })
    const { paymentIntent } = stripeApi.paySession(sessionId)
    const operator = vi.spyOn(ctx().log, 'error')
    try {
      expect(await reconcilePayments(ctx())).toMatchObject({ paid: 1 })
      expect(operator.mock.calls.some(([, msg]) => String(msg).includes('after its checkout expired'))).toBe(true)
    } finally {
      operator.mockRestore()
    }
    expect(await state(client.id, tx.id)).toEqual({ status: 0, balance: 6_000, ledger: 6_000, entries: 1 })
    // Stripe's own event for it, and the job again: nothing more
    await deliverAll(stripeSessionEvent('checkout.session.async_payment_succeeded', { id: sessionId, amount_total: 6_000, paymentIntent }), 2)
    expect(await reconcilePayments(ctx())).toMatchObject({ paid: 0 })
    expect(await state(client.id, tx.id)).toEqual({ status: 0, balance: 6_000, ledger: 6_000, entries: 1 })
  })

  it('a subscription-mode session settled by the reconcile keeps the card Stripe saved', async () => {
    const { client, email } = await signedInClient(t)
    const { tx, sessionId } = await pendingTopUp(client.id, email, 3_000, 'subscription')
    const paid = stripeApi.paySession(sessionId, { brand: 'mastercard', last4: '4444' })
    expect(await reconcilePayments(ctx())).toMatchObject({ paid: 1 })
    expect((await state(client.id, tx.id)).status).toBe(0)
    const methods = await t.db.query<{ token: string; customer_ref: string; card_last4: string }>(
      'SELECT token, customer_ref, card_last4 FROM payment_methods WHERE client_id = $1',
      [client.id],
    )
    expect(methods).toEqual([{ token: paid.paymentMethod, customer_ref: paid.customer, card_last4: '4444' }])
  })

  it('Stripe down: the reconcile counts it unavailable, changes nothing, and credits on the next run', async () => {
    const { client, email } = await signedInClient(t)
    const { tx, sessionId } = await pendingTopUp(client.id, email, 4_000)
    stripeApi.paySession(sessionId)
    stripeApi.mode = 503
    expect(await reconcilePayments(ctx())).toMatchObject({ unavailable: 1, paid: 0 })
    expect((await state(client.id, tx.id)).status).toBe(1)
    stripeApi.mode = 'ok'
    expect(await reconcilePayments(ctx())).toMatchObject({ paid: 1 })
    expect(await state(client.id, tx.id)).toMatchObject({ status: 0, balance: 4_000 })
  })

  it.runIf(DB_KIND === 'postgres')('two server processes racing a reconcile and the webhook for one payment credit once', async () => {
    const otherDb = postgresDb(workerDatabaseUrl()!, 6)
    const other = await buildApp({ config: testConfig(ENV), db: otherDb, runJobs: false })
    await other.ready()
    try {
      const { client, email } = await signedInClient(t)
      const { tx, sessionId } = await pendingTopUp(client.id, email, 9_900)
      const { paymentIntent } = stripeApi.paySession(sessionId)
      const event = stripeSessionEvent('checkout.session.completed', { id: sessionId, amount_total: 9_900, paymentIntent })
      const otherCtx = other.ctx as AppContext
      await Promise.all([
        reconcilePayments(ctx()),
        reconcilePayments(otherCtx),
        ...[t.app, other].flatMap((app) => Array.from({ length: 3 }, () => deliver(app, event).then((r) => expect(r.statusCode, r.body).toBe(200)))),
      ])
      expect(await state(client.id, tx.id)).toEqual({ status: 0, balance: 9_900, ledger: 9_900, entries: 1 })
    } finally {
      await other.close()
      await otherDb.close()
    }
  })
})

describe("Stripe's refunds", () => {
  it('charge.refunded of a refund made at Stripe, delivered 5 times at once: one credit note, the top-up debited once; a second partial refund reverses the rest', async () => {
    const { client, email } = await signedInClient(t)
    const { transactionId, paymentIntent } = await paidTopUp(client.id, email, 10_000)
    const first = stripeApi.refundAtStripe(paymentIntent, 4_000)
    await deliverAll(stripeApi.chargeEvent('charge.refunded', first.charge), 5)
    expect(await creditNotes(transactionId)).toBe(1)
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 6_000, ledger: 6_000 })
    expect((await lastMailTo(t.db, email))?.subject).toBe('Your payment was refunded')
    const [note] = await t.db.query<{ amount_cents: string; kind: string; provider_ref: string }>(
      'SELECT amount_cents, kind, provider_ref FROM credit_notes WHERE transaction_id = $1',
      [transactionId],
    )
    expect(note).toMatchObject({ kind: 'refund', provider_ref: first.refund })
    expect(Number(note!.amount_cents)).toBe(4_000)

    // the rest, refunded later: its event names the charge's new total, both refunds are listed, the new one reverses
    stripeApi.refundAtStripe(paymentIntent)
    const full = stripeApi.chargeEvent('charge.refunded', first.charge)
    expect(full.data.object.amount_refunded).toBe(10_000)
    await deliverAll(full, 3)
    expect(await creditNotes(transactionId)).toBe(2)
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 0, ledger: 0 })
    expect(await owedCents(t.db, client.id)).toBe(0)
  })

  it("payments:refund through Stripe Refunds; Stripe's charge.refunded about that refund reverses nothing more", async () => {
    const { client, email } = await signedInClient(t)
    const { transactionId, paymentIntent } = await paidTopUp(client.id, email, 8_000)
    // 50.00 of it spent from the balance: what the refund cannot take back is owed
    await t.db.transaction(async (tx) => {
      const spend = await insertTransaction(tx, {
        clientId: client.id,
        type: 1,
        status: 1,
        amountCents: 5_000,
        kind: 'purchase',
        description: 'Nuitrack Pro',
        lines: [],
        paymentSource: 'balance',
        invoiceNumber: null,
      })
      expect(await applyLedgerEntry(tx, client.id, spend.id, -5_000)).toBe(3_000)
    })
    const cli = await runCommand(t.db, ['payments:refund', String(transactionId), '--amount', '60', '--reason', 'customer asked'], services())
    expect(cli.code, cli.output).toBe(0)
    expect(cli.output).toContain('CN-')
    const sent = stripeApi.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds').at(-1)!
    expect(Object.fromEntries(new URLSearchParams(sent.body))).toMatchObject({ payment_intent: paymentIntent, amount: '6000', reason: 'requested_by_customer' })
    const refund = stripeApi.refunds.at(-1)!
    expect(refund).toMatchObject({ amount: 6_000, payment_intent: paymentIntent, status: 'succeeded' })
    expect(await owedCents(t.db, client.id)).toBe(3_000)

    await deliverAll(stripeApi.chargeEvent('charge.refunded', String(refund.charge)), 3)
    expect(await creditNotes(transactionId)).toBe(1)
    expect(await owedCents(t.db, client.id)).toBe(3_000)
    // 20.00 left to refund: 30.00 more is refused by Stripe and changes nothing here
    const again = await runCommand(t.db, ['payments:refund', String(transactionId), '--amount', '30', '--reason', 'more'], services())
    expect(again.code).not.toBe(0)
    expect(await creditNotes(transactionId)).toBe(1)
  })

  it('a refund event of a payment the portal does not know is acknowledged, logged for an operator, and changes nothing', async () => {
    const stranger = stripeApi.paySession('cs_not_ours')
    const { charge } = stripeApi.refundAtStripe(stranger.paymentIntent)
    const operator = vi.spyOn(ctx().log, 'error')
    try {
      await deliverAll(stripeApi.chargeEvent('charge.refunded', charge), 1)
      expect(operator.mock.calls.some(([, msg]) => String(msg).includes('does not know'))).toBe(true)
    } finally {
      operator.mockRestore()
    }
    expect(await count(t.db, 'credit_notes')).toBe(0)
  })

  it('charge.refunded with a bad signature: 400 webhook_signature, nothing reversed', async () => {
    const { client, email } = await signedInClient(t)
    const { transactionId, paymentIntent } = await paidTopUp(client.id, email, 2_000)
    const { charge } = stripeApi.refundAtStripe(paymentIntent)
    expectError(await deliver(t.app, stripeApi.chargeEvent('charge.refunded', charge), 'whsec_forged'), 400, 'cddb3120')
    expect(await creditNotes(transactionId)).toBe(0)
  })
})

describe("Stripe's disputes", () => {
  it('charge.dispute.created 5 times at once suspends the license once with a credit note; closed won restores it, once', async () => {
    const { client, email } = await signedInClient(t)
    const { transactionId, licenseId, paymentIntent } = await paidLicenseRenewal(client.id)
    const dispute = stripeApi.openDispute(paymentIntent)
    await deliverAll(stripeApi.disputeEvent('charge.dispute.created', dispute), 5)
    expect(await creditNotes(transactionId)).toBe(1)
    const [note] = await t.db.query<{ kind: string; provider_ref: string }>('SELECT kind, provider_ref FROM credit_notes WHERE transaction_id = $1', [
      transactionId,
    ])
    expect(note).toEqual({ kind: 'dispute', provider_ref: dispute })
    expect(await license(licenseId)).toMatchObject({ status: 1 })
    expect((await license(licenseId)).suspended_reason).toContain('payment disputed (CN-')
    expect(await count(t.db, "activity_events WHERE license_id = $1 AND kind = 'suspended'", [licenseId])).toBe(1)
    expect((await lastMailTo(t.db, email))?.subject).toBe('A payment of yours was taken back')

    stripeApi.closeDispute(dispute, 'won')
    await deliverAll(stripeApi.disputeEvent('charge.dispute.closed', dispute), 3)
    expect(await license(licenseId)).toEqual({ status: 0, suspended_reason: null })
    expect(await count(t.db, "activity_events WHERE license_id = $1 AND kind = 'restored'", [licenseId])).toBe(1)
    expect(await count(t.db, 'credit_notes WHERE transaction_id = $1 AND restored_at IS NOT NULL', [transactionId])).toBe(1)
  })

  it('a top-up disputed and lost: taken back once (created, then closed lost); the credit already spent is owed', async () => {
    const { client, email } = await signedInClient(t)
    const { transactionId, paymentIntent } = await paidTopUp(client.id, email, 5_000)
    await t.db.transaction(async (tx) => {
      const spend = await insertTransaction(tx, {
        clientId: client.id,
        type: 1,
        status: 1,
        amountCents: 4_000,
        kind: 'purchase',
        description: 'Face SDK',
        lines: [],
        paymentSource: 'balance',
        invoiceNumber: null,
      })
      expect(await applyLedgerEntry(tx, client.id, spend.id, -4_000)).toBe(1_000)
    })
    const dispute = stripeApi.openDispute(paymentIntent)
    await deliverAll(stripeApi.disputeEvent('charge.dispute.created', dispute), 2)
    stripeApi.closeDispute(dispute, 'lost')
    await deliverAll(stripeApi.disputeEvent('charge.dispute.closed', dispute), 2)
    expect(await creditNotes(transactionId)).toBe(1)
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 0, ledger: 0 })
    expect(await owedCents(t.db, client.id)).toBe(4_000)
  })

  it('a dispute lost whose opening event never came is taken back once, by its closed event', async () => {
    const { client } = await signedInClient(t)
    const { transactionId, licenseId, paymentIntent } = await paidLicenseRenewal(client.id)
    const dispute = stripeApi.openDispute(paymentIntent)
    stripeApi.closeDispute(dispute, 'lost')
    await deliverAll(stripeApi.disputeEvent('charge.dispute.closed', dispute), 3)
    expect(await creditNotes(transactionId)).toBe(1)
    expect((await license(licenseId)).status).toBe(1)
  })

  it('a dispute won whose opening event comes after it (events out of order): nothing is taken back', async () => {
    const { client } = await signedInClient(t)
    const { transactionId, licenseId, paymentIntent } = await paidLicenseRenewal(client.id)
    const dispute = stripeApi.openDispute(paymentIntent)
    const opened = stripeApi.disputeEvent('charge.dispute.created', dispute)
    stripeApi.closeDispute(dispute, 'won')
    await deliverAll(stripeApi.disputeEvent('charge.dispute.closed', dispute), 2)
    await deliverAll(opened, 2)
    expect(await creditNotes(transactionId)).toBe(0)
    expect(await license(licenseId)).toEqual({ status: 0, suspended_reason: null })
  })

  it('an inquiry (warning_needs_response, then warning_closed) moves no money: nothing changes', async () => {
    const { client } = await signedInClient(t)
    const { transactionId, licenseId, paymentIntent } = await paidLicenseRenewal(client.id)
    const inquiry = stripeApi.openDispute(paymentIntent, 'warning_needs_response')
    await deliverAll(stripeApi.disputeEvent('charge.dispute.created', inquiry), 1)
    stripeApi.closeDispute(inquiry, 'warning_closed')
    await deliverAll(stripeApi.disputeEvent('charge.dispute.closed', inquiry), 1)
    expect(await creditNotes(transactionId)).toBe(0)
    expect(await license(licenseId)).toEqual({ status: 0, suspended_reason: null })
  })
})
