import type { Cents, LicenseConfig, SubscriptionState } from '@portal/domain'
import { columns, type Queryable } from '../../db/db.ts'
import type { PaymentMethodRow } from '../payments/service.ts'

type Source = 'balance' | 'stripe' | 'paypal'

export interface SubscriptionRow {
  id: number
  client_id: number
  license_id: number
  payment_source: Source
  payment_method_id: number | null
  state: SubscriptionState
  cancel_at_period_end: boolean
  failed_attempts: number
  /** awaiting_authentication: the attempt's pay-by date (the end of the retry window) */
  next_attempt_at: Date | null
  /** awaiting_authentication: the end of the period the renewal pays for */
  awaiting_period_end: Date | null
  /** awaiting_authentication: the transaction of its current on-session checkout, and where it is paid once opened */
  checkout_transaction_id: number | null
  checkout_url: string | null
  /** times the current attempt found the provider unavailable (its back-off) */
  outage_retries: number
}

const SUBSCRIPTION_COLUMNS = columns<SubscriptionRow>()(
  'id',
  'client_id',
  'license_id',
  'payment_source',
  'payment_method_id',
  'state',
  'cancel_at_period_end',
  'failed_attempts',
  'next_attempt_at',
  'awaiting_period_end',
  'checkout_transaction_id',
  'checkout_url',
  'outage_retries',
)

/**
 * Subscriptions the renewal job must look at: active or past due with their attempt due, or awaiting
 * the customer's authentication past the pay-by date; with `licenseId`, only that license's.
 */
export async function listDueSubscriptions(db: Queryable, now: Date, limit: number, licenseId: number | null = null): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `SELECT id FROM subscriptions WHERE state IN ('active', 'past_due', 'awaiting_authentication') AND next_attempt_at <= $1
        AND ($3::bigint IS NULL OR license_id = $3)
      ORDER BY next_attempt_at, id LIMIT $2`,
    [now, limit, licenseId],
  )
  return rows.map((r) => Number(r.id))
}

export async function lockSubscription(tx: Queryable, id: number): Promise<SubscriptionRow | null> {
  const rows = await tx.query<SubscriptionRow>(`SELECT ${SUBSCRIPTION_COLUMNS()} FROM subscriptions WHERE id = $1 FOR UPDATE`, [id])
  return rows[0] ?? null
}

export async function lockSubscriptionOfLicense(tx: Queryable, licenseId: number): Promise<SubscriptionRow | null> {
  const rows = await tx.query<SubscriptionRow>(`SELECT ${SUBSCRIPTION_COLUMNS()} FROM subscriptions WHERE license_id = $1 FOR UPDATE`, [licenseId])
  return rows[0] ?? null
}

/** A license's subscription with what its renewal reads of the license (product and term), without a lock. */
export async function subscriptionOfLicense(db: Queryable, licenseId: number): Promise<(SubscriptionRow & { product: string; config: LicenseConfig }) | null> {
  const rows = await db.query<SubscriptionRow & { product: string; config: LicenseConfig }>(
    `SELECT ${SUBSCRIPTION_COLUMNS('s')}, l.product, l.config FROM subscriptions s JOIN licenses l ON l.id = s.license_id WHERE s.license_id = $1`,
    [licenseId],
  )
  return rows[0] ?? null
}

/** Whose a subscription is, read before taking the locks (the client's comes first, then the license's). */
export async function subscriptionOwner(db: Queryable, id: number): Promise<{ client_id: number; license_id: number; state: SubscriptionState } | null> {
  const rows = await db.query<{ client_id: number; license_id: number; state: SubscriptionState }>(
    'SELECT client_id, license_id, state FROM subscriptions WHERE id = $1',
    [id],
  )
  return rows[0] ?? null
}

/** The provider's reason for a decline, kept on the pending charge for the failed-payment mail. */
export async function setDeclineReason(tx: Queryable, transactionId: number, reason: string) {
  await tx.query('UPDATE transactions SET reason = $2 WHERE id = $1 AND status = 1', [transactionId, reason.slice(0, 500)])
}

/** What the renewal reads of a license, locked; a revoked one too (it is not renewed). */
export interface RenewalLicense {
  id: number
  client_id: number
  type: string
  product: string
  title: string | null
  config: LicenseConfig
  status: number
  expire_date: Date | null
  revoked: boolean
}

