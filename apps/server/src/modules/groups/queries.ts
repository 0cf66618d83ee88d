import { platformOfProduct, type LicenseConfig } from '@portal/domain'
import { columns, type Queryable } from '../../db/db.ts'

/** A row of license_groups: capacity a client holds (a product's default group, a group key split from it, a staff order's own group). */
export interface GroupRecord {
  id: number
  client_id: number
  type: string
  product: string
  os_type: number | null
  title: string | null
  is_default: boolean
  is_fake: boolean
  available: number
  holded_limit: number
  config: LicenseConfig
  token: string
  months: number | null
  source_group_id: number | null
  created_at: Date
  /** under an upgrade: holded_limit of its licenses are on hold until then */
  held_until: Date | null
}

/** A group row with the count of its live licenses (0 where a locking read skips the count). */
export interface GroupRow extends GroupRecord {
  used_licenses: number
}

const GROUP_COLUMNS = columns<GroupRecord>()(
  'id',
  'client_id',
  'type',
  'product',
  'os_type',
  'title',
  'is_default',
  'is_fake',
  'available',
  'holded_limit',
  'config',
  'token',
  'months',
  'source_group_id',
  'created_at',
  'held_until',
)

const GROUP_SELECT = `
  SELECT ${GROUP_COLUMNS('g')}, (SELECT count(*)::int FROM licenses l WHERE l.group_id = g.id AND l.revoked_at IS NULL) AS used_licenses
    FROM license_groups g`

export async function listGroups(db: Queryable, clientId: number): Promise<GroupRow[]> {
  return db.query<GroupRow>(`${GROUP_SELECT} WHERE g.client_id = $1 ORDER BY g.id`, [clientId])
}

export async function findGroup(db: Queryable, clientId: number, id: number, lock = false): Promise<GroupRow | null> {
  const rows = lock
    ? await db.query<GroupRow>(`SELECT ${GROUP_COLUMNS('g')}, 0 AS used_licenses FROM license_groups g WHERE g.id = $1 AND g.client_id = $2 FOR UPDATE`, [
        id,
        clientId,
      ])
    : await db.query<GroupRow>(`${GROUP_SELECT} WHERE g.id = $1 AND g.client_id = $2`, [id, clientId])
  return rows[0] ?? null
}

/** A staff order's own group (not default, no source): its config is the custom license's. */
export async function insertCustomGroup(
  db: Queryable,
  g: { clientId: number; product: string; title: string; count: number; config: LicenseConfig; token: string },
) {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO license_groups (client_id, type, product, os_type, title, is_default, available, config, token)
     VALUES ($1, $2, $3, NULL, $4, false, $5, $6, $7) RETURNING id`,
    [g.clientId, platformOfProduct(g.product), g.product, g.title, g.count, JSON.stringify(g.config), g.token],
  )
  return rows[0]!.id
}

export async function setGroupTitle(tx: Queryable, id: number, title: string) {
  await tx.query('UPDATE license_groups SET title = $2, updated_at = now() WHERE id = $1', [id, title])
}

/** Adds `delta` (negative to take) to a group's available licenses. */
export async function addAvailable(tx: Queryable, groupId: number, delta: number) {
  await tx.query('UPDATE license_groups SET available = available + $2, updated_at = now() WHERE id = $1', [groupId, delta])
}

export async function setAvailable(tx: Queryable, groupId: number, available: number) {
  await tx.query('UPDATE license_groups SET available = $2, updated_at = now() WHERE id = $1', [groupId, available])
}

/** A group key split from a source group: same product, os_type, term and config. */
export async function insertGroupKey(
  tx: Queryable,
  clientId: number,
  source: Pick<GroupRow, 'id' | 'type' | 'product' | 'os_type' | 'months' | 'config'>,
  title: string,
  available: number,
  token: string,
): Promise<number> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO license_groups (client_id, type, product, os_type, months, title, is_default, available, config, token, source_group_id)
     VALUES ($1, $2, $3, $4, $5, $6, false, $7, $8, $9, $10) RETURNING id`,
    [clientId, source.type, source.product, source.os_type, source.months, title, available, JSON.stringify(source.config), token, source.id],
  )
  return rows[0]!.id
}

