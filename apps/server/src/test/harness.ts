import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeEach, expect, inject } from 'vitest'
import { COOKIES } from '@portal/domain'
import { buildApp } from '../app.ts'
import { pgliteDb, postgresDb, type Db } from '../db/db.ts'
import { MovableClock } from '../platform/clock.ts'
import { loadConfig, type Config } from '../platform/config.ts'
import { hashPassword, randomToken } from '../platform/crypto.ts'
import { insertClient } from '../modules/account/queries.ts'
import { TEMPLATE_DB, withDatabase } from './global-setup.ts'
import { TEST_MASTER_KEY } from './master-key.ts'

export const DB_KIND = (process.env.DB_KIND ?? 'pglite') as 'pglite' | 'postgres'

/**
 * Tables the catalogue seeds, and the shared secrets and signing keys the worker's first app makes
 * (each app holds them in memory); everything else is emptied between tests.
 */
export const KEPT_TABLES = new Set([
  'schema_migrations',
  'prices',
  'changelog',
  'face_sdk_versions',
  'test_seed_prices',
  'portal_secrets',
  'license_signing_keys',
])

let shared: Promise<Db> | null = null
let sharedUrl: string | null = null

/** The worker's PostgreSQL database URL (null on PGlite), for a second app on the same database. */
export const workerDatabaseUrl = () => sharedUrl

/** One database per test worker: an in-memory PGlite from the snapshot, or a PostgreSQL copy of the template. */
export function workerDb(): Promise<Db> {
  shared ??= (async () => {
    if (DB_KIND === 'postgres') {
      const url = process.env.TEST_DATABASE_URL!
      const name = `portal_test_w${process.env.VITEST_POOL_ID ?? '0'}_${process.pid}`
      const admin = new pg.Client({ connectionString: url })
      await admin.connect()
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`)
      await admin.end()
      sharedUrl = withDatabase(url, name)
      return postgresDb(sharedUrl, 20)
    }
    return pgliteDb(undefined, { loadDataDir: new Blob([readFileSync(inject('pgliteSnapshot'))]) })
  })()
  return shared
}

interface ResetPlan {
  /** one statement list: every data table emptied (foreign keys and triggers off meanwhile), the seeds restored */
  sql: string
}
const resetPlans = new WeakMap<Db, Promise<ResetPlan>>()

/**
 * What emptying this database takes, read once per database: its data tables and the sequences they
 * own. DELETE on a few small tables costs a fraction of TRUNCATE's new files per table, which on
 * PostgreSQL was most of a server test's time.
 */
function resetPlan(db: Db): Promise<ResetPlan> {
  let plan = resetPlans.get(db)
  if (!plan) {
    plan = (async () => {
      // a copy of the seeded price list: a test may change prices, and each test starts from the seed
      await db.exec(`CREATE TABLE IF NOT EXISTS test_seed_prices AS TABLE prices`)
      const tables = (await db.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`))
        .map((t) => t.tablename)
        .filter((t) => !KEPT_TABLES.has(t))
      const sequences = await db.query<{ name: string }>(
        `SELECT s.relname AS name FROM pg_class s
           JOIN pg_depend d ON d.objid = s.oid AND d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass
           JOIN pg_class t ON t.oid = d.refobjid
          WHERE s.relkind = 'S' AND t.relname = ANY($1::text[])`,
        [tables],
      )
      const restart = sequences.map((s) => `setval('public.${s.name}', 1, false)`)
      return {
        sql: [
          // for this one statement list (one implicit transaction, so a failure leaves the connection
          // as it was): no foreign-key checks or triggers (the append-only activity trigger refuses a
          // DELETE), so the order of the tables does not matter
          'SET LOCAL session_replication_role = replica',
          ...tables.map((t) => `DELETE FROM ${t}`),
          // the migration's one counter row, and the seeded prices
          'INSERT INTO invoice_counter (id, last) VALUES (true, 0)',
          'DELETE FROM prices',
          'INSERT INTO prices SELECT * FROM test_seed_prices',
          ...(restart.length ? [`SELECT ${restart.join(', ')}`] : []),
        ].join(';\n'),
      }
    })()
    resetPlans.set(db, plan)
  }
  return plan
}

/**
 * Empties the shared secrets and signing keys the worker's apps keep (KEPT_TABLES), as on a new
 * database: for the tests of what the first start makes or imports. Apps built afterwards make
 * their own again.
 */
export async function forgetSharedSecrets(db: Db) {
  await db.exec('TRUNCATE portal_secrets, license_signing_keys')
}

/** Empties every data table (ids start again at 1) and restores the seeded prices. */
export async function resetDb(db: Db) {
  await db.exec((await resetPlan(db)).sql)
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-test-')),
    SESSION_SECRET: 'test-secret-test-secret-test-secret-42',
    PORTAL_MASTER_KEY: TEST_MASTER_KEY,
    PUBLIC_URL: 'http://portal.test',
    // the suite creates and signs in thousands of accounts; crypto.test.ts checks the standard cost.
    // A production start refuses the test cost, so an app built as production hashes at its own.
    PASSWORD_HASH_COST: overrides.NODE_ENV === 'production' ? 'standard' : 'test',
    ...overrides,
  })
}