export async function lockRenewalLicense(tx: Queryable, id: number): Promise<RenewalLicense | null> {
  const rows = await tx.query<RenewalLicense>(
    `SELECT id, client_id, type, product, title, config, status, expire_date, revoked_at IS NOT NULL AS revoked FROM licenses WHERE id = $1 FOR UPDATE`,
    [id],
  )
  return rows[0] ?? null
}

export interface ChargeRow {
  id: number
  kind: string
  status: number
  amount_cents: Cents
  provider: string | null
  provider_session_id: string | null
}

export async function findChargeByKey(tx: Queryable, key: string): Promise<ChargeRow | null> {
  const rows = await tx.query<ChargeRow>('SELECT id, kind, status, amount_cents, provider, provider_session_id FROM transactions WHERE charge_key = $1', [key])
  return rows[0] ?? null
}

/**
 * The off-session renewal charge of a subscription still waiting for its provider's answer (at most
 * one a period and attempt); an on-session checkout the customer left open is not one.
 */
export async function pendingRenewalCharge(tx: Queryable, subscriptionId: number): Promise<(ChargeRow & { charge_key: string }) | null> {
  const rows = await tx.query<ChargeRow & { charge_key: string }>(
    `SELECT id, kind, status, amount_cents, provider, provider_session_id, charge_key FROM transactions
      WHERE subscription_id = $1 AND kind = 'renewal' AND status = 1 AND charge_key NOT LIKE '%:on_session:%' ORDER BY id DESC LIMIT 1`,
    [subscriptionId],
  )
  return rows[0] ?? null
}

/**
 * A charge of a subscription's period (renewal, autofill top-up): pending, keyed by its charge key.
 * Null when the key exists already (another run wrote it): the unique index decides who charges.
 */
