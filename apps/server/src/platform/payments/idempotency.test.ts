import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import type { Db } from '../../db/db.ts'
import { FAKE_PAYPAL_CLIENT, startFakePaypal, startFakeStripe } from '../../test/fake-providers.ts'
import { resetDb, workerDb } from '../../test/harness.ts'
import { installationKeyPrefix, keyPrefixOf, withPinnedCharges } from './idempotency.ts'
import { createPaypalProvider } from './paypal.ts'
import { PaymentUnavailable, type ChargeRequest, type SavedPaymentMethod } from './port.ts'
import { createStripeProvider } from './stripe.ts'

/** Idempotency keys against the faithful fakes: a prefix per installation, and a charge pinned to its first parameters. */

const db: Db = await workerDb()
const stripeApi = await startFakeStripe()
const paypalApi = await startFakePaypal()
afterAll(async () => {
  await stripeApi.close()
  await paypalApi.close()
})
beforeEach(async () => {
  await resetDb(db)
  stripeApi.mode = 'ok'
  paypalApi.mode = 'ok'
  paypalApi.holdCaptures = null
  paypalApi.now = () => Date.now()
})

const keyPrefix = keyPrefixOf(db)
const stripe = withPinnedCharges(
  createStripeProvider({ STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_API_BASE: stripeApi.url }, { maxNetworkRetries: 0, timeoutMs: 5_000, keyPrefix }),
  db,
)
const paypal = createPaypalProvider(
  { PAYPAL_CLIENT_ID: FAKE_PAYPAL_CLIENT.id, PAYPAL_CLIENT_SECRET: FAKE_PAYPAL_CLIENT.secret, PAYPAL_API_BASE: paypalApi.url },
  { timeoutMs: 5_000, keyPrefix },
)
const pinnedPaypal = withPinnedCharges(paypal, db)

const charge = (method: SavedPaymentMethod, key: string, amountCents = 2_900): ChargeRequest => ({
  transactionId: 31,
  idempotencyKey: key,
  method,
  amountCents,
  description: 'Renewal of Face SDK',
  customerEmail: 'ada@example.com',
})

describe('the installation prefix', () => {
  it('is made once and kept; a database reset makes a new one', async () => {
    const first = await installationKeyPrefix(db)
    expect(first).toMatch(/^p[0-9a-f]{12}$/)
    expect(await Promise.all([installationKeyPrefix(db), keyPrefix()])).toEqual([first, first])
    await resetDb(db)
    expect(await keyPrefix()).not.toBe(first)
  })

  it('two installations on one Stripe account send different keys for the same transaction', async () => {
    const method = (() => {
      const paid = stripeApi.paySession('cs_x')
      return { provider: 'stripe' as const, source: 'stripe' as const, token: paid.paymentMethod, customerRef: paid.customer }
    })()
    const other = createStripeProvider(
      { STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_API_BASE: stripeApi.url },
      { maxNetworkRetries: 0, keyPrefix: () => Promise.resolve('pother000000') },
    )
    const ours = await stripe.charge(charge(method, 'renewal:1:1767225600:0'))
    const theirs = await other.charge(charge(method, 'renewal:1:1767225600:0', 3_100))
    expect(theirs.event.outcome).toBe('paid')
    expect(theirs.event.sessionId).not.toBe(ours.event.sessionId)
  })
})

