import Stripe from 'stripe'
import { afterAll, describe, expect, it } from 'vitest'
import { MONTH_SECONDS, type LicenseView } from '@portal/domain'
import { signedInClient, useTestApp, type TestContext } from '../../test/harness.ts'
import { startFakeStripe, stripeSessionEvent } from '../../test/fake-providers.ts'
import { runRenewals } from './renewal.ts'

/**
 * The card source through Stripe (its local fake): an off-session renewal refused with 402
 * authentication_required awaits the customer, who pays a Stripe Checkout Session for the amount due;
 * its webhook renews once, however often Stripe delivers it.
 */
const stripeApi = await startFakeStripe()
afterAll(() => stripeApi.close())

const WEBHOOK_SECRET = 'whsec_portal_test'
const t = useTestApp({
  STRIPE_SECRET_KEY: 'sk_test_fake',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_BASE: stripeApi.url,
})

const PRICE = 328
const PRO = { config: { product: 'nuitrack_online_subscription_monthly', license_expire_delta: MONTH_SECONDS }, count: 1 }
const RETURN = { success_url: '/app/nuitrack/license-purchase-success/', cancel_url: '/app/nuitrack/basket/' }

const deliver = (app: TestContext['app'], event: unknown) => {
  const payload = JSON.stringify(event)
  return app.inject({
    method: 'POST',
    url: '/api/payments/webhook/stripe/',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    },
    payload,
  })
}

const transactionOf = async (sessionId: string) =>
  (await t.db.query<{ id: number }>(`SELECT id FROM transactions WHERE provider = 'stripe' AND provider_session_id = $1`, [sessionId]))[0]!.id

describe('a Stripe renewal refused with authentication_required', () => {
  it('awaits the customer, opens one Checkout Session for the amount due, and renews once when it is paid', async () => {
    const { agent } = await signedInClient(t)
    const bought = await agent.post('/api/resource/subscribe/', { payment_source: 'stripe', items: [PRO], ...RETURN })
    expect(bought.statusCode, bought.body).toBe(200)
    const first = bought.json().payment.provider_data.session_id as string
    const card = stripeApi.paySession(first, { brand: 'visa', last4: '3184' })
    const paid = stripeSessionEvent('checkout.session.completed', {
      id: first,
      amount_total: PRICE,
      transaction_id: await transactionOf(first),
      subscription: card,
    })
    expect((await deliver(t.app, paid)).statusCode).toBe(200)
    const group = ((await agent.get('/api/group/')).json().groups as { id: number; limit: number }[]).find((g) => g.limit > 0)!
    const license = (await agent.post(`/api/group/${group.id}/new-license/`, { title: 'Renewing' })).json() as LicenseView
    const periodEnd = new Date(license.expire_date!)

    // the bank asks for authentication on every off-session charge of the card
    stripeApi.declineCard(card.paymentMethod, 'authentication_required')
    t.clock.set(new Date(periodEnd.getTime() + 60_000))
    expect(await runRenewals(t.app.ctx)).toEqual({ awaiting: 1 })
    expect(stripeApi.intentsCreated).toHaveLength(1)
    expect(stripeApi.intentsCreated[0]).toMatchObject({ off_session: 'true', confirm: 'true', amount: String(PRICE) })
    t.clock.set(new Date(periodEnd.getTime() + 3 * 86_400_000))
    expect(await runRenewals(t.app.ctx)).toEqual({})
    expect(stripeApi.intentsCreated).toHaveLength(1)

    // 5 requests at once: one Checkout Session, for the amount due, keeping the card for the next renewals
    const sessionsBefore = stripeApi.sessions.length
    const answers = await Promise.all(Array.from({ length: 5 }, () => agent.post(`/api/license/${license.id}/renewal-payment/`, RETURN)))
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200])
    expect(new Set(answers.map((a) => a.json().payment.provider_data.url as string)).size).toBe(1)
    expect(stripeApi.sessions.length - sessionsBefore).toBe(1)
    expect(stripeApi.sessions.at(-1)).toMatchObject({
      'line_items[0][price_data][unit_amount]': String(PRICE),
      'payment_intent_data[setup_future_usage]': 'off_session',
    })

    // paid on-session with another card: 5 deliveries at once and a replay renew once
    const session = answers[0]!.json().payment.provider_data.session_id as string
    const newCard = stripeApi.paySession(session, { brand: 'mastercard', last4: '4444' })
    const event = stripeSessionEvent('checkout.session.completed', {
      id: session,
      amount_total: PRICE,
      transaction_id: await transactionOf(session),
      subscription: newCard,
    })
    const deliveries = await Promise.all(Array.from({ length: 5 }, () => deliver(t.app, event)))
    expect(deliveries.map((d) => d.statusCode)).toEqual([200, 200, 200, 200, 200])
    expect((await deliver(t.app, event)).statusCode).toBe(200)
    const renewed = (await agent.get(`/api/license/${license.id}/`)).json() as LicenseView
    expect(renewed.expire_date).toBe(new Date(periodEnd.getTime() + MONTH_SECONDS * 1000).toISOString())
    expect(renewed.subscription).toMatchObject({ state: 'active', failed_attempts: 0 })
    expect({ brand: renewed.card_brand, last4: renewed.card_last4 }).toEqual({ brand: 'Mastercard', last4: '4444' })
    const statuses = await t.db.query<{ status: number }>(`SELECT status FROM transactions WHERE license_id = $1 AND kind = 'renewal' ORDER BY id`, [
      license.id,
    ])
    expect(statuses.map((s) => s.status)).toEqual([2, 0])
  })
})
