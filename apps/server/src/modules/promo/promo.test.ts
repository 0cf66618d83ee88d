import { describe, expect, it } from 'vitest'
import { ERRORS, discountedTotal } from '@portal/domain'
import { RATE_LIMITS } from '../../context.ts'
import { runCommand } from '../../cli/commands.ts'
import { Agent, count, expectError, signedInClient, useTestApp, type TestContext } from '../../test/harness.ts'
import { AppError } from '../../platform/errors.ts'
import { findReservation } from './queries.ts'
import { confirmPromo, confirmPromoOfTransaction, linkPromo, releasePromo, releasePromoOfTransaction, reservePromo } from './service.ts'

const t = useTestApp()

const VALIDATE = '/api/promocode/validate/'

async function promo(ctx: TestContext, ...args: string[]) {
  const r = await runCommand(ctx.db, ['promo:create', ...args])
  expect(r.code, r.output).toBe(0)
}

const used = async (code: string) =>
  (await t.db.query<{ n: number }>('SELECT activations_used AS n FROM promo_codes WHERE lower(code) = lower($1)', [code]))[0]!.n

describe('POST /api/promocode/validate/', () => {
  it('answers the code as created and its discount, in any case the customer types it', async () => {
    await promo(t, 'Spring10', '--discount', '10%')
    await promo(t, 'FIXED15', '--discount', '15')
    const { agent } = await signedInClient(t)
    const res = await agent.post(VALIDATE, { promocode: 'sPRING10', product: 'nuitrack_ai_perpetual' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ promocode: 'Spring10', discount: '10%' })
    expect((await agent.post(VALIDATE, { promocode: ' fixed15 ', product: 'fmc_subscribe' })).json()).toEqual({ promocode: 'FIXED15', discount: '15' })
    // the answer prices an order with the domain's one rule
    expect(discountedTotal(29990, '10%')).toBe(26991)
  })

  it('c2bcf3bf: a code that does not exist, a disabled one, and text that cannot be a code', async () => {
    await promo(t, 'GONE', '--discount', '5%')
    const { agent } = await signedInClient(t)
    expectError(await agent.post(VALIDATE, { promocode: 'NOPE', product: 'old' }), 400, ERRORS.promo_not_found.code)
    expect((await agent.post(VALIDATE, { promocode: 'GONE', product: 'old' })).statusCode).toBe(200)
    expect(await runCommand(t.db, ['promo:disable', 'gone'])).toEqual({ code: 0, output: 'Promo code gone is disabled.' })
    expectError(await agent.post(VALIDATE, { promocode: 'GONE', product: 'old' }), 400, ERRORS.promo_not_found.code)
    expectError(await agent.post(VALIDATE, { promocode: 'has space', product: 'old' }), 400, ERRORS.promo_not_found.code, 'promocode')
    expectError(await agent.post(VALIDATE, { promocode: '', product: 'old' }), 400, ERRORS.promo_not_found.code, 'promocode')
    expectError(await agent.post(VALIDATE, { promocode: 'x'.repeat(65), product: 'old' }), 400, ERRORS.promo_not_found.code, 'promocode')
  })

  it('860468cb: a code past its last day', async () => {
    await promo(t, 'OLDONE', '--discount', '10%', '--expires', '2020-01-31')
    await promo(t, 'FUTURE', '--discount', '10%', '--expires', '2999-12-31')
    const { agent } = await signedInClient(t)
    expectError(await agent.post(VALIDATE, { promocode: 'OLDONE', product: 'old' }), 400, ERRORS.promo_expired.code)
    expect((await agent.post(VALIDATE, { promocode: 'FUTURE', product: 'old' })).statusCode).toBe(200)
  })

  it("75d895af: a code for other platforms than the product's", async () => {
    await promo(t, 'FACEONLY', '--discount', '20%', '--platform', 'face', 'face-machine')
    const { agent } = await signedInClient(t)
    expect((await agent.post(VALIDATE, { promocode: 'FACEONLY', product: 'face_online_all_in_one' })).statusCode).toBe(200)
    expect((await agent.post(VALIDATE, { promocode: 'FACEONLY', product: 'fmc_subscribe' })).statusCode).toBe(200)
    expectError(await agent.post(VALIDATE, { promocode: 'FACEONLY', product: 'nuitrack_ai_perpetual' }), 400, ERRORS.promo_wrong_platform.code)
    expectError(await agent.post(VALIDATE, { promocode: 'FACEONLY', product: 'na_subscribe' }), 400, ERRORS.promo_wrong_platform.code)
  })

  it('c8f7c88b: a code whose activations are all reserved; a release makes it usable again', async () => {
    await promo(t, 'ONCE', '--discount', '50%', '--max-activations', '1')
    const { agent, client } = await signedInClient(t)
    expect((await agent.post(VALIDATE, { promocode: 'ONCE', product: 'old' })).statusCode).toBe(200)
    await t.db.transaction((tx) => reservePromo(tx, { code: 'once', clientId: client.id, ref: 'order:1', platform: 'nuitrack' }))
    expectError(await agent.post(VALIDATE, { promocode: 'ONCE', product: 'old' }), 400, ERRORS.promo_used_up.code)
    await t.db.transaction((tx) => releasePromo(tx, 'order:1'))
    expect((await agent.post(VALIDATE, { promocode: 'ONCE', product: 'old' })).statusCode).toBe(200)
  })

  it('refusals come in the order: missing, expired, platform, used up', async () => {
    await promo(t, 'ALLBAD', '--discount', '1', '--platform', 'face', '--max-activations', '1', '--expires', '2020-01-01')
    const { agent, client } = await signedInClient(t)
    // expired beats the platform
    expectError(await agent.post(VALIDATE, { promocode: 'ALLBAD', product: 'old' }), 400, ERRORS.promo_expired.code)
    await t.db.query(`UPDATE promo_codes SET expires_at = NULL`)
    expectError(await agent.post(VALIDATE, { promocode: 'ALLBAD', product: 'old' }), 400, ERRORS.promo_wrong_platform.code)
    await t.db.transaction((tx) => reservePromo(tx, { code: 'ALLBAD', clientId: client.id, ref: 'r1', platform: 'face' }))
    expectError(await agent.post(VALIDATE, { promocode: 'ALLBAD', product: 'old' }), 400, ERRORS.promo_wrong_platform.code)
    expectError(await agent.post(VALIDATE, { promocode: 'ALLBAD', product: 'face_online_subscribe' }), 400, ERRORS.promo_used_up.code)
  })

  it('needs a signed-in client, a product of the catalogue, and is rate limited per client', async () => {
    await promo(t, 'RL', '--discount', '10%')
    const { agent } = await signedInClient(t)
    const { agent: other } = await signedInClient(t)
    expectError(await agent.post(VALIDATE, { promocode: 'RL', product: 'no_such_product' }), 400, ERRORS.validation_failed.code, 'product')
    expectError(await new Agent(t.app).post(VALIDATE, { promocode: 'RL', product: 'old' }), 401, ERRORS.unauthorized.code)
    const max = RATE_LIMITS.promoValidatePerClient.max
    // the one refused above counted too (a malformed body never reaches the service, so it did not)
    for (let i = 0; i < max; i++) {
      const r = await agent.post(VALIDATE, { promocode: i % 2 ? 'RL' : `GUESS${i}`, product: 'old' })
      expect(r.statusCode, r.body).toBeLessThan(429)
    }
    expectError(await agent.post(VALIDATE, { promocode: 'RL', product: 'old' }), 429, ERRORS.rate_limited.code)
    // another client is not held back
    expect((await other.post(VALIDATE, { promocode: 'RL', product: 'old' })).statusCode).toBe(200)
  })
})

