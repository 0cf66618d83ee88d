import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { PGlite } from '@electric-sql/pglite'
import type { TestProject } from 'vitest/node'
import { migrate, pgliteOver, postgresDb } from '../db/db.ts'
import { seedCatalogue } from '../modules/catalogue/queries.ts'

// TEST_DB_SUFFIX keeps two checkouts' test runs on one PostgreSQL apart
export const TEMPLATE_DB = `portal_test_template${(process.env.TEST_DB_SUFFIX ?? '').replace(/\W/g, '')}`

declare module 'vitest' {
  export interface ProvidedContext {
    /** the migrated, seeded PGlite data directory every PGlite worker starts from (a dumpDataDir() file) */
    pgliteSnapshot: string
  }
}

/**
 * One migrated, seeded database that every worker copies instead of migrating its own: a template
 * database on PostgreSQL, a data-directory snapshot on PGlite (an empty PGlite's first start,
 * initdb, is most of a worker's start).
 */
export default async function setup(project: TestProject) {
  if (project.name.endsWith('postgres')) return postgresTemplate()
  if (project.name.endsWith('pglite')) {
    const dir = mkdtempSync(join(tmpdir(), 'portal-pglite-snapshot-'))
    const file = join(dir, 'snapshot.tar')
    const lite = await PGlite.create()
    const db = pgliteOver(lite)
    await migrate(db)
    await seedCatalogue(db)
    writeFileSync(file, Buffer.from(await (await lite.dumpDataDir('none')).arrayBuffer()))
    await db.close()
    project.provide('pgliteSnapshot', file)
    return () => rmSync(dir, { recursive: true, force: true })
  }
}

async function postgresTemplate() {
  const url = process.env.TEST_DATABASE_URL
  if (!url) return
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
