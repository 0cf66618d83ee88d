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
