import fc from 'fast-check'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { FAKE_PAYER_EMAIL, FAKE_PAYPAL_CLIENT, startFakePaypal } from '../../test/fake-providers.ts'
import { centsToDecimal, createPaypalProvider, decimalToCents } from './paypal.ts'
import { PaymentUnavailable, type CheckoutRequest, type PaymentEvent, type PaymentProvider, type SavedPaymentMethod } from './port.ts'

/** The PayPal adapter against a local fake of PayPal's REST API (OAuth token, Orders v2). */

const fake = await startFakePaypal()
afterAll(() => fake.close())

const config = {
  PAYPAL_CLIENT_ID: FAKE_PAYPAL_CLIENT.id,
  PAYPAL_CLIENT_SECRET: FAKE_PAYPAL_CLIENT.secret,
  PAYPAL_API_BASE: fake.url,
  PAYPAL_MERCHANT_ID: 'MERCHANTFAKE2',
}
/** each test an installation of its own: its own prefix of the PayPal-Request-Ids */
let prefix = 'p-test'
const keyPrefix = () => Promise.resolve(prefix)
let paypal: PaymentProvider
beforeEach(() => {
  fake.mode = 'ok'
  fake.requests.length = 0
  fake.vaultOrdersNeedCapture = false
  fake.holdCaptures = null
  fake.vaultApproved = true
  fake.vaultFailsAtCapture = false
  fake.now = () => Date.now()
  prefix = `p${Math.random().toString(16).slice(2, 14)}`
  paypal = createPaypalProvider(config, { timeoutMs: 5_000, keyPrefix })
})

/** a capture that answered an event (not a retry at PayPal) */
async function captured(orderId: string): Promise<PaymentEvent> {
  const result = await paypal.capture!(orderId)
  if ('retryUrl' in result) throw new Error(`capture of ${orderId} answered a retry: ${result.retryUrl}`)
  return result
}

const request = (over: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  transactionId: 7,
  source: 'paypal',
  mode: 'payment',
  lines: [{ description: 'Balance top-up', quantity: 1, amount_cents: 15_050 }],
  amountCents: 15_050,
  customerEmail: 'ada@example.com',
  successUrl: 'http://portal.test/app/nuitrack/balance-purchase-success/',
  cancelUrl: 'http://portal.test/app/nuitrack/',
  expiresAt: new Date(Date.now() + 24 * 3600_000),
  ...over,
})

describe('amounts', () => {
  it('cents and PayPal decimal strings convert both ways without floats', () => {
    expect(centsToDecimal(15_000)).toBe('150.00')
    expect(centsToDecimal(5)).toBe('0.05')
    expect(centsToDecimal(99_999_999)).toBe('999999.99')
    expect(decimalToCents('150.5')).toBe(15_050)
    expect(decimalToCents('150')).toBe(15_000)
    for (const bad of ['', '1.234', '-1.00', '1e3', 'abc', '1,00']) expect(decimalToCents(bad), bad).toBeNull()
    fc.assert(fc.property(fc.integer({ min: 0, max: 99_999_999_999 }), (cents) => decimalToCents(centsToDecimal(cents)) === cents))
  })
})

