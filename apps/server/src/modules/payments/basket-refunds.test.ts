import { afterEach, describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { runCommand } from '../../cli/commands.ts'
import type { Queryable } from '../../db/db.ts'
import { count, expectError, lastMailTo, signedInClient, useTestApp, type Agent } from '../../test/harness.ts'
import { credit } from '../../test/money.ts'
import { balanceAndLedgerSum } from '../billing/queries.ts'
import { applyPaymentEvent, settlePaid } from '../billing/service.ts'
import { addPurchaseCapacity, upsertDefaultGroup } from '../groups/queries.ts'
import { insertSubscription } from '../licenses/queries.ts'
import { insertTransaction } from '../transactions/queries.ts'

/**
 * Refunds and disputes of basket orders: a basket order adds capacity to groups and the licenses are
 * generated from a group later, so what a refund stops is what the order delivered
 * (purchase_capacity): the licenses generated from its capacity, and its ungenerated rest, in its
 * group and in the group keys split off it. A partial refund leaves them alone.
 */

const t = useTestApp()
const ctx = () => t.app.ctx as AppContext
const services = () => ({ ctx: () => Promise.resolve(ctx()) })
const cli = (...argv: string[]) => runCommand(t.db, argv, services())

const AI_PERPETUAL = (n: number) => ({ config: { product: 'nuitrack_ai_perpetual', os_type: 1 }, count: n })
const order = (n: number, payment_source: 'stripe' | 'balance') => ({
  payment_source,
  success_url: '/app/nuitrack/license-purchase-success/',
  cancel_url: '/app/nuitrack/basket/',
  items: [AI_PERPETUAL(n)],
})

/** A basket order of `n` Nuitrack AI perpetual licenses paid by card: the sandbox checkout, then its paid event. */
async function cardOrder(agent: Agent, n: number) {
  const res = await agent.post('/api/resource/buy/', order(n, 'stripe'))
  expect(res.statusCode, res.body).toBe(200)
  const body = res.json() as { transaction_id: number; payment: { provider_data: { session_id: string } } }
  const sessionId = body.payment.provider_data.session_id
  const applied = await applyPaymentEvent(ctx(), {
    provider: 'sandbox',
    eventId: `evt_${sessionId}`,
    sessionId,
    outcome: 'paid',
    paymentMethod: 'Visa •••• 4242',
  })
  expect(applied).toMatchObject({ status: 'ok', applied: true })
  return body.transaction_id
}

const groupOf = async (clientId: number, product = 'nuitrack_ai_perpetual') => {
  const [g] = await t.db.query<{ id: number; available: number }>(
    'SELECT id, available FROM license_groups WHERE client_id = $1 AND product = $2 AND is_default',
    [clientId, product],
  )
  return { id: Number(g!.id), available: g!.available }
}

const available = async (groupId: number) =>
  (await t.db.query<{ available: number }>('SELECT available FROM license_groups WHERE id = $1', [groupId]))[0]!.available

async function generate(agent: Agent, groupId: number, title: string): Promise<number> {
  const res = await agent.post(`/api/group/${groupId}/new-license/`, { title })
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as { id: number }).id
}

const licenseState = async (id: number) =>
  (await t.db.query<{ status: number; suspended_reason: string | null }>('SELECT status, suspended_reason FROM licenses WHERE id = $1', [id]))[0]!

const historyOf = async (licenseId: number, kind: string) => count(t.db, 'activity_events WHERE license_id = $1 AND kind = $2', [licenseId, kind])

afterEach(async () => {
  // whatever was refunded, the ledger's sum plus what is owed is every client's balance
  for (const r of await t.db.query<{ id: number }>('SELECT id FROM clients')) {
    const { balance, ledger } = await balanceAndLedgerSum(t.db, Number(r.id))
    expect(ledger, `client ${r.id}`).toBe(balance)
  }
})

