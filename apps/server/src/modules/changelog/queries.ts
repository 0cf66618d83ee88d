import type { ChangelogEntry } from '@portal/domain'
import type { Queryable } from '../../db/db.ts'

export async function listChangelog(db: Queryable): Promise<ChangelogEntry[]> {
  const rows = await db.query<{ version: string; released: Date | string; changes: string[] }>(
    'SELECT version, released, changes FROM changelog ORDER BY released DESC, version DESC',
  )
  return rows.map((r) => ({
    version: r.version,
    date: (r.released instanceof Date ? r.released.toISOString() : String(r.released)).slice(0, 10),
    changes: r.changes,
  }))
}

/** A release in the notes; false when its version is there already (nothing changes). */
export async function insertChangelogEntry(db: Queryable, e: { version: string; date: string; changes: string[] }): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO changelog (version, released, changes) VALUES ($1, $2, $3::jsonb) ON CONFLICT (version) DO NOTHING RETURNING version`,
    [e.version, e.date, JSON.stringify(e.changes)],
  )
  return rows.length === 1
}