describe('createCheckout', () => {
  it('takes an OAuth token, then creates a CAPTURE order in USD carrying our transaction and answers the approval link', async () => {
    const session = await paypal.createCheckout(request())
    expect(session.provider).toBe('paypal')
    const order = fake.orders.get(session.sessionId)!
    expect(order).toBeDefined()
    expect(session.url).toBe(`https://www.sandbox.paypal.test/checkoutnow?token=${session.sessionId}`)

    const [token, create] = fake.requests
    expect(token!.path).toBe('/v1/oauth2/token')
    expect(create!.path).toBe('/v2/checkout/orders')
    expect(create!.headers['paypal-request-id']).toBe(`${prefix}:checkout:7`)
    expect(order.body).toEqual({
      intent: 'CAPTURE',
      purchase_units: [
        {
          reference_id: '7',
          custom_id: '7',
          description: 'Balance top-up',
          amount: { currency_code: 'USD', value: '150.50', breakdown: { item_total: { currency_code: 'USD', value: '150.50' } } },
          items: [{ name: 'Balance top-up', quantity: '1', unit_amount: { currency_code: 'USD', value: '150.50' }, category: 'DIGITAL_GOODS' }],
          payee: { merchant_id: 'MERCHANTFAKE2' },
        },
      ],
      payment_source: {
        paypal: {
          email_address: 'ada@example.com',
          experience_context: {
            locale: 'en-US',
            shipping_preference: 'NO_SHIPPING',
            user_action: 'PAY_NOW',
            return_url: 'http://portal.test/app/nuitrack/balance-purchase-success/',
            cancel_url: 'http://portal.test/app/nuitrack/',
          },
        },
      },
    })
  })

  it('items add up to the total even when a line does not divide by its quantity', async () => {
    const session = await paypal.createCheckout(
      request({
        lines: [
          { description: 'Nuitrack Pro', quantity: 3, amount_cents: 9_000 },
          { description: 'Face SDK', quantity: 3, amount_cents: 1_000 },
        ],
        amountCents: 10_000,
      }),
    )
    const unit = (fake.orders.get(session.sessionId)!.body.purchase_units as { items: unknown[] }[])[0]!
    expect(unit.items).toEqual([
      { name: 'Nuitrack Pro', quantity: '3', unit_amount: { currency_code: 'USD', value: '30.00' }, category: 'DIGITAL_GOODS' },
      { name: '3 × Face SDK', quantity: '1', unit_amount: { currency_code: 'USD', value: '10.00' }, category: 'DIGITAL_GOODS' },
    ])
  })

  it('the token is cached until it expires; parallel calls share one token request', async () => {
    const before = fake.tokensIssued()
    await Promise.all([paypal.createCheckout(request({ transactionId: 1 })), paypal.createCheckout(request({ transactionId: 2 }))])
    await paypal.createCheckout(request({ transactionId: 3 }))
    expect(fake.tokensIssued() - before).toBe(1)

    // with the clock past the token's lifetime a new one is taken
    let now = Date.now()
    const aging = createPaypalProvider(config, { now: () => now, keyPrefix })
    await aging.createCheckout(request({ transactionId: 4 }))
    now += 32_400_000
    await aging.createCheckout(request({ transactionId: 5 }))
    expect(fake.tokensIssued() - before).toBe(3)
  })

  it('a token PayPal revoked early: one fresh token, and the call goes through', async () => {
    await paypal.createCheckout(request({ transactionId: 1 }))
    const before = fake.tokensIssued()
    fake.revokeTokens()
    const session = await paypal.createCheckout(request({ transactionId: 2 }))
    expect(fake.orders.has(session.sessionId)).toBe(true)
    expect(fake.tokensIssued() - before).toBe(1)
  })

  it.each([
    ['a 500', 500],
    ['a 503', 503],
    ['a 400', 400],
    ['a dropped connection', 'drop' as const],
  ])('PayPal answering %s: PaymentUnavailable', async (_label, mode) => {
    fake.mode = mode
    await expect(paypal.createCheckout(request())).rejects.toBeInstanceOf(PaymentUnavailable)
  })

  it('wrong client credentials: PaymentUnavailable', async () => {
    const wrong = createPaypalProvider({ ...config, PAYPAL_CLIENT_SECRET: 'nope' }, { keyPrefix })
    await expect(wrong.createCheckout(request())).rejects.toBeInstanceOf(PaymentUnavailable)
  })
})

