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