describe('a charge is pinned to what it was first sent with', () => {
  it('a key retried with a changed card does not charge the new card while the first attempt may have succeeded', async () => {
    const paid = stripeApi.paySession('cs_pin')
    const oldCard: SavedPaymentMethod = { provider: 'stripe', source: 'stripe', token: paid.paymentMethod, customerRef: paid.customer, cardLast4: '4242' }
    const newCard: SavedPaymentMethod = { ...oldCard, token: stripeApi.addCard(paid.customer), cardLast4: '4444' }
    const created = stripeApi.intentsCreated.length
    // the charge is made, but its answer is lost: the portal cannot know
    stripeApi.failNextCharge('lost')
    await expect(stripe.charge(charge(oldCard, 'renewal:7:1767225600:0'))).rejects.toBeInstanceOf(PaymentUnavailable)
    stripeApi.mode = 'ok'
    // meanwhile the customer saved another card; the retry of the same attempt still sends the first one
    const retried = await stripe.charge(charge(newCard, 'renewal:7:1767225600:0', 3_500))
    expect(retried.event).toMatchObject({ outcome: 'paid', amountCents: 2_900, paymentMethod: 'Card •••• 4242' })
    const sent = stripeApi.intentsCreated.slice(created)
    expect(sent.map((f) => f.payment_method)).toEqual([oldCard.token])
    expect(sent.some((f) => f.payment_method === newCard.token)).toBe(false)
  })

  it('a 500 Stripe keeps for the key: nothing was charged, so the next try goes under a fresh key and charges once', async () => {
    const paid = stripeApi.paySession('cs_500')
    const card: SavedPaymentMethod = { provider: 'stripe', source: 'stripe', token: paid.paymentMethod, customerRef: paid.customer }
    const created = stripeApi.intentsCreated.length
    stripeApi.failNextCharge(500)
    await expect(stripe.charge(charge(card, 'renewal:8:1767225600:0'))).rejects.toBeInstanceOf(PaymentUnavailable)
    const retried = await stripe.charge(charge(card, 'renewal:8:1767225600:0'))
    expect(retried.event.outcome).toBe('paid')
    const again = await stripe.charge(charge(card, 'renewal:8:1767225600:0'))
    expect(again.event.sessionId).toBe(retried.event.sessionId)
    expect(stripeApi.intentsCreated.length - created).toBe(1)
    const keys = stripeApi.requests.filter((r) => r.path === '/v1/payment_intents' && r.method === 'POST').map((r) => r.headers['idempotency-key'])
    expect(new Set(keys.slice(-3)).size).toBe(2)
  })

  it('a PENDING PayPal capture settled 7 hours later is one PayPal order: the retry reads it, never creates another', async () => {
    const { sessionId } = await paypal.createCheckout({
      transactionId: 5,
      source: 'paypal',
      mode: 'subscription',
      lines: [{ description: 'Nuitrack', quantity: 1, amount_cents: 2_900 }],
      amountCents: 2_900,
      customerEmail: 'ada@example.com',
      successUrl: 'http://portal.test/ok/',
      cancelUrl: 'http://portal.test/no/',
      expiresAt: new Date(Date.now() + 3600_000),
    })
    paypalApi.approve(sessionId)
    const first = await paypal.capture!(sessionId)
    if ('retryUrl' in first || !first.savedMethod) throw new Error('the subscription checkout vaulted nothing')
    let clock = Date.now()
    paypalApi.now = () => clock
    paypalApi.holdCaptures = 'PENDING_REVIEW'
    const before = paypalApi.orders.size
    const req = charge(first.savedMethod, 'renewal:9:1767225600:0')
    const held = await pinnedPaypal.charge(req).catch((err: unknown) => err)
    expect(held).toBeInstanceOf(PaymentUnavailable)
    expect((held as PaymentUnavailable).message).toContain('PENDING_REVIEW')
    // PayPal settles it while the request id has been forgotten (6 hours)
    clock += 7 * 3600_000
    const order = [...paypalApi.orders.values()].at(-1)!
    paypalApi.settleCapture(order.capture!.id, 'COMPLETED')
    const settled = await pinnedPaypal.charge(req)
    expect(settled.event).toMatchObject({ outcome: 'paid', sessionId: order.id, amountCents: 2_900 })
    expect(paypalApi.orders.size - before).toBe(1)
  })

  it('without the pin the same retry 7 hours later would make a second order (what PayPal does with a forgotten request id)', async () => {
    const { sessionId } = await paypal.createCheckout({
      transactionId: 6,
      source: 'paypal',
      mode: 'subscription',
      lines: [{ description: 'Nuitrack', quantity: 1, amount_cents: 2_900 }],
      amountCents: 2_900,
      customerEmail: 'ada@example.com',
      successUrl: 'http://portal.test/ok/',
      cancelUrl: 'http://portal.test/no/',
      expiresAt: new Date(Date.now() + 3600_000),
    })
    paypalApi.approve(sessionId)
    const first = await paypal.capture!(sessionId)
    if ('retryUrl' in first || !first.savedMethod) throw new Error('the subscription checkout vaulted nothing')
    let clock = Date.now()
    paypalApi.now = () => clock
    paypalApi.holdCaptures = 'ECHECK'
    const before = paypalApi.orders.size
    const req = charge(first.savedMethod, 'renewal:10:1767225600:0')
    await expect(paypal.charge(req)).rejects.toBeInstanceOf(PaymentUnavailable)
    clock += 3600_000
    await expect(paypal.charge(req)).rejects.toBeInstanceOf(PaymentUnavailable)
    expect(paypalApi.orders.size - before).toBe(1)
    clock += 6 * 3600_000
    await expect(paypal.charge(req)).rejects.toBeInstanceOf(PaymentUnavailable)
    expect(paypalApi.orders.size - before).toBe(2)
  })
})