describe('a refunded basket order', () => {
  it('suspends exactly the licenses generated from its capacity and takes its ungenerated rest out of the group', async () => {
    const { agent, client, email } = await signedInClient(t)
    // capacity that names no purchase (a staff order, or bought before purchases were recorded)
    await t.db.transaction(async (tx) => {
      await upsertDefaultGroup(tx, {
        clientId: client.id,
        type: 'nuitrack',
        product: 'nuitrack_ai_perpetual',
        osType: 1,
        months: null,
        count: 1,
        config: { product: 'nuitrack_ai_perpetual', os_type: 1 },
        token: `unnamed-${client.id}`,
      })
    })
    // then an order from the balance (2) and one by card (3), into the same default group
    await credit(t.db, client.id, 2 * 29_990)
    const fromBalance = await agent.post('/api/resource/buy/', order(2, 'balance'))
    expect(fromBalance.statusCode, fromBalance.body).toBe(200)
    const byCard = await cardOrder(agent, 3)
    const group = await groupOf(client.id)
    expect(group.available).toBe(6)

    // oldest capacity first: the unnamed unit, the balance order's two, then one of the card order's
    const ids = []
    for (const title of ['Unnamed', 'Balance A', 'Balance B', 'Card A']) ids.push(await generate(agent, group.id, title))
    const [unnamed, balanceA, balanceB, cardA] = ids as [number, number, number, number]
    expect(await available(group.id)).toBe(2)

    const refund = await cli('payments:refund', String(byCard), '--reason', 'ordered twice')
    expect(refund.code, refund.output).toBe(0)
    expect(refund.output).toMatch(/credit note CN-\d{6}, 1 license\(s\) suspended, 2 ungenerated license\(s\) taken out/)

    const card = await licenseState(cardA)
    expect(card.status).toBe(1)
    expect(card.suspended_reason).toMatch(/^payment refunded \(CN-\d{6}\): ordered twice$/)
    for (const id of [unnamed, balanceA, balanceB]) expect(await licenseState(id)).toEqual({ status: 0, suspended_reason: null })
    expect(await available(group.id)).toBe(0)
    expect(await historyOf(cardA, 'suspended')).toBe(1)
    expect(await historyOf(balanceA, 'suspended')).toBe(0)

    // the info page says why; the suspended license cannot be handed back to refill its group
    const info = (await agent.get(`/api/license/${cardA}/`)).json() as { license_status: string; suspended_reason: string }
    expect(info).toMatchObject({ license_status: 'suspended', suspended_reason: card.suspended_reason })
    expectError(await agent.post(`/api/license/${cardA}/release/`), 400, ERRORS.action_unavailable.code)
    expect(await available(group.id)).toBe(0)
    // a license of another purchase is revoked as before: its unit is back
    expect((await agent.post(`/api/license/${balanceB}/release/`)).statusCode).toBe(200)
    expect(await available(group.id)).toBe(1)

    const mail = await lastMailTo(t.db, email)
    expect(mail?.subject).toBe('Your payment was refunded')
    expect(mail?.text_body).toContain('The license it paid for is suspended.')
    expect(mail?.text_body).toContain('The 2 licenses it paid for and not yet generated were taken out of your groups.')
    // a refund again finds nothing left to refund, and changes nothing
    expect((await cli('payments:refund', String(byCard), '--reason', 'again')).code).toBe(1)
    expect(await available(group.id)).toBe(1)
  })

  it('takes the units split off to a group key from the key', async () => {
    const { agent, client } = await signedInClient(t)
    // a paid card purchase of 4 Nuitrack subscription units (the capacity group keys are split from)
    const { transactionId, groupId } = await t.db.transaction(async (tx) => {
      const row = await paidSandboxPurchase(tx, client.id, 4)
      const g = await upsertDefaultGroup(tx, {
        clientId: client.id,
        type: 'nuitrack',
        product: 'nuitrack_subscribe',
        osType: 1,
        months: null,
        count: 4,
        config: { product: 'nuitrack_subscribe', os_type: 1 },
        token: `subscribe-${client.id}`,
      })
      await addPurchaseCapacity(tx, { transactionId: row, clientId: client.id, groupId: g.id, count: 4 })
      return { transactionId: row, groupId: g.id }
    })
    const first = await generate(agent, groupId, 'Before the split')
    const split = await agent.post(`/api/group/${groupId}/split/`, { title: 'Front desk', limit: 2 })
    expect(split.statusCode, split.body).toBe(200)
    const keyId = (split.json() as { dest_group: { id: number } }).dest_group.id
    const fromKey = await generate(agent, keyId, 'From the key')
    // the key grows by its source's last unit, then gives it back
    expect((await agent.post(`/api/group/${keyId}/resize/`, { limit: 2 })).statusCode).toBe(200)
    expect((await agent.post(`/api/group/${keyId}/resize/`, { limit: 1 })).statusCode).toBe(200)
    expect([await available(groupId), await available(keyId)]).toEqual([1, 1])

    const lost = await cli('sandbox:dispute', String(transactionId))
    expect(lost.code, lost.output).toBe(0)
    expect(lost.output).toContain('2 license(s) suspended, 2 ungenerated license(s) taken out')
    expect([await available(groupId), await available(keyId)]).toEqual([0, 0])
    for (const id of [first, fromKey]) expect((await licenseState(id)).status).toBe(1)

    const won = await cli('sandbox:dispute', String(transactionId), '--outcome', 'won')
    expect(won.code, won.output).toBe(0)
    expect([await available(groupId), await available(keyId)]).toEqual([1, 1])
    for (const id of [first, fromKey]) expect(await licenseState(id)).toEqual({ status: 0, suspended_reason: null })
  })
})