describe('promo reservations (a purchase takes an activation, its cancelled payment gives it back)', () => {
  it('reserves, refuses a second reservation of a used-up code, releases once however often asked', async () => {
    await promo(t, 'TWO', '--discount', '10%', '--max-activations', '2')
    // three clients: each client holds one reservation of a code at a time
    const [a, b, c] = await Promise.all([signedInClient(t), signedInClient(t), signedInClient(t)])
    const clientOf: Record<string, number> = { a: a.client.id, b: b.client.id, c: c.client.id }
    const reserve = (ref: string) => t.db.transaction((tx) => reservePromo(tx, { code: 'two', clientId: clientOf[ref]!, ref, platform: 'face' }))
    expect(await reserve('a')).toMatchObject({ code: 'TWO', discount: '10%' })
    await reserve('b')
    expect(await used('TWO')).toBe(2)
    await expect(reserve('c')).rejects.toMatchObject({ body: { error_code: ERRORS.promo_used_up.code } })
    expect(await count(t.db, 'promo_reservations')).toBe(2)
    expect(await t.db.transaction((tx) => releasePromo(tx, 'a'))).toBe(true)
    expect(await t.db.transaction((tx) => releasePromo(tx, 'a'))).toBe(false)
    expect(await t.db.transaction((tx) => releasePromo(tx, 'never-reserved'))).toBe(false)
    expect(await used('TWO')).toBe(1)
    expect((await findReservation(t.db, 'a'))!.released_at).not.toBeNull()
    await reserve('c')
    expect(await used('TWO')).toBe(2)
  })

  it('a reservation refused inside a purchase rolls back with the purchase: nothing is taken', async () => {
    await promo(t, 'ROLL', '--discount', '10%', '--max-activations', '3')
    const { client } = await signedInClient(t)
    await expect(
      t.db.transaction(async (tx) => {
        await reservePromo(tx, { code: 'ROLL', clientId: client.id, ref: 'x', platform: 'nuitrack' })
        throw new AppError('insufficient_funds')
      }),
    ).rejects.toBeInstanceOf(AppError)
    expect(await used('ROLL')).toBe(0)
    expect(await count(t.db, 'promo_reservations')).toBe(0)
  })

  it('refuses with the code that explains why: missing, expired, platform', async () => {
    await promo(t, 'OLDCODE', '--discount', '10%', '--expires', '2020-01-01')
    await promo(t, 'NAONLY', '--discount', '10%', '--platform', 'nuitrack-analytics')
    const { client } = await signedInClient(t)
    const reserve = (code: string) => t.db.transaction((tx) => reservePromo(tx, { code, clientId: client.id, ref: code, platform: 'nuitrack' }))
    await expect(reserve('MISSING')).rejects.toMatchObject({ body: { error_code: ERRORS.promo_not_found.code } })
    await expect(reserve('OLDCODE')).rejects.toMatchObject({ body: { error_code: ERRORS.promo_expired.code } })
    await expect(reserve('NAONLY')).rejects.toMatchObject({ body: { error_code: ERRORS.promo_wrong_platform.code } })
  })

  it('a confirmed (paid) reservation is never released', async () => {
    await promo(t, 'PAID', '--discount', '10%', '--max-activations', '1')
    const { client } = await signedInClient(t)
    await t.db.transaction((tx) => reservePromo(tx, { code: 'PAID', clientId: client.id, ref: 'paid-1', platform: 'face' }))
    expect(await t.db.transaction((tx) => confirmPromo(tx, 'paid-1'))).toBe(true)
    expect(await t.db.transaction((tx) => confirmPromo(tx, 'paid-1'))).toBe(false)
    expect(await t.db.transaction((tx) => releasePromo(tx, 'paid-1'))).toBe(false)
    expect(await used('PAID')).toBe(1)
  })

  it("releases by transaction: a declined or expired payment's reservations go back", async () => {
    await promo(t, 'BYTX', '--discount', '10%', '--max-activations', '5')
    const { client } = await signedInClient(t)
    const [tr] = await t.db.query<{ id: number }>(
      `INSERT INTO transactions (client_id, type, amount_cents, kind, description, payment_source) VALUES ($1, 1, 900, 'purchase', 'test', 'stripe') RETURNING id`,
      [client.id],
    )
    await t.db.transaction((tx) => reservePromo(tx, { code: 'BYTX', clientId: client.id, ref: 'tx-ref', platform: 'face', transactionId: tr!.id }))
    expect(await used('BYTX')).toBe(1)
    expect(await t.db.transaction((tx) => releasePromoOfTransaction(tx, tr!.id))).toBe(1)
    expect(await t.db.transaction((tx) => releasePromoOfTransaction(tx, tr!.id))).toBe(0)
    expect(await used('BYTX')).toBe(0)
  })

  it('a reservation made before its checkout is linked to the transaction after, and confirmed by it', async () => {
    await promo(t, 'LINKED', '--discount', '10%', '--max-activations', '5')
    const { client } = await signedInClient(t)
    await t.db.transaction((tx) => reservePromo(tx, { code: 'LINKED', clientId: client.id, ref: 'uuid-1', platform: 'face' }))
    const [tr] = await t.db.query<{ id: number }>(
      `INSERT INTO transactions (client_id, type, amount_cents, kind, description, payment_source) VALUES ($1, 1, 900, 'purchase', 'test', 'stripe') RETURNING id`,
      [client.id],
    )
    expect(await t.db.transaction((tx) => linkPromo(tx, 'uuid-1', tr!.id))).toBe(true)
    expect(await t.db.transaction((tx) => linkPromo(tx, 'no-such-ref', tr!.id))).toBe(false)
    expect(await t.db.transaction((tx) => confirmPromoOfTransaction(tx, tr!.id))).toBe(1)
    expect(await t.db.transaction((tx) => confirmPromoOfTransaction(tx, tr!.id))).toBe(0)
    // paid: a late expiry of the same transaction gives nothing back
    expect(await t.db.transaction((tx) => releasePromoOfTransaction(tx, tr!.id))).toBe(0)
    expect(await used('LINKED')).toBe(1)
    expect((await findReservation(t.db, 'uuid-1'))!.transaction_id).toBe(tr!.id)
  })

  it('30 parallel purchases of a code with N activations left use it at most N times', async () => {
    await promo(t, 'RUSH', '--discount', '25%', '--max-activations', '10')
    // a client holds one reservation of a code at a time: 33 clients
    const clients = (
      await t.db.query<{ id: string }>(
        `INSERT INTO clients (email, password_hash, token) SELECT 'rush' || i || '@example.com', 'x', 'token' || i FROM generate_series(1, 33) i RETURNING id`,
      )
    ).map((r) => ({ client: { id: Number(r.id) } }))
    // 3 of the 10 are taken already: 7 left
    for (const [i, ref] of ['pre-1', 'pre-2', 'pre-3'].entries())
      await t.db.transaction((tx) => reservePromo(tx, { code: 'RUSH', clientId: clients[30 + i]!.client.id, ref, platform: 'nuitrack' }))
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        t.db.transaction(async (tx) => {
          const r = await reservePromo(tx, { code: 'rush', clientId: clients[i]!.client.id, ref: `p-${i}`, platform: 'nuitrack' })
          // the purchase goes on in the same transaction, holding the code's row lock: others wait, then re-check
          await tx.query('SELECT pg_sleep(0.005)')
          return r
        }),
      ),
    )
    const ok = results.filter((r) => r.status === 'fulfilled')
    expect(ok).toHaveLength(7)
    for (const r of results.filter((r) => r.status === 'rejected')) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(AppError)
      expect(((r as PromiseRejectedResult).reason as AppError).body.error_code).toBe(ERRORS.promo_used_up.code)
    }
    expect(await used('RUSH')).toBe(10)
    expect(await count(t.db, 'promo_reservations WHERE released_at IS NULL')).toBe(10)
    // releasing in parallel (each twice) gives each back exactly once
    await Promise.all(
      [...Array.from({ length: 30 }, (_, i) => `p-${i}`), ...Array.from({ length: 30 }, (_, i) => `p-${i}`)].map((ref) =>
        t.db.transaction((tx) => releasePromo(tx, ref)),
      ),
    )
    expect(await used('RUSH')).toBe(3)
  })
})
