import {
  renewalPriceCents,
  type Activation,
  type SubscriptionState,
  type LicenseConfig,
  LICENSE_STATES,
  SUBSCRIPTION_PRODUCTS,
  platformProductSpec,
  productFilterSpec,
  productFilterValues,
  productKind,
  productMatches,
  type LicenseCounts,
  type LicensePageRequest,
  type Platform,
  type ProductFilterSpec,
  type TimeSpan,
  ALWAYS,
} from '@portal/domain'
import { columns, type Queryable } from '../../db/db.ts'
import { SESSION_CLIENT_SQL, type SessionClientRow } from '../../platform/queries.ts'
import { listPriceRows } from '../catalogue/service.ts'

/** A row of the licenses table, as the services read and lock it. */
export interface LicenseRecord {
  id: number
  client_id: number
  group_id: number | null
  type: string
  product: string
  title: string | null
  config: LicenseConfig
  status: number
  // Dates, or epoch milliseconds where the list reads them (parsing 4,000 Dates costs more than the query)
  held_until: Date | number | null
  created_at: Date | number
  expire_date: Date | number | null
  activation_date: Date | number | null
  token: string
  locked_to: string | null
  data: string | null
  card_brand: string | null
  card_last4: string | null
  paypal_email: string | null
  is_fake: boolean
  price_cents: number | null
  group_key_used: boolean
  /** a paused cloud license: since when; and when the erasure sweep erased its workspace data */
  paused_at: Date | number | null
  data_erased_at: Date | number | null
  /** suspended because its payment was refunded or disputed: the reason (modules/billing) */
  suspended_reason: string | null
}

export const LICENSE_COLUMNS = columns<LicenseRecord>()(
  'id',
  'client_id',
  'group_id',
  'type',
  'product',
  'title',
  'config',
  'status',
  'held_until',
  'created_at',
  'expire_date',
  'activation_date',
  'token',
  'locked_to',
  'data',
  'card_brand',
  'card_last4',
  'paypal_email',
  'is_fake',
  'price_cents',
  'group_key_used',
  'paused_at',
  'data_erased_at',
  'suspended_reason',
)

/** A license as the views read it: the row, its group's facts and its live devices. */
export interface LicenseRow extends LicenseRecord {
  /** joined: the group's title and whether the group is a custom (non-default) one */
  group_title: string | null
  group_product: string | null
  group_is_default: boolean | null
  /** the joined group's source: set for a group key */
  group_source_id: number | null
  activations: Activation[] | null
  /** joined: the license's subscription (null columns without one) and the payment method it renews with */
  sub_id: number | null
  sub_state: SubscriptionState | null
  sub_payment_source: 'balance' | 'stripe' | 'paypal' | null
  sub_cancel_at_period_end: boolean | null
  sub_failed_attempts: number | null
  sub_next_attempt_at: Date | number | null
  pm_source: 'stripe' | 'paypal' | null
  pm_card_brand: string | null
  pm_card_last4: string | null
  pm_paypal_email: string | null
  /** what the next renewal charges, from the price table (set by the query functions for a subscription) */
  renewal_price_cents?: number | null
}

