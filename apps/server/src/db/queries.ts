import type { Queryable } from './db.ts'

/** The bookkeeping of the migration runner: which checked-in files have been applied. */

export async function lockMigrations(tx: Queryable) {
  // two servers starting at once on one PostgreSQL: one migrates, the other waits
  await tx.query('SELECT pg_advisory_xact_lock(7245001)')
}

export async function appliedMigrations(tx: Queryable): Promise<Set<string>> {
  return new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name))
}

export async function recordMigration(tx: Queryable, name: string) {
  await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name])
}
