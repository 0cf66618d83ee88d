import {
  SALE_ENTRIES,
  TRANSACTION_TYPE,
  UPGRADE_HOLD_MINUTES,
  canUpgrade,
  centsToUsd,
  freeLicenses,
  grantedConfig,
  isOnHold,
  platformOfProduct,
  productKind,
  productTitle,
  upgradePriceCents,
  upgradeableToAI,
  type Cents,
  type ContractBody,
  type LicenseConfig,
  type contracts,
} from '@portal/domain'
import type { AppContext } from '../../context.ts'
import type { Queryable } from '../../db/db.ts'
import { fail } from '../../platform/errors.ts'
import { postLedgerEntry, settleFromBalance, type Fulfilment, type PaidWith } from '../billing/service.ts'
import { listPriceRows } from '../catalogue/service.ts'
import { fulfil } from '../licenses/service.ts'
import { findLicense, lockLicense, type LicenseRecord } from '../licenses/service.ts'
import { lockedLicense, parseId } from '../licenses/service.ts'
import { openCheckout } from '../payments/service.ts'
import { insertSubscription } from '../licenses/service.ts'
import { recordActivity } from '../activity/service.ts'
import type { TransactionLine, TransactionRow } from '../transactions/service.ts'
import { endGroupHold, endLicenseHold, findTransactionTarget, holdGroup, holdLicense, setTransactionTarget, upgradeLicenseInPlace } from './queries.ts'
import { lockClient } from '../account/service.ts'
import { addAvailable, findGroup, moveCapacity, type GroupRow, lockedGroup } from '../groups/service.ts'
import { nowOf } from '../../platform/clock.ts'

/** The transaction kind of every upgrade (a license's or a group's: transactions.license_id or group_id says which). */
export const UPGRADE_KIND = 'upgrade'

type LicenseUpgradeBody = ContractBody<typeof contracts.licenseUpgrade>
type GroupUpgradeBody = ContractBody<typeof contracts.groupUpgrade>
type Offer = NonNullable<ReturnType<typeof canUpgrade>>

/** A license made into a staff order's own group (not default, no source): its price is custom. */
const fromCustomGroup = (row: { group_id: number | null; group_is_default: boolean | null; group_source_id: number | null }) =>
  row.group_id !== null && row.group_is_default === false && row.group_source_id == null

const holdEnd = (now: Date) => new Date(now.getTime() + UPGRADE_HOLD_MINUTES * 60_000)

/** The answer of both upgrade calls. */
const answer = (
  status: 'paid' | 'pending',
  transactionId: number,
  amountCents: Cents,
  payment: { provider: 'sandbox' | 'stripe' | 'paypal'; provider_data: { session_id: string; url: string } } | null,
) => ({
  status,
  order_id: transactionId,
  transaction_id: transactionId,
  amount: centsToUsd(amountCents),
  payment,
})

/** The upgrade a license may take now and its price, or the error that says why not. */
async function offerFor(ctx: AppContext, license: Pick<LicenseRecord, 'product' | 'config' | 'held_until'>, custom: boolean, now: Date) {
  if (isOnHold(license, now)) return fail('license_on_hold')
  const offer = canUpgrade({ ...license, custom }, now) ?? fail('action_unavailable', 'This license has no upgrade')
  if (offer.how === 'bySupport') return fail('upgrade_by_support')
  const amount = upgradePriceCents(offer.sold_as, await listPriceRows(ctx.db)) ?? fail('action_unavailable', 'This upgrade is not for sale')
  return { offer, amount }
}

function licenseLine(id: number, offer: Offer, amount: Cents): TransactionLine {
  const description =
    offer.kind === 'trial' ? `${productTitle(offer.to)}: upgrade of the trial license #${id}` : `${productTitle(offer.sold_as)} of license #${id}`
  return { description, quantity: 1, amount_cents: amount }
}