const EPOCH_MS = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`

// Active devices of a license as JSON, so a list is one query however many licenses it holds.
const ACTIVATIONS_SQL = `COALESCE((
  SELECT json_agg(json_build_object(
           'id', d.id, 'kind', d.kind, 'name', d.name,
           'signature_properties', json_build_object('serial', d.serial, 'sensor_name', d.sensor_name, 'reg', d.reg),
           'fingerprint', d.fingerprint,
           'first_seen', d.first_seen, 'last_seen', d.last_seen) ORDER BY d.id)
    FROM devices d WHERE d.license_id = l.id AND d.released_at IS NULL), '[]'::json)`

// the subscription of a license and the payment method it renews with: one join, no query per license
const SUBSCRIPTION_SELECT = (time: (column: string) => string) => `
  s.id AS sub_id, s.state AS sub_state, s.payment_source AS sub_payment_source, s.cancel_at_period_end AS sub_cancel_at_period_end,
  s.failed_attempts AS sub_failed_attempts, ${time('s.next_attempt_at')} AS sub_next_attempt_at,
  pm.source AS pm_source, pm.card_brand AS pm_card_brand, pm.card_last4 AS pm_card_last4, pm.paypal_email AS pm_paypal_email`
const SUBSCRIPTION_JOIN = `LEFT JOIN subscriptions s ON s.license_id = l.id LEFT JOIN payment_methods pm ON pm.id = s.payment_method_id`

const LICENSE_SELECT = `
  SELECT ${LICENSE_COLUMNS('l')}, g.title AS group_title, g.product AS group_product, g.is_default AS group_is_default, g.source_group_id AS group_source_id,
         ${ACTIVATIONS_SQL} AS activations, ${SUBSCRIPTION_SELECT((c) => c)}
    FROM licenses l LEFT JOIN license_groups g ON g.id = l.group_id ${SUBSCRIPTION_JOIN}`

/** The renewal price of each row with a subscription, from the price table (read once, and only when needed). */
async function withRenewalPrices<R extends LicenseRow>(db: Queryable, rows: R[]): Promise<R[]> {
  if (!rows.some((r) => r.sub_id !== null)) return rows
  const prices = await listPriceRows(db)
  for (const r of rows) r.renewal_price_cents = r.sub_id === null ? null : renewalPriceCents(r, prices)
  return rows
}

/** Collects the parameters of a query built from parts, answering each one's placeholder. */
class Params {
  readonly values: unknown[] = []
  add(v: unknown): string {
    this.values.push(v)
    return `$${this.values.length}`
  }
}

/** A platform's or a product filter's codes as a condition on l.product (ProductFilterSpec, see packages/domain). */
function productCondition(spec: ProductFilterSpec, p: Params, alias = 'l'): string {
  const l = alias
  switch (spec.kind) {
    case 'all':
      return 'true'
    case 'in':
      return `${l}.product = ANY(${p.add(spec.products)}::text[])`
    case 'not_in':
      return `NOT (${l}.product = ANY(${p.add(spec.products)}::text[]))`
    case 'trial':
      // isTrial: a trial product, or a tag (not empty) on a license not upgraded
      return `(${l}.product = ANY(${p.add(spec.trialProducts)}::text[])
               OR (COALESCE(${l}.config->>'tag', '') <> '' AND ${l}.config->'upgraded' IS DISTINCT FROM 'true'::jsonb))`
  }
}

/**
 * licenseState (packages/domain) in SQL at the business time `now`: on hold while held_until is
 * ahead; suspended once expired or stopped; paused for a paused subscription; active once activated
 * (a live device, a used group key or an activation date); else new. The paging tests hold the two
 * equal for every state.
 *
 * The live device is looked up per license (an index probe) by a scalar subquery, not EXISTS: the
 * planner may run an EXISTS in an expression as a hashed subplan, which reads every live device of
 * every client to answer for one client's rows, a cost that grows with the table
 * (docs/benchmarks.md, Scale).
 */
function stateSql(p: Params, now: Date): string {
  const at = p.add(now)
  return `CASE WHEN l.held_until > ${at}::timestamptz THEN 'holded'
               WHEN l.expire_date <= ${at}::timestamptz OR l.status = 1 THEN 'suspended'
               WHEN l.config->'paused' = 'true'::jsonb AND l.product = ANY(${p.add(SUBSCRIPTION_PRODUCTS)}::text[]) THEN 'paused'
               WHEN l.activation_date IS NOT NULL OR l.group_key_used
                    OR (SELECT true FROM devices d WHERE d.license_id = l.id AND d.released_at IS NULL LIMIT 1) THEN 'active'
               ELSE 'new' END`
}

/** Which of a client's licenses a list reads: one platform's, and a page of one product filter and state. */
export interface LicenseListFilter {
  platform: Platform | null
  page?: LicensePageRequest
  /** one group's licenses, or (`keys`) those made from the client's group keys */
  group?: number | 'keys'
  /** without a page: at most this many, the newest */
  cap?: number
  /** business time: the state a page filters on is derived at it */
  now: Date
}

type DeviceRow = {
  id: number
  license_id: number
  kind: string
  name: string | null
  serial: string | null
  sensor_name: string | null
  reg: string | null
  fingerprint: string | null
  first_seen: number
  last_seen: number | null
}

/**
 * A client's licenses with their devices: two plain queries joined in memory, which is several
 * times cheaper for a thousand licenses than building JSON per row in the database. A page reads
 * its rows first and then the devices of those rows only.
 */
export async function listLicenses(db: Queryable, clientId: number, filter?: LicenseListFilter): Promise<LicenseRow[]> {
  const p = new Params()
  const where = [`l.client_id = ${p.add(clientId)}`, 'l.revoked_at IS NULL']
  if (filter?.platform) where.push(productCondition(platformProductSpec(filter.platform), p))
  if (filter?.group === 'keys')
    where.push(`l.group_id IN (SELECT g.id FROM license_groups g WHERE g.client_id = ${p.add(clientId)} AND g.source_group_id IS NOT NULL)`)
  else if (filter?.group !== undefined) where.push(`l.group_id = ${p.add(filter.group)}`)
  const page = filter?.page
  if (page) {
    where.push(productCondition(productFilterSpec(page.product), p))
    if (page.status !== 'all') where.push(`(${stateSql(p, filter.now)}) = ${p.add(page.status)}`)
  }
  const order = page?.sort === 'id' ? 'ASC' : 'DESC'
  // a page picks its ids first (a narrow sort of the client's rows, read from the client's index),
  // then reads and joins those rows only; its devices are read beside it by the same ids, so neither
  // waits for the other. The client's rows are read first (MATERIALIZED) and then sorted: left to
  // itself the planner may walk the whole table's primary key backwards for the newest ids, which
  // reads every newer license of every other client before an older customer's first
  // (docs/benchmarks.md, Scale)
  const limit = page?.limit ?? filter?.cap
  const picked =
    limit !== undefined
      ? `ARRAY(WITH mine AS MATERIALIZED (SELECT l.id FROM licenses l WHERE ${where.join(' AND ')})
               SELECT id FROM mine ORDER BY id ${order} LIMIT ${p.add(limit)} OFFSET ${p.add(page?.offset ?? 0)})`
      : null
  const rowsQuery = db.query<LicenseRow>(
    `SELECT l.id, l.client_id, l.group_id, l.type, l.product, l.title, l.config, l.status, l.token, l.locked_to, l.data,
            l.card_brand, l.card_last4, l.paypal_email, l.is_fake, l.price_cents, l.group_key_used, l.suspended_reason,
            ${EPOCH_MS('l.held_until')} AS held_until, ${EPOCH_MS('l.created_at')} AS created_at,
            ${EPOCH_MS('l.expire_date')} AS expire_date, ${EPOCH_MS('l.activation_date')} AS activation_date,
            ${EPOCH_MS('l.paused_at')} AS paused_at, ${EPOCH_MS('l.data_erased_at')} AS data_erased_at,
            g.title AS group_title, g.product AS group_product, g.is_default AS group_is_default, g.source_group_id AS group_source_id,
            ${SUBSCRIPTION_SELECT(EPOCH_MS)}
       FROM licenses l LEFT JOIN license_groups g ON g.id = l.group_id ${SUBSCRIPTION_JOIN}
      WHERE ${picked ? `l.id = ANY(${picked})` : where.join(' AND ')} ORDER BY l.id ${order}`,
    p.values,
  )
  const DEVICE_SELECT = `SELECT d.id, d.license_id, d.kind, d.name, d.serial, d.sensor_name, d.reg, d.fingerprint,
              ${EPOCH_MS('d.first_seen')} AS first_seen, ${EPOCH_MS('d.last_seen')} AS last_seen`
  const [rows, devices] = await Promise.all([
    rowsQuery,
    picked
      ? db.query<DeviceRow>(`${DEVICE_SELECT} FROM devices d WHERE d.license_id = ANY(${picked}) AND d.released_at IS NULL ORDER BY d.id`, p.values)
      : // the whole list: every live device of the client's live licenses (another platform's too: a few rows more, one query fewer)
        db.query<DeviceRow>(
          `${DEVICE_SELECT} FROM devices d JOIN licenses l ON l.id = d.license_id
            WHERE l.client_id = $1 AND l.revoked_at IS NULL AND d.released_at IS NULL ORDER BY d.id`,
          [clientId],
        ),
  ])
  const byLicense = new Map<number, Activation[]>()
  for (const d of devices) {
    const list = byLicense.get(d.license_id) ?? []
    list.push({
      id: d.id,
      kind: d.kind,
      name: d.name,
      signature_properties: { serial: d.serial, sensor_name: d.sensor_name, reg: d.reg },
      fingerprint: d.fingerprint,
      // epoch numbers here; toLicenseView makes the ISO text once
      first_seen: d.first_seen as unknown as string,
      last_seen: d.last_seen as unknown as string | null,
    })
    byLicense.set(d.license_id, list)
  }
  for (const r of rows) r.activations = byLicense.get(r.id) ?? []
  return withRenewalPrices(db, rows)
}

/** A trial tag on a license not upgraded: the row half of the `trial` product filter (productCondition). */
const TAGGED_SQL = `(COALESCE(l.config->>'tag', '') <> '' AND l.config->'upgraded' IS DISTINCT FROM 'true'::jsonb)`

/**
 * The tabs' and filters' counts of a client's licenses (of one platform), in one query: per state
 * under the product filter, per product filter over every state (LicenseCounts in packages/domain).
 * Also the business-time span in which these states hold: the nearest hold end and expiry on each
 * side of `now` (a count changes only there). The database derives each row's state once and
 * groups the rows by product, state and trial tag (a few groups); the filters are summed here,
 * by the domain's productMatches, which is cheaper than a dozen conditional counts over every row.
 */
export async function countLicenses(
  db: Queryable,
  clientId: number,
  platform: Platform | null,
  product: string,
  now: Date,
): Promise<{ counts: LicenseCounts; span: TimeSpan }> {
  const p = new Params()
  const where = [`l.client_id = ${p.add(clientId)}`, 'l.revoked_at IS NULL']
  if (platform) where.push(productCondition(platformProductSpec(platform), p))
  const at = p.add(now)
  const edges = (['held_until', 'expire_date'] as const).flatMap((c) => [
    `(extract(epoch FROM max(l.${c}) FILTER (WHERE l.${c} <= ${at}::timestamptz)) * 1000)::float8 AS ${c}_before`,
    `(extract(epoch FROM min(l.${c}) FILTER (WHERE l.${c} > ${at}::timestamptz)) * 1000)::float8 AS ${c}_after`,
  ])
  const groups = await db.query<{
    product: string
    state: (typeof LICENSE_STATES)[number]
    tagged: boolean
    n: number
    held_until_before: number | null
    held_until_after: number | null
    expire_date_before: number | null
    expire_date_after: number | null
  }>(
    `SELECT l.product, ${stateSql(p, now)} AS state, ${TAGGED_SQL} AS tagged, count(*)::int AS n, ${edges.join(', ')}
       FROM licenses l WHERE ${where.join(' AND ')}
      GROUP BY 1, 2, 3`,
    p.values,
  )
  const filters = productFilterValues(platform ?? undefined)
  const counts: LicenseCounts = {
    status: Object.fromEntries(LICENSE_STATES.map((s) => [s, 0])) as LicenseCounts['status'],
    product: Object.fromEntries(filters.map((f) => [f, 0])),
  }
  const span = { ...ALWAYS }
  for (const g of groups) {
    // isTrial of the group's rows: a trial product, or a tag not upgraded
    const isTrial = productKind(g.product) === 'trial' || g.tagged
    if (productMatches(product, g.product, isTrial)) counts.status[g.state] += g.n
    for (const f of filters) if (productMatches(f, g.product, isTrial)) counts.product[f]! += g.n
    span.from = Math.max(span.from, g.held_until_before ?? -Infinity, g.expire_date_before ?? -Infinity)
    span.until = Math.min(span.until, g.held_until_after ?? Infinity, g.expire_date_after ?? Infinity)
  }
  return { counts, span }
}

/** The version of a client's license list and of the price table (client 0): what its ETag names. */
const LIST_VERSION_SQL = (client: string) => `COALESCE((SELECT version FROM license_list_versions WHERE client_id = ${client}), 0) || '.' ||
            COALESCE((SELECT version FROM license_list_versions WHERE client_id = 0), 0)`

export async function licenseListVersion(db: Queryable, clientId: number): Promise<string> {
  const [row] = await db.query<{ version: string }>(`SELECT ${LIST_VERSION_SQL('$1')} AS version`, [clientId])
  return row!.version
}

/** A session's client (as platform/queries.ts findSessionClient reads it) with its license list's version. */
export interface SessionWithListVersion extends SessionClientRow {
  list_version: string
}

/**
 * findSessionClient and licenseListVersion in one statement: the license list's session lookup
 * (a SessionLookup), so a repeat fetch answered 304 costs one round trip.
 */
export async function findSessionWithListVersion(db: Queryable, idHash: string): Promise<SessionWithListVersion | null> {
  const rows = await db.query<SessionWithListVersion>(`SELECT x.*, ${LIST_VERSION_SQL('x.id')} AS list_version FROM (${SESSION_CLIENT_SQL}) x`, [idHash])
  return rows[0] ?? null
}

export async function findLicense(db: Queryable, clientId: number, id: number): Promise<LicenseRow | null> {
  const rows = await db.query<LicenseRow>(`${LICENSE_SELECT} WHERE l.id = $1 AND l.client_id = $2 AND l.revoked_at IS NULL`, [id, clientId])
  return (await withRenewalPrices(db, rows))[0] ?? null
}

/** Locks the license row for a state change; scoped to its owner. */
export async function lockLicense(db: Queryable, clientId: number, id: number): Promise<LicenseRecord | null> {
  const rows = await db.query<LicenseRecord>(`SELECT ${LICENSE_COLUMNS()} FROM licenses WHERE id = $1 AND client_id = $2 AND revoked_at IS NULL FOR UPDATE`, [
    id,
    clientId,
  ])
  return rows[0] ?? null
}

/** Licenses a client holds that are neither activated nor expired (the limit of 10). */
export async function countUnactivated(db: Queryable, clientId: number): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM licenses l
      WHERE l.client_id = $1 AND l.revoked_at IS NULL AND l.activation_date IS NULL AND NOT l.group_key_used
        AND (l.expire_date IS NULL OR l.expire_date > now())
        AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.license_id = l.id)`,
    [clientId],
  )
  return rows[0]!.n
}

