import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { PGlite } from '@electric-sql/pglite'

/**
 * The one database port: plain SQL with $1 parameters, the same text on PGlite and PostgreSQL.
 * Every query function takes the `Queryable` it runs in, so a service decides the transaction.
 */
export interface Queryable {
  query<T extends object = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /**
   * For writes that may be lost in a crash without harm (rate-limit counters, last-seen times):
   * on PostgreSQL a connection with synchronous_commit off, so the hot path never waits on fsync.
   */
  readonly relaxed: Queryable
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  /** several statements, no parameters (migrations) */
  exec(sql: string): Promise<void>
  close(): Promise<void>
}

// Serialization failures and deadlocks are retried: the transaction body must be pure SQL work.
const RETRYABLE = new Set(['40001', '40P01'])

/**
 * Every statement runs as a named prepared statement (named by a hash of its text): PostgreSQL
 * parses and plans it once per connection instead of once per call.
 */
const statementNames = new Map<string, string>()
function prepared(sql: string, values: unknown[]) {
  let name = statementNames.get(sql)
  if (!name) {
    name = `s${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`
    statementNames.set(sql, name)
  }
  return { name, text: sql, values }
}

export function postgresDb(url: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString: url, max })
  const relaxedPool = new pg.Pool({ connectionString: url, max: Math.max(2, Math.ceil(max / 2)), options: '-c synchronous_commit=off' })
  pg.types.setTypeParser(20, (v) => Number(v)) // bigint -> number (cents and ids stay below 2^53)
  return {
    kind: 'postgres',
    relaxed: { query: async (sql, params = []) => (await relaxedPool.query(prepared(sql, params))).rows },
    async query(sql, params = []) {
      return (await pool.query(prepared(sql, params))).rows
    },
    async transaction(fn) {
      for (let attempt = 0; ; attempt++) {
        const conn = await pool.connect()
        try {
          await conn.query('BEGIN')
          const tx: Queryable = { query: async (sql, params = []) => (await conn.query(prepared(sql, params))).rows }
          const result = await fn(tx)
          await conn.query('COMMIT')
          return result
        } catch (err) {
          await conn.query('ROLLBACK').catch(() => undefined)
          if (attempt < 5 && RETRYABLE.has((err as { code?: string }).code ?? '')) continue
          throw err
        } finally {
          conn.release()
        }
      }
    },
    async exec(sql) {
      await pool.query(sql)
    },
    async close() {
      await Promise.all([pool.end(), relaxedPool.end()])
    },
  }
}

export async function pgliteDb(dataDir?: string): Promise<Db> {
  const lite = dataDir ? await PGlite.create(dataDir) : await PGlite.create()
  // PGlite runs one statement at a time; a queue keeps a transaction's statements together.
  let queue: Promise<unknown> = Promise.resolve()
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn)
    queue = run.catch(() => undefined)
    return run
  }
  const asNumbers = (rows: Record<string, unknown>[]) => {
    for (const row of rows) for (const k in row) if (typeof row[k] === 'bigint') row[k] = Number(row[k])
    return rows
  }
  const query = async <T extends object>(sql: string, params: unknown[] = []) =>
    serial(async () => asNumbers((await lite.query<Record<string, unknown>>(sql, params)).rows) as T[])
  return {
    kind: 'pglite',
    relaxed: { query },
    query,
    async transaction(fn) {
      return serial(() =>
        lite.transaction(async (t) =>
          fn({
            query: async <T extends object>(sql: string, params: unknown[] = []) =>
              asNumbers((await t.query<Record<string, unknown>>(sql, params)).rows) as T[],
          }),
        ),
      )
    },
    async exec(sql) {
      await serial(() => lite.exec(sql))
    },
    async close() {
      await serial(() => lite.close())
    },
  }
}

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations')

/** Applies the checked-in SQL files in name order, each once, each in its own transaction. */
export async function migrate(db: Db): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`)
  // two servers starting at once on one PostgreSQL: one migrates, the other waits
  const applied: string[] = []
  await db.transaction(async (tx) => {
    if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(7245001)')
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name))
    for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort()) {
      if (done.has(file)) continue
      const sql = readFileSync(join(MIGRATIONS_DIR, file), 'utf8')
      for (const statement of splitStatements(sql)) await tx.query(statement)
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file])
      applied.push(file)
    }
  })
  return applied
}

/** Splits on semicolons at line ends; migrations keep one statement per `;\n`. */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean)
}

export async function openDb(opts: { databaseUrl?: string; dataDir?: string }): Promise<Db> {
  return opts.databaseUrl ? postgresDb(opts.databaseUrl) : pgliteDb(opts.dataDir)
}
