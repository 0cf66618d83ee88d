import pg from 'pg'
import { migrate, postgresDb } from '../db/db.ts'
import { seedCatalogue } from '../modules/catalogue/queries.ts'

// TEST_DB_SUFFIX keeps two checkouts' test runs on one PostgreSQL apart
export const TEMPLATE_DB = `portal_test_template${(process.env.TEST_DB_SUFFIX ?? '').replace(/\W/g, '')}`

/** PostgreSQL runs: one migrated, seeded template database that every worker copies. */
export default async function setup(project: { name: string }) {
  const url = process.env.TEST_DATABASE_URL
  if (!url || !project.name.endsWith('postgres')) return
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`)
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`)
  await admin.end()
  const db = postgresDb(withDatabase(url, TEMPLATE_DB), 2)
  await migrate(db)
  await seedCatalogue(db)
  await db.close()
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}