// ---- writes and checks of the license services (each runs in the caller's transaction) ----

export async function setLicenseTitle(tx: Queryable, clientId: number, id: number, title: string) {
  await tx.query('UPDATE licenses SET title = $3 WHERE id = $1 AND client_id = $2', [id, clientId, title])
}

export async function hasDevices(tx: Queryable, licenseId: number): Promise<boolean> {
  return (await tx.query('SELECT 1 FROM devices WHERE license_id = $1 LIMIT 1', [licenseId])).length > 0
}

/** A revoked license keeps its row (its slot goes back to its group: the service's part). */
export async function revokeLicense(tx: Queryable, id: number) {
  await tx.query('UPDATE licenses SET revoked_at = now() WHERE id = $1', [id])
}

/**
 * Pauses (since `now`, kept when already paused) or resumes a cloud license; a resume clears the pause
 * date and its erasure warning (data_erased_at stays: the view tells the workspace restarted empty).
 */
export async function setLicensePaused(tx: Queryable, id: number, paused: boolean, now: Date = new Date()) {
  await tx.query(
    `UPDATE licenses SET config = config || jsonb_build_object('paused', $2::boolean),
            paused_at = CASE WHEN $2::boolean THEN COALESCE(paused_at, $3::timestamptz) ELSE NULL END,
            erase_warned_at = CASE WHEN $2::boolean THEN erase_warned_at ELSE NULL END
      WHERE id = $1`,
    [id, paused, now],
  )
}