describe('what the faithful fake holds the adapter to', () => {
  it("two installations on one PayPal account: the same transaction id is two orders (PayPal would answer the first installation's order)", async () => {
    const ours = await paypal.createCheckout(request({ transactionId: 3 }))
    const other = createPaypalProvider(config, { keyPrefix: () => Promise.resolve('pother000000') })
    const theirs = await other.createCheckout(
      request({ transactionId: 3, amountCents: 900, lines: [{ description: 'Other', quantity: 1, amount_cents: 900 }] }),
    )
    expect(theirs.sessionId).not.toBe(ours.sessionId)
    expect(fake.orders.get(theirs.sessionId)!.amount).toBe('9.00')
  })

  it('a body PayPal would refuse (a merchant id that is not a PayPal account id) is refused: PaymentUnavailable', async () => {
    const wrong = createPaypalProvider({ ...config, PAYPAL_MERCHANT_ID: 'MERCHANTFAKE' }, { keyPrefix })
    await expect(wrong.createCheckout(request())).rejects.toThrow(/400 INVALID_REQUEST/)
  })

  it('an account without vault approval: a subscription checkout is refused with a reason an operator can act on', async () => {
    fake.vaultApproved = false
    await expect(paypal.createCheckout(request({ mode: 'subscription' }))).rejects.toThrow(/vault approval/)
    // a one-off payment still works
    await expect(paypal.createCheckout(request({ transactionId: 11 }))).resolves.toMatchObject({ provider: 'paypal' })
  })

  it('a subscription capture PayPal completes without vaulting: paid, flagged savedMethodMissing', async () => {
    fake.vaultFailsAtCapture = true
    const { sessionId } = await paypal.createCheckout(request({ mode: 'subscription' }))
    fake.approve(sessionId)
    const event = await captured(sessionId)
    expect(event).toMatchObject({ outcome: 'paid', savedMethodMissing: true })
    expect(event.savedMethod).toBeUndefined()
  })

  it.each(['PENDING_REVIEW', 'ECHECK'] as const)(
    'a checkout capture held %s: PaymentUnavailable naming the reason; completed later, the capture answers paid',
    async (reason) => {
      fake.holdCaptures = reason
      const { sessionId } = await paypal.createCheckout(request())
      fake.approve(sessionId)
      const held = await captured(sessionId).catch((err: unknown) => err)
      expect(held).toBeInstanceOf(PaymentUnavailable)
      expect((held as PaymentUnavailable).message).toContain(reason)
      expect((held as PaymentUnavailable).providerRef).toBe(sessionId)
      fake.settleCapture(fake.orders.get(sessionId)!.capture!.id, 'COMPLETED')
      expect(await captured(sessionId)).toMatchObject({ outcome: 'paid', amountCents: 15_050 })
    },
  )

  it('a held capture PayPal denies later: a declined event', async () => {
    fake.holdCaptures = 'PENDING_REVIEW'
    const { sessionId } = await paypal.createCheckout(request())
    fake.approve(sessionId)
    await expect(captured(sessionId)).rejects.toBeInstanceOf(PaymentUnavailable)
    fake.settleCapture(fake.orders.get(sessionId)!.capture!.id, 'DECLINED')
    expect(await captured(sessionId)).toMatchObject({ outcome: 'declined' })
  })
})

describe('capture', () => {
  it('captures an approved order: a paid event with the capture id, the amount and the payer', async () => {
    const { sessionId } = await paypal.createCheckout(request())
    fake.approve(sessionId)
    const event = await captured(sessionId)
    const capture = fake.orders.get(sessionId)!.capture!
    expect(event).toEqual({
      provider: 'paypal',
      eventId: capture.id,
      sessionId,
      outcome: 'paid',
      amountCents: 15_050,
      paymentMethod: `PayPal (${FAKE_PAYER_EMAIL})`,
    })
    // no request id: PayPal captures an order once, and a capture after another funding source must really run
    expect(fake.requests.at(-1)!.headers['paypal-request-id']).toBeUndefined()
  })

  it('an order captured already answers the same event (read back from the order), in parallel too', async () => {
    const { sessionId } = await paypal.createCheckout(request())
    fake.approve(sessionId)
    const events = await Promise.all(Array.from({ length: 5 }, () => captured(sessionId)))
    expect(new Set(events.map((e) => e.eventId)).size).toBe(1)
    expect(events.every((e) => e.outcome === 'paid' && e.amountCents === 15_050)).toBe(true)
    // one capture, four answers of ORDER_ALREADY_CAPTURED followed by a GET of the order
    expect(fake.requests.filter((r) => r.method === 'GET').length).toBe(4)
    expect((await captured(sessionId)).eventId).toBe(events[0]!.eventId)
  })

  it('the payer funding refused (INSTRUMENT_DECLINED): back to the approval of the same order, and a capture after another source is paid', async () => {
    const declined = await paypal.createCheckout(request({ transactionId: 8 }))
    fake.approve(declined.sessionId, { declines: true })
    expect(await paypal.capture!(declined.sessionId)).toEqual({ retryUrl: declined.url })
    fake.approve(declined.sessionId)
    expect(await captured(declined.sessionId)).toMatchObject({ outcome: 'paid', sessionId: declined.sessionId })

    const open = await paypal.createCheckout(request({ transactionId: 9 }))
    await expect(captured(open.sessionId)).rejects.toBeInstanceOf(PaymentUnavailable)
  })

  it('PayPal wants the payer back (422 PAYER_ACTION_REQUIRED): back to the approval of the same order, open meanwhile, paid after they return', async () => {
    const { sessionId, url } = await paypal.createCheckout(request({ transactionId: 10 }))
    fake.approve(sessionId, { payerAction: true })
    expect(await paypal.capture!(sessionId)).toEqual({ retryUrl: url })
    // the order waits for the payer: the reconcile reads it open and captures nothing
    expect(fake.orders.get(sessionId)!.capture).toBeNull()
    expect(await paypal.lookup!(sessionId)).toBeNull()
    fake.approve(sessionId)
    expect(await captured(sessionId)).toMatchObject({ outcome: 'paid', sessionId })
  })

  it('PayPal down at capture: PaymentUnavailable', async () => {
    const { sessionId } = await paypal.createCheckout(request())
    fake.approve(sessionId)
    fake.mode = 503
    await expect(captured(sessionId)).rejects.toBeInstanceOf(PaymentUnavailable)
    fake.mode = 'drop'
    await expect(captured(sessionId)).rejects.toBeInstanceOf(PaymentUnavailable)
    expect(fake.orders.get(sessionId)!.capture).toBeNull()
  })
})