export async function insertCharge(
  tx: Queryable,
  c: {
    clientId: number
    type: 0 | 1
    kind: string
    amountCents: Cents
    description: string
    lines: { description: string; quantity: number; amount_cents: Cents }[]
    paymentSource: string
    paymentMethod: string | null
    subscriptionId: number
    licenseId: number
    chargeKey: string
  },
): Promise<number | null> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO transactions (client_id, type, status, amount_cents, kind, description, lines, payment_source, payment_method,
                               subscription_id, license_id, charge_key)
     VALUES ($1, $2, 1, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (charge_key) WHERE charge_key IS NOT NULL DO NOTHING RETURNING id`,
    [
      c.clientId,
      c.type,
      c.amountCents,
      c.kind,
      c.description,
      JSON.stringify(c.lines),
      c.paymentSource,
      c.paymentMethod,
      c.subscriptionId,
      c.licenseId,
      c.chargeKey,
    ],
  )
  return rows[0] ? Number(rows[0].id) : null
}

/** Ties a checkout's transaction (a reactivation, an on-session renewal with its charge key) to its subscription and license. */
export async function linkTransaction(tx: Queryable, transactionId: number, subscriptionId: number, licenseId: number, chargeKey: string | null = null) {
  await tx.query('UPDATE transactions SET subscription_id = $2, license_id = $3, charge_key = COALESCE($4, charge_key) WHERE id = $1', [
    transactionId,
    subscriptionId,
    licenseId,
    chargeKey,
  ])
}

/** What a paid or closed transaction of a subscription is about. */
export async function linksOfTransaction(tx: Queryable, id: number): Promise<{ subscription_id: number | null; charge_key: string | null } | null> {
  const rows = await tx.query<{ subscription_id: number | null; charge_key: string | null }>(
    'SELECT subscription_id, charge_key FROM transactions WHERE id = $1',
    [id],
  )
  return rows[0] ?? null
}

/** A new paid period: the license runs to `end` (status 0), the subscription renews there again. */
export async function extendPeriod(tx: Queryable, s: { subscriptionId: number; licenseId: number; end: Date; keepCancel: boolean }) {
  await tx.query('UPDATE licenses SET expire_date = $2, status = 0 WHERE id = $1', [s.licenseId, s.end])
  await tx.query(
    `UPDATE subscriptions SET state = 'active', failed_attempts = 0, next_attempt_at = $2, outage_retries = 0,
            awaiting_period_end = NULL, checkout_transaction_id = NULL, checkout_url = NULL,
            cancel_at_period_end = cancel_at_period_end AND $3, cancelled_at = CASE WHEN $3 THEN cancelled_at ELSE NULL END, updated_at = now()
      WHERE id = $1`,
    [s.subscriptionId, s.end, s.keepCancel],
  )
}

/** A failed renewal: past due until `next`, or (next null) stopped, with the license's status 1. */
export async function recordFailedRenewal(tx: Queryable, s: { subscriptionId: number; licenseId: number; attempts: number; next: Date | null }) {
  await tx.query(
    `UPDATE subscriptions SET failed_attempts = $2, state = CASE WHEN $3::timestamptz IS NULL THEN 'stopped' ELSE 'past_due' END,
            next_attempt_at = $3, outage_retries = 0, awaiting_period_end = NULL, checkout_transaction_id = NULL, checkout_url = NULL,
            updated_at = now() WHERE id = $1`,
    [s.subscriptionId, s.attempts, s.next],
  )
  if (s.next === null) await tx.query('UPDATE licenses SET status = 1 WHERE id = $1', [s.licenseId])
}

/**
 * The card asked for the customer's authentication: no more off-session charges for the period; the
 * customer pays it on-session by `payBy`, and the license runs until then.
 */
export async function awaitAuthentication(tx: Queryable, s: { subscriptionId: number; licenseId: number; periodEnd: Date; payBy: Date }) {
  await tx.query(
    `UPDATE subscriptions SET state = 'awaiting_authentication', next_attempt_at = $2, awaiting_period_end = $3, outage_retries = 0,
            checkout_transaction_id = NULL, checkout_url = NULL, updated_at = now() WHERE id = $1`,
    [s.subscriptionId, s.payBy, s.periodEnd],
  )
  await tx.query('UPDATE licenses SET expire_date = GREATEST(expire_date, $2) WHERE id = $1', [s.licenseId, s.payBy])
}

/** The provider was unavailable for the due attempt: asked again at `next` (its back-off), one retry more counted. */
export async function deferAfterOutage(tx: Queryable, subscriptionId: number, next: Date) {
  await tx.query(
    `UPDATE subscriptions SET outage_retries = outage_retries + 1, next_attempt_at = $2, updated_at = now()
      WHERE id = $1 AND state IN ('active', 'past_due')`,
    [subscriptionId, next],
  )
}

/** The on-session checkout of an awaiting renewal as it stands: its transaction's status and expiry. */
export interface CurrentCheckout {
  transaction_id: number
  status: number
  amount_cents: Cents
  expires_at: Date | null
  created_at: Date
  provider: string | null
  provider_session_id: string | null
}

export async function currentCheckout(tx: Queryable, transactionId: number): Promise<CurrentCheckout | null> {
  const rows = await tx.query<CurrentCheckout>(
    'SELECT id AS transaction_id, status, amount_cents, expires_at, created_at, provider, provider_session_id FROM transactions WHERE id = $1',
    [transactionId],
  )
  return rows[0] ?? null
}

/**
 * Claims the awaiting renewal's on-session checkout for `transactionId`, when the subscription still
 * awaits and its checkout is still `seen` (null: none): false when another request claimed it first.
 */
export async function claimCheckout(tx: Queryable, subscriptionId: number, transactionId: number, seen: number | null): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE subscriptions SET checkout_transaction_id = $2, checkout_url = NULL, updated_at = now()
      WHERE id = $1 AND state = 'awaiting_authentication' AND checkout_transaction_id IS NOT DISTINCT FROM $3::bigint RETURNING id`,
    [subscriptionId, transactionId, seen],
  )
  return rows.length === 1
}

/** Where the customer pays the claimed checkout, once the provider opened it. */
export async function setCheckoutUrl(tx: Queryable, transactionId: number, url: string) {
  await tx.query('UPDATE subscriptions SET checkout_url = $2 WHERE checkout_transaction_id = $1', [transactionId, url])
}

/** The claim of an awaiting renewal's checkout, read without a lock (a request waiting for another's checkout). */
export async function checkoutClaim(
  db: Queryable,
  subscriptionId: number,
): Promise<{ checkout_transaction_id: number | null; checkout_url: string | null } | null> {
  const rows = await db.query<{ checkout_transaction_id: number | null; checkout_url: string | null }>(
    'SELECT checkout_transaction_id, checkout_url FROM subscriptions WHERE id = $1',
    [subscriptionId],
  )
  return rows[0] ?? null
}

/** Cancelled (or no longer renewable) and its period is over: it ends and is not charged again. */
export async function endSubscription(tx: Queryable, id: number) {
  await tx.query(`UPDATE subscriptions SET state = 'ended', next_attempt_at = NULL, updated_at = now() WHERE id = $1`, [id])
}