describe('units a group upgrade moved to AI', () => {
  it('are still the purchase they came from: its refund takes them from the AI group', async () => {
    const { agent, client } = await signedInClient(t)
    const { transactionId, groupId } = await t.db.transaction(async (tx) => {
      const row = await paidSandboxPurchase(tx, client.id, 3)
      const g = await upsertDefaultGroup(tx, {
        clientId: client.id,
        type: 'nuitrack',
        product: 'old',
        osType: 1,
        months: null,
        count: 3,
        config: { product: 'old', os_type: 1 },
        token: `old-${client.id}`,
      })
      await addPurchaseCapacity(tx, { transactionId: row, clientId: client.id, groupId: g.id, count: 3 })
      return { transactionId: row, groupId: g.id }
    })
    await credit(t.db, client.id, 2 * 9_990)
    const upgrade = await agent.post(`/api/group/${groupId}/upgrade/`, {
      payment_source: 'balance',
      limit: 2,
      success_url: '/app/nuitrack/dashboard/',
      cancel_url: '/app/nuitrack/dashboard/',
    })
    expect(upgrade.statusCode, upgrade.body).toBe(200)
    const ai = await groupOf(client.id)
    expect([await available(groupId), ai.available]).toEqual([1, 2])

    const refund = await cli('payments:refund', String(transactionId), '--reason', 'x')
    expect(refund.output).toContain('0 license(s) suspended, 3 ungenerated license(s) taken out')
    expect([await available(groupId), await available(ai.id)]).toEqual([0, 0])
  })
})

/** A paid sandbox card transaction of a basket order (its lines aside), in the caller's transaction. */
async function paidSandboxPurchase(tx: Queryable, clientId: number, units: number): Promise<number> {
  const row = await insertTransaction(tx, {
    clientId,
    type: 1,
    status: 1,
    amountCents: units * 1_000,
    kind: 'purchase',
    description: `Nuitrack subscription × ${units}`,
    lines: [{ description: 'Nuitrack subscription', quantity: units, amount_cents: units * 1_000 }],
    paymentSource: 'stripe',
    invoiceNumber: null,
  })
  await tx.query("UPDATE transactions SET provider = 'sandbox', provider_session_id = $2 WHERE id = $1", [row.id, `sbch_${row.id}`])
  await settlePaid(tx, row.id, { paymentMethod: 'Visa •••• 4242', now: new Date() })
  return row.id
}