describe('subscription checkouts vault the wallet', () => {
  it('the order asks PayPal to vault on success (MERCHANT usage); the capture answers the vault id, customer and e-mail as savedMethod', async () => {
    const { sessionId } = await paypal.createCheckout(request({ mode: 'subscription', interval: 'month', transactionId: 11 }))
    const sent = JSON.parse(fake.requests.find((r) => r.path === '/v2/checkout/orders')!.body) as {
      payment_source: { paypal: { attributes: unknown; experience_context: { return_url: string } } }
    }
    expect(sent.payment_source.paypal.attributes).toEqual({ vault: { store_in_vault: 'ON_SUCCESS', usage_type: 'MERCHANT', customer_type: 'CONSUMER' } })
    expect(sent.payment_source.paypal.experience_context.return_url).toBe('http://portal.test/app/nuitrack/balance-purchase-success/')
    fake.approve(sessionId)
    const event = await captured(sessionId)
    const vault = fake.orders.get(sessionId)!.vault!
    expect(event).toMatchObject({ outcome: 'paid', amountCents: 15_050, paymentMethod: `PayPal (${FAKE_PAYER_EMAIL})` })
    expect(event.savedMethod).toEqual({ provider: 'paypal', source: 'paypal', token: vault.id, customerRef: vault.customerId, paypalEmail: FAKE_PAYER_EMAIL })
    // read back (captured before): the same saved wallet
    expect((await captured(sessionId)).savedMethod).toEqual(event.savedMethod)
  })

  it('a one-off order asks no vault and its event saves nothing', async () => {
    const { sessionId } = await paypal.createCheckout(request({ transactionId: 12 }))
    const sent = JSON.parse(fake.requests.find((r) => r.path === '/v2/checkout/orders')!.body) as { payment_source: { paypal: Record<string, unknown> } }
    expect(sent.payment_source.paypal.attributes).toBeUndefined()
    fake.approve(sessionId)
    expect((await captured(sessionId)).savedMethod).toBeUndefined()
  })
})