export async function setCancelAtPeriodEnd(tx: Queryable, id: number, cancel: boolean, now: Date) {
  await tx.query(
    `UPDATE subscriptions SET cancel_at_period_end = $2, cancelled_at = CASE WHEN $2 THEN $3::timestamptz ELSE NULL END, updated_at = now() WHERE id = $1`,
    [id, cancel, now],
  )
}

/** A reactivation by another way of paying: the subscription renews by it from now on. */
export async function setSubscriptionPayment(tx: Queryable, id: number, source: Source, methodId: number | null) {
  await tx.query('UPDATE subscriptions SET payment_source = $2, payment_method_id = $3, updated_at = now() WHERE id = $1', [id, source, methodId])
}

/** What the license shows of how it is paid (card brand and last four, or the PayPal e-mail). */
export async function setLicensePaymentShown(tx: Queryable, licenseId: number, m: Pick<PaymentMethodRow, 'card_brand' | 'card_last4' | 'paypal_email'> | null) {
  await tx.query('UPDATE licenses SET card_brand = $2, card_last4 = $3, paypal_email = $4 WHERE id = $1', [
    licenseId,
    m?.card_brand ?? null,
    m?.card_last4 ?? null,
    m?.paypal_email ?? null,
  ])
}

const METHOD_COLUMNS = 'id, client_id, provider, source, token, customer_ref, card_brand, card_last4, paypal_email'

export async function paymentMethodById(tx: Queryable, id: number): Promise<PaymentMethodRow | null> {
  const rows = await tx.query<PaymentMethodRow>(`SELECT ${METHOD_COLUMNS} FROM payment_methods WHERE id = $1`, [id])
  return rows[0] ?? null
}

/** The client's latest saved card (balance_autofill tops up from it). */
export async function latestCard(tx: Queryable, clientId: number): Promise<PaymentMethodRow | null> {
  const rows = await tx.query<PaymentMethodRow>(
    `SELECT ${METHOD_COLUMNS} FROM payment_methods WHERE client_id = $1 AND source = 'stripe' ORDER BY id DESC LIMIT 1`,
    [clientId],
  )
  return rows[0] ?? null
}

export interface ExpiringLicense {
  id: number
  client_id: number
  type: string
  product: string
  title: string | null
  expire_date: Date
  email: string
}

/**
 * Licenses ending between now and `until` that will not renew and were not warned of this end:
 * no subscription, or one that is cancelled, ended or stopped, or a paused license's.
 */
export async function listExpiringUnwarned(db: Queryable, now: Date, until: Date, limit: number): Promise<ExpiringLicense[]> {
  return db.query<ExpiringLicense>(
    `SELECT l.id, l.client_id, l.type, l.product, l.title, l.expire_date, c.email
       FROM licenses l JOIN clients c ON c.id = l.client_id
       LEFT JOIN subscriptions s ON s.license_id = l.id
      WHERE l.revoked_at IS NULL AND l.expire_date > $1 AND l.expire_date <= $2 AND l.status = 0
        AND l.expiry_warned_for IS DISTINCT FROM l.expire_date
        AND NOT (s.id IS NOT NULL AND s.state IN ('active', 'past_due', 'awaiting_authentication') AND NOT s.cancel_at_period_end
                 AND COALESCE((l.config->>'paused')::boolean, false) = false)
      ORDER BY l.expire_date, l.id LIMIT $3`,
    [now, until, limit],
  )
}

/** Marks the warning of this end sent; false when it was (another run, another process). */
export async function claimExpiryWarning(tx: Queryable, licenseId: number, end: Date): Promise<boolean> {
  const rows = await tx.query('UPDATE licenses SET expiry_warned_for = $2 WHERE id = $1 AND expiry_warned_for IS DISTINCT FROM $2 RETURNING id', [
    licenseId,
    end,
  ])
  return rows.length > 0
}

/** Subscriptions by state: a count of the whole table. */
export async function subscriptionFigures(db: Queryable) {
  return db.query<{ state: string; n: number }>('SELECT state, count(*)::int AS n FROM subscriptions GROUP BY state')
}

/**
 * The subscriptions whose renewal (or retry) is due now and not yet charged: read from the due
 * index (subscriptions_due_idx), so its cost is the due rows', not the table's.
 */
export async function dueRenewalCount(db: Queryable): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM subscriptions WHERE state IN ('active', 'past_due') AND next_attempt_at <= now()`)
  return row!.n
}