/**
 * The license takes its new product and config in place (id, token, devices and activation stay): a
 * trial becomes its paid product (upgraded, its paid term from now: the sale entry's), Nuitrack Pro
 * becomes AI perpetual (the AI product's grants over the license's own config, no expiry). A trial
 * upgraded to a subscription product starts its subscription, paid the way the upgrade was.
 */
async function applyUpgrade(
  tx: Queryable,
  license: LicenseRecord,
  offer: Offer,
  now: Date,
  paid: { source: 'balance' | 'stripe' | 'paypal'; methodId: number | null },
) {
  const entry = SALE_ENTRIES.find((e) => e.product === offer.to)
  const term = offer.kind === 'trial' ? (entry?.config.license_expire_delta ?? license.config.license_expire_delta ?? null) : null
  const config: LicenseConfig = {
    ...license.config,
    ...grantedConfig(offer.to),
    ...(offer.kind === 'trial' ? { plan_id: entry?.config.plan_id ?? license.config.plan_id ?? null, license_expire_delta: term } : {}),
    product: offer.to,
    upgraded: true,
  }
  const expireDate =
    productKind(offer.to) === 'perpetual' ? null : term ? new Date(now.getTime() + term * 1000) : license.expire_date ? new Date(license.expire_date) : null
  await upgradeLicenseInPlace(tx, license.id, { type: platformOfProduct(offer.to), product: offer.to, config, expireDate })
  const details = {
    from: license.product,
    to: offer.to,
    from_title: productTitle(license.product),
    to_title: productTitle(offer.to),
    trial: offer.kind === 'trial',
  }
  await recordActivity(tx, { clientId: license.client_id, licenseId: license.id, kind: 'upgraded', details, at: now })
  if (offer.kind === 'trial' && productKind(offer.to) === 'subscription') {
    await insertSubscription(tx, { clientId: license.client_id, licenseId: license.id, source: paid.source, methodId: paid.methodId, periodEnd: expireDate })
  }
}

/** A paid upgrade whose license or group no longer takes it: the money goes to the client's balance. */
async function creditBack(ctx: Pick<AppContext, 'log'>, tx: Queryable, t: TransactionRow, cents: Cents, why: string) {
  if (cents <= 0) return
  ctx.log.warn({ transaction: t.id, cents, why }, 'upgrade paid but not applicable: credited to the balance')
  await postLedgerEntry(tx, t.client_id, t.id, cents)
}

/**
 * POST /license/{id}/upgrade/: a Face Machine or Analytics trial to its paid subscription, Nuitrack
 * Pro to AI. From the balance it is done at once in one transaction; by card or PayPal it opens the
 * checkout and holds the license until the payment completes, is cancelled or expires.
 */
export async function upgradeLicense(ctx: AppContext, clientId: number, rawId: string, body: LicenseUpgradeBody) {
  const id = parseId(rawId)
  const row = (await findLicense(ctx.db, clientId, id)) ?? fail('not_found')
  const custom = fromCustomGroup(row)
  const { offer, amount } = await offerFor(ctx, row, custom, nowOf(ctx))
  const line = licenseLine(id, offer, amount)
  const source = body.payment_source ?? 'stripe'

  if (source === 'balance') {
    const transactionId = await ctx.db.transaction(async (tx) => {
      await lockClient(tx, clientId)
      const now = nowOf(ctx)
      const license = await lockedLicense(tx, clientId, id, now)
      // what was offered must still be what the locked license takes (a parallel upgrade may have done it)
      const locked = canUpgrade({ ...license, custom }, now)
      if (!locked || locked.kind !== offer.kind || locked.to !== offer.to) fail('action_unavailable', 'This license has no upgrade')
      const order = { clientId, kind: UPGRADE_KIND, amountCents: amount, description: line.description, lines: [line], now }
      return settleFromBalance(ctx, tx, order, async (t) => {
        await setTransactionTarget(tx, t.id, { licenseId: id })
        await applyUpgrade(tx, license, offer, now, { source: 'balance', methodId: null })
      })
    })
    return answer('paid', transactionId, amount, null)
  }

  const until = holdEnd(nowOf(ctx))
  const opened = await openCheckout(ctx, {
    clientId,
    kind: UPGRADE_KIND,
    type: TRANSACTION_TYPE.debit,
    description: line.description,
    lines: [line],
    amountCents: amount,
    source,
    // a trial becomes a subscription: the provider keeps the method for its renewals
    mode: offer.kind === 'trial' ? 'subscription' : 'payment',
    successPath: body.success_url,
    cancelPath: body.cancel_url,
    expiresAt: until,
    // the license row only: the pending transaction's foreign key already holds a share lock on the
    // client row, so taking the client row FOR UPDATE here would deadlock parallel checkouts
    reserve: async (tx, transactionId) => {
      const now = nowOf(ctx)
      const license = await lockedLicense(tx, clientId, id, now)
      const locked = canUpgrade({ ...license, custom }, now)
      if (!locked || locked.kind !== offer.kind || locked.to !== offer.to) fail('action_unavailable', 'This license has no upgrade')
      await holdLicense(tx, id, until)
      await setTransactionTarget(tx, transactionId, { licenseId: id })
    },
    release: (tx) => endLicenseHold(tx, id, until),
  })
  return answer('pending', opened.transaction_id, amount, opened.payment)
}

