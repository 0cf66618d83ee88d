import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { PGlite } from '@electric-sql/pglite'
import { appliedMigrations, lockMigrations, recordMigration } from './queries.ts'

/**
 * The one database port: plain SQL with $1 parameters, the same text on PGlite and PostgreSQL.
 * Every query function takes the `Queryable` it runs in, so a service decides the transaction.
 */
export interface Queryable {
  query<T extends object = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
}

/**
 * The column list of a row type (for a select or a returning clause), written once beside it: the compiler holds the
 * names to exactly the keys of `Row` (one missing or unknown fails typecheck) and the database
 * refuses a name its table lacks, so the type a query promises is what it selects. No star lists:
 * a column added to a table does not slip into rows whose type does not know it.
 *
 *     const CLIENT_COLUMNS = columns<ClientRow>()('id', 'email', …)
 *     db.query<ClientRow>(`… ${CLIENT_COLUMNS()} FROM clients …`)   // or CLIENT_COLUMNS('c')
 */
export function columns<Row>() {
  return <const K extends readonly (keyof Row & string)[]>(
      ...names: K & ([Exclude<keyof Row, K[number]>] extends [never] ? unknown : { missing: Exclude<keyof Row, K[number]> })
    ) =>
    (alias?: string) =>
      (alias ? names.map((n) => `${alias}.${n}`) : names).join(', ')
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
  /** where connection losses that no caller awaits are reported (the app's logger) */
  setLogger(log: DbLogger): void
  /** the pool's connections now, and the connection losses counted since start (for the metrics) */
  stats(): DbStats
  /**
   * PostgreSQL only: calls `onNotify` on each NOTIFY on `channel` (a fixed identifier), over a
   * connection of its own; answers how to stop. A lost connection is logged and not made again:
   * a listener keeps a poll beside it.
   */
  listen?(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>
}

export interface DbStats {
  connections: { total: number; idle: number; waiting: number }
  connectionErrors: number
}

export interface DbLogger {
  warn(obj: object, msg: string): void
}

// SQLSTATE class 08 (connection exception), admin/crash shutdown, cannot connect now
const CONNECTION_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
])
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed|PGlite is closed|Cannot use a pool after calling end/i

/**
 * Whether an error means the database cannot be reached right now (restart, failover, a dropped
 * connection), as opposed to a fault of the statement: such a request answers 503 and the next one
 * gets a fresh connection.
 */
export function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false
  const { code, message, errors } = err as { code?: unknown; message?: unknown; errors?: unknown }
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true
  if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true
  // node's AggregateError when every address of the host refused (localhost on ::1 and 127.0.0.1)
  return Array.isArray(errors) && errors.some(isConnectionError)
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
  let log: DbLogger = { warn: (obj, msg) => console.warn(msg, obj) }
  // an idle connection the server closes (restart, failover, pg_terminate_backend, a proxy's idle
  // timeout) is reported here; without a listener the 'error' event would end the process
  let connectionErrors = 0
  const onIdleError = (err: Error) => {
    connectionErrors++
    log.warn({ err }, 'database connection lost; the pool reconnects on the next query')
  }
  // a statement that failed because the database could not be reached is counted, then rethrown
  const counted = (err: unknown): never => {
    if (isConnectionError(err)) connectionErrors++
    throw err
  }
  const options = { connectionString: url, connectionTimeoutMillis: 5000 }
  const pool = new pg.Pool({ ...options, max })
  const relaxedPool = new pg.Pool({ ...options, max: Math.max(2, Math.ceil(max / 2)), options: '-c synchronous_commit=off' })
  pool.on('error', onIdleError)
  relaxedPool.on('error', onIdleError)
  pg.types.setTypeParser(20, (v) => Number(v)) // bigint -> number (cents and ids stay below 2^53)
  return {
    kind: 'postgres',
    relaxed: { query: async (sql, params = []) => (await relaxedPool.query(prepared(sql, params)).catch(counted)).rows },
    async query(sql, params = []) {
      return (await pool.query(prepared(sql, params)).catch(counted)).rows
    },
    async transaction(fn) {
      for (let attempt = 0; ; attempt++) {
        const conn = await pool.connect()
        // a checked-out connection has no pool listener: its loss rejects the running statement,
        // and the event itself must not reach the process
        let lost: Error | null = null
        const onError = (err: Error) => (lost = err)
        conn.on('error', onError)
        try {
          await conn.query('BEGIN')
          const tx: Queryable = { query: async (sql, params = []) => (await conn.query(prepared(sql, params))).rows }
          const result = await fn(tx)
          await conn.query('COMMIT')
          return result
        } catch (err) {
          if (!lost && !isConnectionError(err)) await conn.query('ROLLBACK').catch(() => undefined)
          if (attempt < 5 && RETRYABLE.has((err as { code?: string }).code ?? '')) continue
          if (!lost && isConnectionError(err)) lost = err as Error
          if (lost) connectionErrors++
          throw err
        } finally {
          conn.removeListener('error', onError)
          // a broken connection is destroyed instead of going back to the pool
          conn.release(lost ?? undefined)
        }
      }
    },
    async exec(sql) {
      await pool.query(sql)
    },
    async close() {
      await Promise.all([pool.end(), relaxedPool.end()])
    },
    setLogger(next) {
      log = next
    },
    async listen(channel, onNotify) {
      const client = new pg.Client(options)
      client.on('error', (err) => {
        connectionErrors++
        log.warn({ err, channel }, 'the LISTEN connection was lost; its listener goes on by polling')
      })
      client.on('notification', (n) => {
        if (n.channel === channel) onNotify(n.payload ?? '')
      })
      await client.connect()
      await client.query(`LISTEN ${channel}`)
      return async () => {
        await client.end().catch(() => undefined)
      }
    },
    stats() {
      return {
        connections: {
          total: pool.totalCount + relaxedPool.totalCount,
          idle: pool.idleCount + relaxedPool.idleCount,
          waiting: pool.waitingCount + relaxedPool.waitingCount,
        },
        connectionErrors,
      }
    },
  }
}