export interface NewLicense {
  clientId: number
  groupId: number
  type: string
  product: string
  title: string | null
  config: LicenseConfig
  token: string
  expiresInSeconds: number | null
  staffId: number | null
  /** business time (ctx.clock) the expiry counts from; the database's now() without it */
  now?: Date
  /** an end fixed elsewhere (a trial's: trialEnd), instead of expiresInSeconds */
  expireAt?: Date | null
  /** the purchase whose capacity it uses (purchase_capacity), when it names one */
  purchaseCapacityId?: number | null
}

export async function insertLicense(tx: Queryable, l: NewLicense): Promise<{ id: number; expire_date: Date | null }> {
  const rows = await tx.query<{ id: number; expire_date: Date | null }>(
    `INSERT INTO licenses (client_id, group_id, type, product, title, config, token, expire_date, created_by_staff, purchase_capacity_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7,
             CASE WHEN $11::timestamptz IS NOT NULL THEN $11::timestamptz
                  WHEN $8::int IS NULL THEN NULL ELSE COALESCE($10::timestamptz, now()) + make_interval(secs => $8::int) END, $9, $12)
     RETURNING id, expire_date`,
    [
      l.clientId,
      l.groupId,
      l.type,
      l.product,
      l.title,
      JSON.stringify(l.config),
      l.token,
      l.expiresInSeconds,
      l.staffId,
      l.now ?? null,
      l.expireAt ?? null,
      l.purchaseCapacityId ?? null,
    ],
  )
  const row = rows[0]!
  return { id: Number(row.id), expire_date: row.expire_date === null ? null : new Date(row.expire_date) }
}