/** The group's upgrade: its product must upgrade to AI self-service; a staff order's own group goes through support. */
function groupOffer(group: GroupRow) {
  const record = upgradeableToAI(group.product)
  if (!record) return fail('action_unavailable', "This group's licenses have no upgrade")
  const custom = !group.is_default && group.source_group_id === null
  if (record === 'bySupport' || custom) return fail('upgrade_by_support')
  const to = canUpgrade({ product: group.product, config: group.config, held_until: null }, new Date())
  return to ?? fail('action_unavailable', "This group's licenses have no upgrade")
}

/**
 * POST /group/{id}/upgrade/: `limit` of the group's available Nuitrack Pro licenses become AI in the
 * client's AI default group. From the balance at once; by card or PayPal the `limit` licenses are on
 * hold (holded_limit, held_until) until the payment completes, is cancelled or expires.
 */
export async function upgradeGroup(ctx: AppContext, clientId: number, rawId: string, body: GroupUpgradeBody) {
  const id = parseId(rawId)
  const group = (await findGroup(ctx.db, clientId, id)) ?? fail('not_found', 'Group not found')
  const offer = groupOffer(group)
  const limit = body.limit
  const amount = upgradePriceCents(offer.sold_as, await listPriceRows(ctx.db), limit) ?? fail('action_unavailable', 'This upgrade is not for sale')
  const line: TransactionLine = { description: `${productTitle(offer.sold_as)} of group #${id}`, quantity: limit, amount_cents: amount }
  const source = body.payment_source ?? 'stripe'
  const check = (g: GroupRow, now: Date) => {
    if (isOnHold(g, now)) fail('license_on_hold')
    if (freeLicenses(g, now) < limit) fail('not_enough_licenses', `There are only ${freeLicenses(g, now)} licenses available to upgrade`, 'limit')
  }
  check(group, nowOf(ctx))

  if (source === 'balance') {
    const transactionId = await ctx.db.transaction(async (tx) => {
      await lockClient(tx, clientId)
      const now = nowOf(ctx)
      const locked = await lockedGroup(tx, clientId, id)
      check(locked, now)
      const order = { clientId, kind: UPGRADE_KIND, amountCents: amount, description: line.description, lines: [line], now }
      return settleFromBalance(ctx, tx, order, async (t) => {
        await setTransactionTarget(tx, t.id, { groupId: id })
        await moveToAI(tx, locked, offer.to, limit, now)
      })
    })
    return answer('paid', transactionId, amount, null)
  }

  const until = holdEnd(nowOf(ctx))
  const opened = await openCheckout(ctx, {
    clientId,
    kind: UPGRADE_KIND,
    type: TRANSACTION_TYPE.debit,
    description: line.description,
    lines: [line],
    amountCents: amount,
    source,
    mode: 'payment',
    successPath: body.success_url,
    cancelPath: body.cancel_url,
    expiresAt: until,
    // the group row only (see upgradeLicense: the client row is share-locked by the new transaction)
    reserve: async (tx, transactionId) => {
      check(await lockedGroup(tx, clientId, id), nowOf(ctx))
      await holdGroup(tx, id, limit, until)
      await setTransactionTarget(tx, transactionId, { groupId: id })
    },
    release: (tx) => endGroupHold(tx, id, until),
  })
  return answer('pending', opened.transaction_id, amount, opened.payment)
}

