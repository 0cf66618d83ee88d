import type { Queryable } from '../db/db.ts'

/** The SQL of the platform's own tables: sessions (lookup), rate limits, captchas, mail, jobs. */

export interface SessionClientRow {
  id: number
  is_staff: boolean
}

/** The client of a live session, by the hash of its id. */
export async function findSessionClient(db: Queryable, idHash: string): Promise<SessionClientRow | null> {
  const rows = await db.query<SessionClientRow>(
    `SELECT c.id, c.is_staff FROM sessions s JOIN clients c ON c.id = s.client_id
      WHERE s.id_hash = $1 AND s.expires_at > now()`,
    [idHash],
  )
  return rows[0] ?? null
}