/**
 * Adds `count` to the client's default group of (product, os_type, months), creating it when
 * missing; the upsert on the partial unique index makes parallel fulfilments add up.
 */
export async function upsertDefaultGroup(
  tx: Queryable,
  g: { clientId: number; type: string; product: string; osType: number | null; months: number | null; count: number; config: LicenseConfig; token: string },
): Promise<{ id: number; available: number }> {
  const rows = await tx.query<{ id: number; available: number }>(
    `INSERT INTO license_groups (client_id, type, product, os_type, months, is_default, available, config, token)
     VALUES ($1, $2, $3, $4, $5, true, $6, $7, $8)
     ON CONFLICT (client_id, product, COALESCE(os_type, -1), COALESCE(months, 0)) WHERE is_default
     DO UPDATE SET available = license_groups.available + EXCLUDED.available, updated_at = now()
     RETURNING id, available`,
    [g.clientId, g.type, g.product, g.osType, g.months, g.count, JSON.stringify(g.config), g.token],
  )
  return rows[0]!
}

type PaidBy = 'balance' | 'stripe' | 'paypal'

/** How a group's capacity was paid (the latest order that filled it): its subscription licenses renew so. */
export async function setGroupPayment(tx: Queryable, groupId: number, source: PaidBy, methodId: number | null) {
  await tx.query('UPDATE license_groups SET payment_source = $2, payment_method_id = $3, updated_at = now() WHERE id = $1', [groupId, source, methodId])
}

export async function groupPayment(tx: Queryable, groupId: number): Promise<{ payment_source: PaidBy | null; payment_method_id: number | null }> {
  const rows = await tx.query<{ payment_source: PaidBy | null; payment_method_id: number | null }>(
    'SELECT payment_source, payment_method_id FROM license_groups WHERE id = $1',
    [groupId],
  )
  return rows[0] ?? { payment_source: null, payment_method_id: null }
}

// ---- purchase capacity: which purchase paid for which units of a group ----

/**
 * Records that a purchase put `count` units into a group (its delivery, or units moved in from
 * another group); a second line of one order into the same group adds up.
 */
export async function addPurchaseCapacity(tx: Queryable, c: { transactionId: number; clientId: number; groupId: number; count: number }) {
  if (c.count < 1) return
  await tx.query(
    `INSERT INTO purchase_capacity (transaction_id, client_id, group_id, count) VALUES ($1, $2, $3, $4)
     ON CONFLICT (transaction_id, group_id) DO UPDATE SET count = purchase_capacity.count + EXCLUDED.count`,
    [c.transactionId, c.clientId, c.groupId, c.count],
  )
}

/** A group's purchase rows that still hold ungenerated units (oldest first), locked: `left` is count less live licenses. */
async function lockCapacityLeft(tx: Queryable, groupId: number): Promise<{ id: number; transaction_id: number; left: number }[]> {
  const rows = await tx.query<{ id: string | number; transaction_id: string | number; count: number }>(
    'SELECT id, transaction_id, count FROM purchase_capacity WHERE group_id = $1 AND taken_by_credit_note IS NULL ORDER BY id FOR UPDATE',
    [groupId],
  )
  if (rows.length === 0) return []
  const used = await tx.query<{ id: string | number; n: number }>(
    `SELECT purchase_capacity_id AS id, count(*)::int AS n FROM licenses
      WHERE purchase_capacity_id = ANY($1::bigint[]) AND revoked_at IS NULL GROUP BY purchase_capacity_id`,
    [rows.map((r) => Number(r.id))],
  )
  const usedBy = new Map(used.map((u) => [Number(u.id), u.n]))
  return rows
    .map((r) => ({ id: Number(r.id), transaction_id: Number(r.transaction_id), left: r.count - (usedBy.get(Number(r.id)) ?? 0) }))
    .filter((r) => r.left > 0)
}

/**
 * Which purchases' units `n` units leaving a group (of `available` units now) are: capacity that
 * names no purchase goes first (it is older: made before purchases were recorded, or a staff
 * order's), then the purchases' in the order they were recorded. Runs under the group's lock.
 */
