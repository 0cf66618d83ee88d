import type { LicenseConfig } from '@portal/domain'
import type { Queryable } from '../../db/db.ts'

/** What an upgrade's transaction pays for: the license or the group it holds (migration 0009). */
export async function setTransactionTarget(tx: Queryable, transactionId: number, target: { licenseId?: number; groupId?: number }) {
  await tx.query('UPDATE transactions SET license_id = $2, group_id = $3 WHERE id = $1', [transactionId, target.licenseId ?? null, target.groupId ?? null])
}

export async function findTransactionTarget(tx: Queryable, transactionId: number): Promise<{ license_id: number | null; group_id: number | null }> {
  const [row] = await tx.query<{ license_id: string | number | null; group_id: string | number | null }>(
    'SELECT license_id, group_id FROM transactions WHERE id = $1',
    [transactionId],
  )
  return { license_id: row?.license_id == null ? null : Number(row.license_id), group_id: row?.group_id == null ? null : Number(row.group_id) }
}

/** Holds a license under an upgrade until `until` (the checkout's expiry). */
export async function holdLicense(tx: Queryable, id: number, until: Date) {
  await tx.query('UPDATE licenses SET held_until = $2 WHERE id = $1', [id, until])
}

/**
 * Ends the hold an upgrade's checkout put on a license: only that checkout's (held_until equal to
 * its expiry), so a late close of an old checkout never ends a newer hold.
 */
export async function endLicenseHold(tx: Queryable, id: number, until: Date) {
  await tx.query('UPDATE licenses SET held_until = NULL WHERE id = $1 AND held_until = $2', [id, until])
}

/** The license takes its new product and config in place: id, token, devices and activation stay. */
export async function upgradeLicenseInPlace(tx: Queryable, id: number, u: { type: string; product: string; config: LicenseConfig; expireDate: Date | null }) {
  await tx.query('UPDATE licenses SET type = $2, product = $3, config = $4, expire_date = $5 WHERE id = $1', [
    id,
    u.type,
    u.product,
    JSON.stringify(u.config),
    u.expireDate,
  ])
}

/** Holds `limit` of a group's available licenses until `until`. */
export async function holdGroup(tx: Queryable, id: number, limit: number, until: Date) {
  await tx.query('UPDATE license_groups SET holded_limit = $2, held_until = $3, updated_at = now() WHERE id = $1', [id, limit, until])
}

/** Ends a group's hold, only the one of the checkout that expires at `until`. */
export async function endGroupHold(tx: Queryable, id: number, until: Date) {
  await tx.query('UPDATE license_groups SET holded_limit = 0, held_until = NULL, updated_at = now() WHERE id = $1 AND held_until = $2', [id, until])
}
