import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { DB_KIND } from '../test/harness.ts'
import { withDatabase } from '../test/global-setup.ts'
import { seedCatalogue } from '../modules/catalogue/queries.ts'
import { DataDirInUse, lockDataDir, migrate, pgliteDb, postgresDb } from './db.ts'

describe.runIf(DB_KIND === 'postgres')('four processes starting at once on one new PostgreSQL database', () => {
  it('migrate once and seed the catalogue once', { timeout: 120_000 }, async () => {
    const url = process.env.TEST_DATABASE_URL!
    const name = `portal_start_${process.pid}`
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${name}`)
    const dbs = Array.from({ length: 4 }, () => postgresDb(withDatabase(url, name), 2))
    try {
      // each as the server's start does it, on connections of its own (the bare CREATE TABLE IF NOT
      // EXISTS of the migration table, run outside the lock, failed here with a duplicate type)
      const applied = await Promise.all(dbs.map((db) => migrate(db, { seed: seedCatalogue })))
      const files = applied.flat()
      expect(files.length).toBeGreaterThan(0)
      // every migration applied by exactly one of them
      expect(new Set(files).size).toBe(files.length)
      expect(applied.filter((a) => a.length > 0)).toHaveLength(1)
      const [prices] = await dbs[0]!.query<{ n: number; d: number }>(
        'SELECT count(*)::int AS n, count(DISTINCT (platform, product, license_type, tier))::int AS d FROM prices',
      )
      expect(prices!.n).toBeGreaterThan(0)
      expect(prices!.n).toBe(prices!.d)
    } finally {
      await Promise.all(dbs.map((db) => db.close()))
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    }
  })
})

describe('one process per embedded database folder', () => {
  it('a second open of a PGlite folder in use is refused with a clear message; a lock whose process is gone is taken over', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'portal-lock-')), 'pglite')
    // the lock a running portal holds (opening a real folder would spend seconds in initdb)
    const release = lockDataDir(dir)
    await expect(pgliteDb(dir)).rejects.toThrow(DataDirInUse)
    await expect(pgliteDb(dir)).rejects.toThrow(`open in another process (pid ${process.pid}): PGlite serves one process only`)
    expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid))
    release()
    expect(existsSync(`${dir}.lock`)).toBe(false)
    // a lock left by a process that was killed
    writeFileSync(`${dir}.lock`, '999999999')
    const again = lockDataDir(dir)
    expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid))
    again()
  })
})