describe('charge', () => {
  /** a wallet vaulted by a paid subscription checkout */
  async function vaulted(): Promise<SavedPaymentMethod> {
    const { sessionId } = await paypal.createCheckout(request({ mode: 'subscription', transactionId: 20 + fake.orders.size }))
    fake.approve(sessionId)
    return (await captured(sessionId)).savedMethod!
  }
  const charge = (method: SavedPaymentMethod, key: string, amountCents = 2_900) =>
    paypal.charge({ transactionId: 99, idempotencyKey: key, method, amountCents, description: 'Nuitrack renewal', customerEmail: 'ada@example.com' })

  it('an order on the vault_id with PayPal-Request-Id = the key, completed in the create answer: a paid event', async () => {
    const method = await vaulted()
    fake.requests.length = 0
    const result = await charge(method, 'renewal:3:2026-12-01:0')
    const create = fake.requests.find((r) => r.path === '/v2/checkout/orders')!
    expect(create.headers['paypal-request-id']).toBe(`${prefix}:renewal:3:2026-12-01:0`)
    const body = JSON.parse(create.body) as { intent: string; payment_source: unknown; purchase_units: { amount: unknown; custom_id: string }[] }
    expect(body.intent).toBe('CAPTURE')
    expect(body.payment_source).toEqual({
      paypal: { vault_id: method.token, stored_credential: { payment_initiator: 'MERCHANT', usage: 'SUBSEQUENT', usage_pattern: 'SUBSCRIPTION_PREPAID' } },
    })
    expect(body.purchase_units[0]).toMatchObject({ amount: { currency_code: 'USD', value: '29.00' }, custom_id: '99' })
    // no separate capture call: the vaulted order completes when it is created
    expect(fake.requests.some((r) => r.path.endsWith('/capture'))).toBe(false)
    const order = [...fake.orders.values()].at(-1)!
    expect(result).toEqual({
      event: {
        provider: 'paypal',
        eventId: order.capture!.id,
        sessionId: order.id,
        outcome: 'paid',
        amountCents: 2_900,
        paymentMethod: `PayPal (${FAKE_PAYER_EMAIL})`,
      },
    })
  })

  it('an order that is not completed at once is captured (its own request id)', async () => {
    const method = await vaulted()
    fake.vaultOrdersNeedCapture = true
    const result = await charge(method, 'k-capture')
    const capture = fake.requests.find((r) => r.path.endsWith('/capture') && r.headers['paypal-request-id'] === `${prefix}:k-capture:capture`)
    expect(capture).toBeDefined()
    expect(result.event).toMatchObject({ outcome: 'paid', amountCents: 2_900 })
  })

  it('the same key twice (or 5 in parallel) is one order and the same event', async () => {
    const method = await vaulted()
    const before = fake.orders.size
    const first = await charge(method, 'k-same')
    expect(await charge(method, 'k-same')).toEqual(first)
    const parallel = await Promise.all(Array.from({ length: 5 }, () => charge(method, 'k-par')))
    expect(new Set(parallel.map((r) => r.event.eventId)).size).toBe(1)
    expect(fake.orders.size - before).toBe(2)
  })

  it('a refused wallet (422 INSTRUMENT_DECLINED), a declined capture, an unknown vault: declined events', async () => {
    const method = await vaulted()
    fake.declineVault(method.token, 'refused')
    const refused = await charge(method, 'k-r')
    expect(refused.declineReason).toBe('instrument_declined')
    expect(refused.event).toMatchObject({ provider: 'paypal', outcome: 'declined', paymentMethod: `PayPal (${FAKE_PAYER_EMAIL})` })
    fake.declineVault(method.token, 'capture_declined')
    const captureDeclined = await charge(method, 'k-c')
    expect(captureDeclined.declineReason).toBe('declined')
    expect(captureDeclined.event.outcome).toBe('declined')
    expect(captureDeclined.event.sessionId).toBe([...fake.orders.values()].at(-1)!.id)
    const unknown = await charge({ ...method, token: 'VTnope' }, 'k-u')
    expect(unknown.event.outcome).toBe('declined')
    expect(new Set([refused.event.eventId, captureDeclined.event.eventId, unknown.event.eventId]).size).toBe(3)
  })

  it('an order on the vault that waits for the payer (PAYER_ACTION_REQUIRED): declined payer_action_required, no capture tried', async () => {
    const method = await vaulted()
    fake.declineVault(method.token, 'payer_action')
    fake.requests.length = 0
    const result = await charge(method, 'k-payer')
    const order = [...fake.orders.values()].at(-1)!
    expect(result).toMatchObject({ declineReason: 'payer_action_required', event: { outcome: 'declined', sessionId: order.id } })
    expect(fake.requests.some((r) => r.path.endsWith('/capture'))).toBe(false)
  })

  it.each([
    ['a 503', 503],
    ['a 500', 500],
    ['a dropped connection', 'drop' as const],
  ])('PayPal answering %s: PaymentUnavailable', async (_label, mode) => {
    const method = await vaulted()
    const before = fake.orders.size
    fake.mode = mode
    await expect(charge(method, `k-down-${String(mode)}`)).rejects.toBeInstanceOf(PaymentUnavailable)
    expect(fake.orders.size).toBe(before)
  })
})