describe('a disputed basket order', () => {
  it('lost: its licenses suspended and its rest taken; won: exactly those licenses and units come back', async () => {
    const { agent, client, email } = await signedInClient(t)
    const transactionId = await cardOrder(agent, 3)
    const group = await groupOf(client.id)
    const generated = await generate(agent, group.id, 'Studio')

    const lost = await cli('sandbox:dispute', String(transactionId))
    expect(lost.code, lost.output).toBe(0)
    expect(await licenseState(generated)).toMatchObject({ status: 1 })
    expect((await licenseState(generated)).suspended_reason).toMatch(/^payment disputed \(CN-\d{6}\)/)
    expect(await available(group.id)).toBe(0)
    expectError(await agent.post(`/api/group/${group.id}/new-license/`, { title: 'More' }), 409, ERRORS.not_enough_licenses.code)

    const won = await cli('sandbox:dispute', String(transactionId), '--outcome', 'won')
    expect(won.code, won.output).toBe(0)
    expect(await licenseState(generated)).toEqual({ status: 0, suspended_reason: null })
    expect(await available(group.id)).toBe(2)
    expect(await historyOf(generated, 'suspended')).toBe(1)
    expect(await historyOf(generated, 'restored')).toBe(1)
    expect((await lastMailTo(t.db, email))?.text_body).toContain('the license it paid for is active again, and 2 licenses to generate are back in your groups')
    // the units given back are the order's again: a refund of it now takes them
    await generate(agent, group.id, 'After the dispute')
    const refund = await cli('payments:refund', String(transactionId), '--reason', 'customer asked')
    expect(refund.output).toContain('2 license(s) suspended, 1 ungenerated license(s) taken out')
    expect(await available(group.id)).toBe(0)
  })
})

describe('a subscription bought in the basket', () => {
  it('stops renewing while its payment is disputed, and renews again at its expiry once the dispute is won', async () => {
    const { agent, client } = await signedInClient(t)
    const res = await agent.post('/api/resource/buy/', {
      ...order(1, 'stripe'),
      items: [{ config: { product: 'face_online_subscribe', license_expire_delta: 2_592_000 }, count: 1 }],
    })
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json() as { transaction_id: number; payment: { provider_data: { session_id: string } } }
    const sessionId = body.payment.provider_data.session_id
    await applyPaymentEvent(ctx(), { provider: 'sandbox', eventId: `evt_${sessionId}`, sessionId, outcome: 'paid' })
    const group = await groupOf(client.id, 'face_online_subscribe')
    const licenseId = await generate(agent, group.id, 'Gate')
    // renewing on the card it was bought with (a subscription checkout saves it)
    const [license] = await t.db.query<{ expire_date: Date }>('SELECT expire_date FROM licenses WHERE id = $1', [licenseId])
    await insertSubscription(t.db, { clientId: client.id, licenseId, source: 'stripe', methodId: null, periodEnd: license!.expire_date })
    const subscription = async () =>
      (
        await t.db.query<{ state: string; next_attempt_at: Date | null }>('SELECT state, next_attempt_at FROM subscriptions WHERE license_id = $1', [licenseId])
      )[0]!

    expect((await cli('sandbox:dispute', String(body.transaction_id))).code).toBe(0)
    expect(await subscription()).toEqual({ state: 'ended', next_attempt_at: null })
    // paying for a new period does not lift the suspension: only the dispute's outcome does
    await credit(t.db, client.id, 100_000)
    const reactivate = await agent.post(`/api/license/${licenseId}/reactivate-subscription/`, {
      payment_source: 'balance',
      success_url: '/app/face/dashboard/',
      cancel_url: '/app/face/dashboard/',
    })
    expectError(reactivate, 400, ERRORS.action_unavailable.code)
    expect(await subscription()).toEqual({ state: 'ended', next_attempt_at: null })
    expect(await licenseState(licenseId)).toMatchObject({ status: 1 })
    expect(await cli('sandbox:dispute', String(body.transaction_id), '--outcome', 'won')).toMatchObject({ code: 0 })
    expect(await subscription()).toEqual({ state: 'active', next_attempt_at: license!.expire_date })
  })
})

