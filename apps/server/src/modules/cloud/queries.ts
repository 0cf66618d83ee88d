import type { LicenseConfig } from '@portal/domain'
import type { Queryable } from '../../db/db.ts'

/** A paused cloud trial as the erasure sweep reads it, with its owner's address for the warning. */
export interface ErasureRow {
  id: number
  client_id: number
  email: string
  title: string | null
  type: string
  product: string
  config: LicenseConfig
  paused_at: Date | null
  erase_warned_at: Date | null
  data_erased_at: Date | null
  held_until: Date | null
}

const ERASURE_COLUMNS = `l.id, l.client_id, c.email, l.title, l.type, l.product, l.config, l.paused_at, l.erase_warned_at, l.data_erased_at, l.held_until`

/**
 * Paused trials of the pausable products paused at or before `pausedBefore` whose data this pause
 * has not erased yet (the sweep's candidates; dataEraseDate decides what is due).
 */
export async function listPausedTrials(db: Queryable, products: readonly string[], pausedBefore: Date, limit: number): Promise<ErasureRow[]> {
  return db.query<ErasureRow>(
    `SELECT ${ERASURE_COLUMNS} FROM licenses l JOIN clients c ON c.id = l.client_id
      WHERE l.paused_at IS NOT NULL AND l.paused_at <= $2 AND (l.data_erased_at IS NULL OR l.data_erased_at < l.paused_at)
        AND l.revoked_at IS NULL AND l.product = ANY($1::text[])
        AND l.config->>'tag' IS NOT NULL AND COALESCE((l.config->>'upgraded')::boolean, false) = false
      ORDER BY l.paused_at LIMIT $3`,
    [products, pausedBefore, limit],
  )
}

export async function lockPausedTrial(tx: Queryable, id: number): Promise<ErasureRow | null> {
  const rows = await tx.query<ErasureRow>(`SELECT ${ERASURE_COLUMNS} FROM licenses l JOIN clients c ON c.id = l.client_id WHERE l.id = $1 FOR UPDATE OF l`, [
    id,
  ])
  return rows[0] ?? null
}

export async function markEraseWarned(tx: Queryable, id: number, now: Date) {
  await tx.query('UPDATE licenses SET erase_warned_at = $2 WHERE id = $1', [id, now])
}

/** Erases a workspace: the license file and the devices (released as the erasure's), once. */
export async function eraseWorkspace(tx: Queryable, id: number, now: Date) {
  await tx.query('UPDATE licenses SET data = NULL, data_erased_at = $2 WHERE id = $1', [id, now])
  await tx.query(`UPDATE devices SET released_at = now(), release_kind = 'erasure' WHERE license_id = $1 AND released_at IS NULL`, [id])
}