async function claim(tx: Queryable, groupId: number, available: number, n: number) {
  const rows = await lockCapacityLeft(tx, groupId)
  const unnamed = Math.max(0, available - rows.reduce((sum, r) => sum + r.left, 0))
  let wanted = n - Math.min(unnamed, n)
  const taken: { id: number; transaction_id: number; n: number }[] = []
  for (const r of rows) {
    if (wanted === 0) break
    const k = Math.min(r.left, wanted)
    taken.push({ id: r.id, transaction_id: r.transaction_id, n: k })
    wanted -= k
  }
  return taken
}

/** The purchase whose capacity a license generated now from the group (of `available` units) uses, or null when it names none. */
export async function capacityForNewLicense(tx: Queryable, groupId: number, available: number): Promise<number | null> {
  return (await claim(tx, groupId, available, 1))[0]?.id ?? null
}

/**
 * `n` units move from one group (of `available` units now) to another (a group key split off, a
 * resize, an upgrade's move to AI): the purchases they are keep them, in the group they went to.
 */
export async function moveCapacity(tx: Queryable, c: { clientId: number; fromGroupId: number; available: number; toGroupId: number; n: number }) {
  if (c.n < 1) return
  for (const part of await claim(tx, c.fromGroupId, c.available, c.n)) {
    await tx.query('UPDATE purchase_capacity SET count = count - $2 WHERE id = $1', [part.id, part.n])
    await addPurchaseCapacity(tx, { transactionId: part.transaction_id, clientId: c.clientId, groupId: c.toGroupId, count: part.n })
  }
}

/**
 * A refund or a lost dispute of a whole payment: the ungenerated rest of each group's units the
 * transaction paid for leaves its group (never below zero), recorded under the credit note so a
 * dispute won gives it back. Answers how many units were taken, and whether the transaction
 * recorded any capacity (a purchase paid before purchases were recorded did not). Locks each group,
 * then its rows.
 */
export async function takePurchaseCapacity(tx: Queryable, transactionId: number, creditNoteId: number): Promise<{ recorded: boolean; taken: number }> {
  const groups = await tx.query<{ group_id: string | number }>(
    'SELECT DISTINCT group_id FROM purchase_capacity WHERE transaction_id = $1 AND taken_by_credit_note IS NULL ORDER BY group_id',
    [transactionId],
  )
  let total = 0
  for (const { group_id } of groups) {
    const groupId = Number(group_id)
    const [group] = await tx.query<{ available: number }>('SELECT available FROM license_groups WHERE id = $1 FOR UPDATE', [groupId])
    const row = (await lockCapacityLeft(tx, groupId)).find((r) => r.transaction_id === transactionId)
    const n = Math.min(row?.left ?? 0, group?.available ?? 0)
    await tx.query(
      'UPDATE purchase_capacity SET taken = $3, taken_by_credit_note = $4 WHERE transaction_id = $1 AND group_id = $2 AND taken_by_credit_note IS NULL',
      [transactionId, groupId, n, creditNoteId],
    )
    if (n > 0) await addAvailable(tx, groupId, -n)
    total += n
  }
  return { recorded: groups.length > 0, taken: total }
}

/** A dispute won: the units its credit note took go back to their groups (each group locked first, as taking them). Answers how many. */
export async function givePurchaseCapacityBack(tx: Queryable, creditNoteId: number): Promise<number> {
  const groups = await tx.query<{ group_id: string | number }>(
    'SELECT DISTINCT group_id FROM purchase_capacity WHERE taken_by_credit_note = $1 ORDER BY group_id',
    [creditNoteId],
  )
  let total = 0
  for (const { group_id } of groups) {
    const groupId = Number(group_id)
    await tx.query('SELECT id FROM license_groups WHERE id = $1 FOR UPDATE', [groupId])
    const [row] = await tx.query<{ taken: number }>(
      `WITH was AS (SELECT id, taken FROM purchase_capacity WHERE taken_by_credit_note = $1 AND group_id = $2 FOR UPDATE)
       UPDATE purchase_capacity p SET taken = 0, taken_by_credit_note = NULL FROM was WHERE p.id = was.id RETURNING was.taken`,
      [creditNoteId, groupId],
    )
    const n = row?.taken ?? 0
    if (n > 0) await addAvailable(tx, groupId, n)
    total += n
  }
  return total
}