export interface TestContext {
  app: FastifyInstance
  db: Db
  /** the app's business clock: a test moves it (advance, set) instead of sleeping; reset before each test */
  clock: MovableClock
}

/**
 * Builds the real app once per test file on the worker's database and empties the data before
 * each test. `env` passes the same variables the server reads.
 */
export function useTestApp(env: Record<string, string> = {}): TestContext {
  const ctx = {} as TestContext
  beforeEach(async () => {
    if (!ctx.app) {
      ctx.db = await workerDb()
      // no background job loop here: it would race the truncation between tests; the job tests build their own apps
      ctx.clock = new MovableClock()
      ctx.app = await buildApp({ config: testConfig(env), db: ctx.db, runJobs: false, clock: ctx.clock })
      await ctx.app.ready()
    }
    ctx.clock.reset()
    await resetDb(ctx.db)
  })
  afterAll(async () => {
    await ctx.app?.close()
  })
  return ctx
}

/** A browser-like client: keeps cookies and echoes the CSRF cookie on POST. */
export class Agent {
  cookies = new Map<string, string>()
  private readonly app: FastifyInstance
  private readonly ip: string

  constructor(app: FastifyInstance, ip = '127.0.0.1') {
    this.app = app
    this.ip = ip
  }

  private remember(res: LightMyRequestResponse) {
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = c.value === '' || c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now())
      if (expired) this.cookies.delete(c.name)
      else this.cookies.set(c.name, c.value)
    }
    return res
  }

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  async get(url: string) {
    return this.remember(await this.app.inject({ method: 'GET', url, headers: { cookie: this.cookieHeader() }, remoteAddress: this.ip }))
  }

  async post(url: string, body: unknown = {}, opts: { csrf?: boolean } = {}) {
    if (!this.cookies.has(COOKIES.csrf)) await this.get('/api/health/')
    const headers: Record<string, string> = { cookie: this.cookieHeader(), 'content-type': 'application/json' }
    if (opts.csrf !== false) headers['x-csrftoken'] = this.cookies.get(COOKIES.csrf)!
    return this.remember(await this.app.inject({ method: 'POST', url, headers, payload: JSON.stringify(body), remoteAddress: this.ip }))
  }
}

export const STRONG_PASSWORD = 'Str0ng-Pass'

/** A complete seller, which a production start requires (INVOICE_SELLER). */
export const PRODUCTION_SELLER = JSON.stringify({
  name: 'Vendor Ltd',
  address: '1 Main St',
  tax_id: 'EIN 12-3456789',
  email: 'billing@vendor.example',
  country: 'US',
})

/** A confirmed client created directly in the database, and an agent signed in as it. */
export async function signedInClient(
  t: Pick<TestContext, 'app' | 'db'>,
  email = `user${randomToken(4).toLowerCase()}@example.com`,
  password = STRONG_PASSWORD,
) {
  const client = await insertClient(t.db, {
    email,
    password_hash: await hashPassword(password, 'test'),
    is_corporate: false,
    segment: null,
    token: randomToken(16),
    confirmed: true,
  })
  const agent = new Agent(t.app)
  const res = await agent.post('/api/client/signin/', { username: email, password })
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`)
  return { agent, client: client!, email, password }
}

/** The newest dev-outbox mail to an address, and the first portal link in it. */
export async function lastMailTo(db: Db, to: string) {
  const rows = await db.query<{ subject: string; text_body: string }>(
    'SELECT subject, text_body FROM mail_outbox WHERE lower(to_address) = lower($1) ORDER BY id DESC LIMIT 1',
    [to],
  )
  const mail = rows[0]
  if (!mail) return null
  const link = /https?:\/\/\S+\/app\/\S+/.exec(mail.text_body)?.[0] ?? null
  const m = link ? /\/app\/[a-z-]+\/(\d+)\/([A-Za-z0-9_-]+)\//.exec(link) : null
  return { ...mail, link, clientId: m ? Number(m[1]) : null, token: m?.[2] ?? null }
}

/** A spec-shaped error answer: the status, the catalogue code, and the field when one is named. */
export function expectError(res: LightMyRequestResponse, status: number, code: string, field?: string) {
  const what = `${res.statusCode} ${res.body}`
  expect(res.statusCode, what).toBe(status)
  const body = res.json()
  expect(body.error_code, what).toBe(code)
  expect(typeof body.error, what).toBe('string')
  expect(body.error.length, what).toBeGreaterThan(0)
  if (field !== undefined) expect(body.field, what).toBe(field)
}

/** How many rows a query counts, for checking the state after a call. */
export async function count(db: Db, sql: string, params: unknown[] = []): Promise<number> {
  const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)
  return rows[0]!.n
}