/** Whether the client ever had a license of the product with this trial tag (revoked ones count). */
export async function hadTrial(tx: Queryable, clientId: number, product: string, tag: string | null): Promise<boolean> {
  const rows = await tx.query("SELECT 1 FROM licenses WHERE client_id = $1 AND product = $2 AND config->>'tag' IS NOT DISTINCT FROM $3 LIMIT 1", [
    clientId,
    product,
    tag,
  ])
  return rows.length > 0
}

/**
 * The client's trial of a product and tag so far: when its first license was made, and the ends its
 * licenses were given while still a trial (revoked ones count).
 */
export async function trialHistory(tx: Queryable, clientId: number, product: string, tag: string | null): Promise<{ startedAt: Date | null; ends: Date[] }> {
  const rows = await tx.query<{ started: Date | null; ends: Date[] | null }>(
    `SELECT min(created_at) AS started,
            array_agg(expire_date) FILTER (WHERE expire_date IS NOT NULL AND config->'upgraded' IS DISTINCT FROM 'true'::jsonb) AS ends
       FROM licenses WHERE client_id = $1 AND product = $2 AND config->>'tag' IS NOT DISTINCT FROM $3`,
    [clientId, product, tag],
  )
  const row = rows[0]
  return { startedAt: row?.started ? new Date(row.started) : null, ends: (row?.ends ?? []).map((d) => new Date(d)) }
}