/** `count` licenses leave the group for the client's default group of the AI product (same os). */
async function moveToAI(tx: Queryable, group: GroupRow, to: string, count: number, now: Date) {
  if (count < 1) return
  const available = group.available
  await addAvailable(tx, group.id, -count)
  const target = await fulfil(tx, { clientId: group.client_id, product: to, count, osType: group.os_type })
  // the purchases whose units moved keep them, as AI units: a refund of one takes them from there
  await moveCapacity(tx, { clientId: group.client_id, fromGroupId: group.id, available, toGroupId: target.groupId, n: count })
  const details = { from: group.product, to, from_title: productTitle(group.product), to_title: productTitle(to), count, to_group_id: target.groupId }
  await recordActivity(tx, { clientId: group.client_id, groupId: group.id, kind: 'upgraded', details, at: now })
}

/**
 * What an upgrade's payment does (the 'upgrade' fulfilment): paid, the license is
 * upgraded in place or the group's licenses move to AI, and the hold ends; closed unpaid (declined,
 * cancelled, expired), the hold ends. A payment that arrives after its hold ended still upgrades
 * while the license or group can take it; what it can no longer buy is credited to the balance.
 */
export const upgradeFulfilments: Record<string, Fulfilment> = {
  [UPGRADE_KIND]: {
    async paid(ctx, tx, t, paidWith: PaidWith) {
      const target = await findTransactionTarget(tx, t.id)
      await lockClient(tx, t.client_id)
      const source = t.payment_source === 'paypal' ? 'paypal' : t.payment_source === 'balance' ? 'balance' : 'stripe'
      if (target.license_id !== null) {
        const license = await lockLicense(tx, t.client_id, target.license_id)
        if (license && t.expires_at) await endLicenseHold(tx, license.id, t.expires_at)
        // its own hold does not stop it; a newer hold of another checkout does not either: this one is paid
        const offer = license && canUpgrade({ ...license, held_until: null }, paidWith.now)
        if (!license || !offer) return creditBack(ctx, tx, t, t.amount_cents, 'the license has no upgrade any more')
        await applyUpgrade(tx, license, offer, paidWith.now, { source, methodId: paidWith.methodId })
        return
      }
      if (target.group_id !== null) {
        const group = await findGroup(tx, t.client_id, target.group_id, true)
        const limit = t.lines[0]?.quantity ?? 0
        if (!group || !upgradeableToAI(group.product)) return creditBack(ctx, tx, t, t.amount_cents, 'the group has no upgrade')
        const ours = t.expires_at !== null && group.held_until !== null && new Date(group.held_until).getTime() === t.expires_at.getTime()
        const usable = ours ? group.available : freeLicenses(group, paidWith.now)
        const count = Math.min(limit, usable)
        if (t.expires_at) await endGroupHold(tx, group.id, t.expires_at)
        const to = canUpgrade({ product: group.product, config: group.config, held_until: null }, paidWith.now)!.to
        await moveToAI(tx, group, to, count, paidWith.now)
        if (count < limit) await creditBack(ctx, tx, t, Math.round((t.amount_cents * (limit - count)) / limit), 'fewer licenses left than paid for')
      }
    },
    async closed(_ctx, tx, t) {
      if (!t.expires_at) return
      const target = await findTransactionTarget(tx, t.id)
      if (target.license_id !== null) await endLicenseHold(tx, target.license_id, t.expires_at)
      if (target.group_id !== null) await endGroupHold(tx, target.group_id, t.expires_at)
    },
  },
}