describe('a partial refund of a basket order', () => {
  it('issues its credit note and leaves the licenses and the capacity alone; the refund of the rest stops them', async () => {
    const { agent, client, email } = await signedInClient(t)
    const transactionId = await cardOrder(agent, 2)
    const group = await groupOf(client.id)
    const generated = await generate(agent, group.id, 'Kept')

    const part = await cli('payments:refund', String(transactionId), '--amount', '100', '--reason', 'goodwill')
    expect(part.code, part.output).toBe(0)
    expect(part.output).toMatch(/Refunded \$100\.00 .* credit note CN-\d{6}, 0 license\(s\) suspended, 0 ungenerated/)
    expect(await licenseState(generated)).toEqual({ status: 0, suspended_reason: null })
    expect(await available(group.id)).toBe(1)
    expect(await historyOf(generated, 'suspended')).toBe(0)
    expect((await lastMailTo(t.db, email))?.text_body).toContain('This is a part of the payment: the licenses it bought stay as they are.')
    const docs = (await agent.get('/api/transaction/')).json() as { credit_notes: { amount: number }[] }
    expect(docs.credit_notes).toEqual([expect.objectContaining({ amount: 100 })])

    // the rest: the payment is now refunded whole
    const rest = await cli('payments:refund', String(transactionId), '--reason', 'cancelled the project')
    expect(rest.code, rest.output).toBe(0)
    expect(rest.output).toContain(`Refunded $${(2 * 299.9 - 100).toFixed(2)}`)
    expect(await licenseState(generated)).toMatchObject({ status: 1 })
    expect(await available(group.id)).toBe(0)
    expect(await count(t.db, 'credit_notes WHERE transaction_id = $1', [transactionId])).toBe(2)
  })
})

describe('purchases made before what they delivered was recorded', () => {
  it('a license that names no purchase is never suspended by an order refunded later; an order with no record stops nothing', async () => {
    const { agent, client } = await signedInClient(t)
    const recorded = await cardOrder(agent, 2)
    const group = await groupOf(client.id)
    const old = await generate(agent, group.id, 'Old')
    // as a license generated before purchases were recorded: it names none
    await t.db.query('UPDATE licenses SET purchase_capacity_id = NULL WHERE id = $1', [old])
    const refund = await cli('payments:refund', String(recorded), '--reason', 'x')
    expect(refund.output).toContain('0 license(s) suspended, 1 ungenerated license(s) taken out')
    expect(await licenseState(old)).toEqual({ status: 0, suspended_reason: null })
    expect(await available(group.id)).toBe(0)

    // an order paid before: nothing names what it delivered, so its credit note stops nothing
    const unrecorded = await cardOrder(agent, 1)
    const before = await generate(agent, group.id, 'Before')
    await t.db.query('UPDATE licenses SET purchase_capacity_id = NULL WHERE id = $1', [before])
    await t.db.query('DELETE FROM purchase_capacity WHERE transaction_id = $1', [unrecorded])
    const lost = await cli('sandbox:dispute', String(unrecorded))
    expect(lost.output).toMatch(/credit note CN-\d{6}, 0 license\(s\) suspended, 0 ungenerated/)
    expect(await licenseState(before)).toEqual({ status: 0, suspended_reason: null })
  })
})