/**
 * `count` licenses of an online product in one statement (the CLI's bulk seeding: one by one is slow
 * on PGlite); nine in ten are marked activated.
 */
export async function insertBulkLicenses(
  tx: Queryable,
  b: { clientId: number; groupId: number; type: string; product: string; count: number; config: LicenseConfig },
): Promise<number[]> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO licenses (client_id, group_id, type, product, config, token, expire_date, activation_date)
     SELECT $1, $2, $5, $6, $4::jsonb,
            'BULK-' || $2::bigint || '-' || g, now() + interval '30 days', CASE WHEN g % 10 = 0 THEN NULL ELSE now() END
       FROM generate_series(1, $3::int) g
     RETURNING id`,
    [b.clientId, b.groupId, b.count, JSON.stringify(b.config), b.type, b.product],
  )
  return rows.map((r) => Number(r.id))
}

// ---- the subscription a license starts with, paid the way its group was ----

type PaidBy = 'balance' | 'stripe' | 'paypal'

/**
 * Starts the subscription of a license: it renews at `periodEnd` (the license's expire_date) the way
 * it was paid. One per license: a second start for the same license changes nothing.
 */
export async function insertSubscription(
  tx: Queryable,
  s: { clientId: number; licenseId: number; source: PaidBy; methodId: number | null; periodEnd: Date | null },
): Promise<number | null> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO subscriptions (client_id, license_id, payment_source, payment_method_id, next_attempt_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (license_id) DO NOTHING RETURNING id`,
    [s.clientId, s.licenseId, s.source, s.methodId, s.periodEnd],
  )
  return rows[0]?.id ?? null
}
