import type { Queryable } from '../../db/db.ts'

/** One round trip that needs nothing but a live connection. */
export async function ping(db: Queryable) {
  await db.query('SELECT 1')
}