/**
 * An embedded database in `dataDir`, or in memory without one; `loadDataDir` starts it from a
 * `dumpDataDir()` snapshot instead of an empty cluster.
 */
export async function pgliteDb(dataDir?: string, opts: { loadDataDir?: Blob } = {}): Promise<Db> {
  if (!dataDir) return pgliteOver(await PGlite.create(opts))
  const release = lockDataDir(dataDir)
  try {
    const db = pgliteOver(await PGlite.create(dataDir, opts))
    const close = db.close
    return Object.assign(db, { close: () => close().finally(release) })
  } catch (err) {
    release()
    throw err
  }
}

/** A second process opening an embedded database folder that one has open: refused, never shared. */
export class DataDirInUse extends Error {}

/**
 * PGlite is one process's database: a second writer on the same folder would corrupt it. A lock file
 * beside the folder names the process that has it open; one left by a process that is gone is taken
 * over. Answers the release.
 */
export function lockDataDir(dataDir: string): () => void {
  const lock = `${dataDir}.lock`
  mkdirSync(dirname(lock), { recursive: true })
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 })
      return () => rmSync(lock, { force: true })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
    const pid = Number(readFileSync(lock, 'utf8').trim())
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid))
      throw new DataDirInUse(
        `The embedded database in ${dataDir} is open in another process (pid ${pid}): PGlite serves one process only. ` +
          'Stop that process, or run several processes on PostgreSQL (DATABASE_URL).',
      )
    // its process is gone: the lock is stale
    rmSync(lock, { force: true })
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The port over a PGlite instance the caller opened (the tests' snapshot maker dumps it afterwards). */
export function pgliteOver(lite: PGlite): Db {
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
    // an embedded database has no connection to lose
    setLogger() {},
    stats: () => ({ connections: { total: 1, idle: 1, waiting: 0 }, connectionErrors: 0 }),
  }
}

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations')

/**
 * Applies the checked-in SQL files in name order, each once, then `seed` (the catalogue), all in one
 * transaction under an advisory lock on PostgreSQL: of several processes starting at once after a
 * release, one migrates and seeds, and the others find it done.
 */
export async function migrate(db: Db, opts: { seed?: (tx: Queryable) => Promise<void> } = {}): Promise<string[]> {
  const applied: string[] = []
  await db.transaction(async (tx) => {
    // the lock first: CREATE TABLE IF NOT EXISTS is not safe against itself in parallel
    if (db.kind === 'postgres') await lockMigrations(tx)
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`)
    const done = await appliedMigrations(tx)
    for (const file of readdirSync(MIGRATIONS_DIR)
      .filter((f) => f.endsWith('.sql'))
      .sort()) {
      if (done.has(file)) continue
      const sql = readFileSync(join(MIGRATIONS_DIR, file), 'utf8')
      for (const statement of splitStatements(sql)) await tx.query(statement)
      await recordMigration(tx, file)
      applied.push(file)
    }
    await opts.seed?.(tx)
  })
  return applied
}

/**
 * Splits on semicolons at line ends; migrations keep one statement per `;\n`. A dollar-quoted body
 * (a plpgsql function) is one statement whatever its lines end with.
 */
function splitStatements(sql: string): string[] {
  const statements: string[] = []
  let current: string[] = []
  let quoted = false
  for (const line of sql.split('\n')) {
    current.push(line)
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) quoted = !quoted
    if (!quoted && /;\s*$/.test(line)) {
      statements.push(current.join('\n').replace(/;\s*$/, ''))
      current = []
    }
  }
  statements.push(current.join('\n'))
  return statements.map((s) => s.replace(/^\s*--.*$/gm, '').trim()).filter(Boolean)
}

export async function openDb(opts: { databaseUrl?: string; dataDir?: string }): Promise<Db> {
  return opts.databaseUrl ? postgresDb(opts.databaseUrl) : pgliteDb(opts.dataDir)
}
