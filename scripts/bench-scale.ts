/**
 * `npm run bench -- --scale`: how the customer's calls, the device API and the renewal sweep grow with
 * the size of the database, written to docs/benchmarks.md's "## Scale" section (the rest of the file
 * stays as it was).
 *
 * For each size (BENCH_SCALE_SIZES, default 1000,100000,1000000 licenses) a database of its own
 * (BENCH_SCALE_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/portal_scale: dropped, made
 * and migrated anew, and dropped at the end) is filled with set-based SQL (generate_series):
 * clients (100 at the smallest size, 100,000 above it), most with a few licenses and a few with
 * 10,000; a default group per client, devices, subscriptions (some due for renewal), paid
 * transactions. The measured customer is the same at every size: 500 licenses with a device each and
 * 10,000 transactions, so a figure that grows shows the table's size, not the customer's. Then, against
 * the real server (NODE_ENV=production) beside the bare one-SELECT route (scripts/bench-bare.ts): the
 * page of 50 (with the dashboard's counts), the same page of a client with 10,000 licenses, validate,
 * the payment documents, GET /metrics (the operator's counts), the renewal sweep (the CLI's
 * subscriptions:renew until nothing is due, less a run with nothing due), and EXPLAIN ANALYZE of the
 * queries behind them, the app's own query functions run through a connection that explains instead.
 * At the largest size: one, two and four server processes on the database, each loaded at once, with
 * what PostgreSQL does meanwhile (pg_stat_activity, pg_locks, pg_stat_database).
 *
 * BENCH_SECONDS (10) per call, BENCH_CONNECTIONS (10), BENCH_PORT (3311: servers on +0, +2, +6, +7;
 * the bare route on +1), BENCH_TIMEOUT (3600 s with --scale). Every process it starts is ended.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import autocannon from 'autocannon'
import pg from 'pg'
import { pageRequest } from '@portal/domain'
import type { Queryable } from '../apps/server/src/db/db.ts'
import { countLicenses, listLicenses } from '../apps/server/src/modules/licenses/queries.ts'
import { findForValidation } from '../apps/server/src/modules/activation/queries.ts'
import { countTransactions, listTransactions, paymentFigures } from '../apps/server/src/modules/transactions/queries.ts'
import { listDueSubscriptions, subscriptionFigures } from '../apps/server/src/modules/subscriptions/queries.ts'
import { loadConfig } from '../apps/server/src/platform/config.ts'
import { openDb } from '../apps/server/src/db/db.ts'
import { buildApp } from '../apps/server/src/app.ts'
import { runRenewals } from '../apps/server/src/modules/subscriptions/renewal.ts'
import { benchEnv, portalCli, runCommand, startProcess, stopProcess, waitFor } from './bench-tools.ts'

const DB_URL = process.env.BENCH_SCALE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_scale'
const DB_NAME = new URL(DB_URL).pathname.slice(1)
const ADMIN_URL = Object.assign(new URL(DB_URL), { pathname: '/postgres' }).toString()
const SIZES = (process.env.BENCH_SCALE_SIZES ?? '1000,100000,1000000').split(',').map(Number)
const PORT = Number(process.env.BENCH_PORT ?? 3311)
const BARE_PORT = PORT + 1
const SERVER_PORTS = [PORT, PORT + 2, PORT + 6, PORT + 7]
const DURATION = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const SETTLE_MS = 1500
const EMAIL = 'bench@example.com'
const HEAVY_EMAIL = 'scale-heavy-1@example.com'
/** the measured customer's licenses (each with a device) and transactions, the same at every size */
const OWN_LICENSES = 500
const OWN_TRANSACTIONS = 10_000
/** a big customer's licenses, and the subscriptions due for renewal at every size */
const HEAVY_LICENSES = 10_000
const DUE = 1000
const PAGE_PATH = '/api/license/?type=nuitrack&offset=0&limit=50'
const PRODUCT = 'nuitrack_online_subscription_monthly'
const METRICS_TOKEN = 'scale-bench-metrics-token'
const SELLER = JSON.stringify({ name: 'Bench Ltd', address: '1 Main St', tax_id: 'EIN 12-3456789', email: 'billing@bench.example' })
/** the tables a sequential scan of which grows with the size */
const BIG_TABLES = ['clients', 'license_groups', 'licenses', 'devices', 'subscriptions', 'transactions']

if (!/^[a-z_][a-z0-9_]*$/.test(DB_NAME)) throw new Error(`unexpected database name ${DB_NAME}`)

interface Figures {
  name: string
  rps: number
  p50: number
  p99: number
  failed: number
}

async function measure(name: string, opts: autocannon.Options): Promise<Figures> {
  await new Promise((r) => setTimeout(r, SETTLE_MS))
  const r = await autocannon({ duration: DURATION, connections: CONNECTIONS, ...opts })
  const f = { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, failed: r.errors + r.timeouts + r.non2xx }
  console.log(`  ${name}: ${f.rps.toFixed(0)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, failed ${f.failed}`)
  return f
}

/** How many clients a size spreads its licenses over, and how many of them hold 10,000. */
const shapeOf = (licenses: number) => ({
  clients: licenses <= 1000 ? 100 : 100_000,
  heavy: Math.floor(licenses / 100_000),
  /** subscriptions due for renewal: DUE, or as many as the smallest size has */
  due: licenses <= 1000 ? 100 : DUE,
})

interface Step {
  name: string
  ms: number
  rows: number
}

/** EXPLAIN ANALYZE of one statement an app query function ran, and whether it reads a big table sequentially. */
interface Plan {
  call: string
  ms: number
  seqScans: string[]
  text: string
}

interface SizeResult {
  licenses: number
  clients: number
  heavy: number
  generate: Step[]
  databaseBytes: number
  bare: number
  page: Figures
  heavyPage: Figures | null
  validate: Figures
  documents: Figures
  metrics: Figures
  sweep: { rows: number; ms: number; runs: number }
  plans: Plan[]
  /** sequential scans the servers made on the big tables during the size's calls: table → [scans, rows read] */
  seqScans: Record<string, [number, number]>
  processes: ProcessRun[] | null
}

interface ProcessRun {
  call: string
  processes: number
  perProcess: Figures[]
  db: DbSample
}

/** What PostgreSQL did while a load ran: sampled every 200 ms, and pg_stat_database's counts. */
interface DbSample {
  connectionsMax: number
  activeMean: number
  activeMax: number
  idleInTxMax: number
  lockWaitsMax: number
  lockWaitSamples: number
  samples: number
  commits: number
  rollbacks: number
  deadlocks: number
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    return await fn(c)
  } finally {
    await c.end()
  }
}

async function recreateDatabase() {
  await withClient(ADMIN_URL, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`)
    await c.query(`CREATE DATABASE ${DB_NAME}`)
  })
}

/**
 * The data of one size, set-based. Triggers and foreign-key checks are off for the session
 * (session_replication_role = replica): the license list's version triggers would queue an event per
 * row, and the rows are made consistent by construction. Ids of rows made by one statement are
 * contiguous (nothing else writes the database meanwhile), which the later statements rely on.
 */
async function generate(licenses: number, ownClientId: number): Promise<Step[]> {
  const { clients, heavy, due } = shapeOf(licenses)
  const others = clients - 1
  const spread = licenses - OWN_LICENSES - heavy * HEAVY_LICENSES
  if (spread < 0) throw new Error(`${licenses} licenses are fewer than the measured client's and the big clients'`)
  const steps: Step[] = []
  await withClient(DB_URL, async (c) => {
    const step = async (name: string, sql: string, params: unknown[] = []) => {
      const t = performance.now()
      const r = await c.query(sql, params)
      const s = { name, ms: performance.now() - t, rows: r.rowCount ?? 0 }
      console.log(`  ${name}: ${s.rows} rows in ${(s.ms / 1000).toFixed(1)} s`)
      steps.push(s)
    }
    await c.query(`SET session_replication_role = replica; SET synchronous_commit = off; SET work_mem = '64MB'; SET maintenance_work_mem = '256MB'`)
    const own = (await c.query('SELECT password_hash FROM clients WHERE id = $1', [ownClientId])).rows[0] as { password_hash: string }
    const template = (await c.query('SELECT config, group_id FROM licenses WHERE client_id = $1 ORDER BY id LIMIT 1', [ownClientId])).rows[0] as {
      config: object
      group_id: number
    }
    // the other clients: the first `heavy` of them hold 10,000 licenses each (and sign in with the
    // measured client's password); every one has money for its renewals
    await step(
      'clients',
      `INSERT INTO clients (email, password_hash, confirmed_at, token, balance_cents, name)
       SELECT 'scale-' || CASE WHEN i <= $2 THEN 'heavy-' ELSE '' END || i || '@example.com', $3, now(), md5('client' || i), 100000000, 'Client ' || i
         FROM generate_series(1, $1::int) i`,
      [others, heavy, own.password_hash],
    )
    const firstClient = Number((await c.query(`SELECT min(id) AS id FROM clients WHERE email LIKE 'scale-%'`)).rows[0].id)
    await step(
      'license_groups',
      `INSERT INTO license_groups (client_id, type, product, is_default, token, available)
       SELECT $1::bigint + i, 'nuitrack', $2, true, md5('group' || i), 0 FROM generate_series(0, $3::int - 1) i`,
      [firstClient, PRODUCT, others],
    )
    const firstGroup = Number((await c.query('SELECT min(id) AS id FROM license_groups WHERE client_id >= $1', [firstClient])).rows[0].id)
    // the licenses: the big clients' 10,000 each, then the rest spread so that most clients hold a few
    // (license k of n goes to client floor(others' count × (k/n)²): the first clients hold hundreds,
    // the last ones one to a few); created over the past year, each ending in 8 to 38 days (past the
    // expiring-soon mail's week: the servers' own jobs stay idle while the calls are measured)
    const licenseSql = (clientExpr: string) => `
      INSERT INTO licenses (client_id, group_id, type, product, config, status, created_at, expire_date, activation_date, token)
      SELECT cl, $2::bigint + (cl - $1::bigint), 'nuitrack', $3, $4::jsonb, 0,
             now() - (k % 365) * interval '1 day', now() + interval '8 days' + (k % 30) * interval '1 day',
             CASE WHEN k % 2 = 0 THEN now() - (k % 365) * interval '1 day' END, md5($6 || k)
        FROM (SELECT k, ${clientExpr} AS cl FROM generate_series(0, $5::int - 1) k) s`
    if (heavy > 0)
      await step('licenses of the big clients', licenseSql(`$1::bigint + k / ${HEAVY_LICENSES}`), [
        firstClient,
        firstGroup,
        PRODUCT,
        template.config,
        heavy * HEAVY_LICENSES,
        'heavy',
      ])
    if (spread > 0)
      await step('licenses of the others', licenseSql(`$1::bigint + ${heavy} + floor(${others - heavy} * power(k::float8 / $5, 2))::bigint`), [
        firstClient,
        firstGroup,
        PRODUCT,
        template.config,
        spread,
        'spread',
      ])
    // a device on every activated license (the measured client's 500 have theirs already)
    await step(
      'devices',
      `INSERT INTO devices (license_id, kind, fingerprint, first_seen, last_seen)
       SELECT id, 'online', 'device-' || id, activation_date, now() - (id % 90) * interval '1 day'
         FROM licenses WHERE client_id >= $1 AND activation_date IS NOT NULL`,
      [firstClient],
    )
    // a subscription on one license in five, renewing from the balance at the period's end;
    // `due` of them are due now (their period ended a minute ago)
    await step(
      'subscriptions',
      `INSERT INTO subscriptions (client_id, license_id, payment_source, state, next_attempt_at)
       SELECT client_id, id, 'balance', 'active', expire_date FROM licenses WHERE client_id >= $1 AND id % 5 = 0`,
      [firstClient],
    )
    await step(
      'subscriptions due',
      `WITH due AS (SELECT id, license_id FROM subscriptions ORDER BY id DESC LIMIT $1),
            s AS (UPDATE subscriptions SET next_attempt_at = now() - interval '1 minute' WHERE id IN (SELECT id FROM due))
       UPDATE licenses SET expire_date = now() - interval '1 minute' WHERE id IN (SELECT license_id FROM due)`,
      [due],
    )
    // paid transactions: one a license (its purchase), and the measured client's 10,000; invoice
    // numbers in order, and the counter after the last (the renewals number theirs from it)
    const firstInvoice = Number((await c.query('SELECT last FROM invoice_counter')).rows[0].last) + 1
    await step(
      'transactions',
      `INSERT INTO transactions (client_id, type, status, amount_cents, kind, description, lines, payment_source, provider, payment_method,
                                 invoice_number, paid_at, created_at)
       SELECT client_id, 0, 0, 1900, 'basket', 'Nuitrack Online subscription (monthly)',
              jsonb_build_array(jsonb_build_object('description', 'Nuitrack Online subscription (monthly)', 'quantity', 1, 'amount_cents', 1900)),
              'stripe', 'sandbox', 'Visa •••• 4242', $2::bigint + n, created_at, created_at
         FROM (SELECT client_id, created_at, row_number() OVER (ORDER BY created_at, id) AS n
                 FROM (SELECT client_id, created_at, id FROM licenses WHERE client_id >= $1
                       UNION ALL
                       SELECT $3::bigint, now() - i * interval '1 hour', i FROM generate_series(1, $4::int) i) u) t`,
      [firstClient, firstInvoice - 1, ownClientId, OWN_TRANSACTIONS],
    )
    await c.query('UPDATE invoice_counter SET last = (SELECT max(invoice_number) FROM transactions)')
    await c.query('RESET session_replication_role')
    const t = performance.now()
    await c.query(`VACUUM (ANALYZE) ${BIG_TABLES.join(', ')}`)
    steps.push({ name: 'VACUUM ANALYZE', ms: performance.now() - t, rows: 0 })
    console.log(`  VACUUM ANALYZE in ${((performance.now() - t) / 1000).toFixed(1)} s`)
  })
  return steps
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of every statement an app query function sends, in a transaction rolled
 * back: the function runs against this connection, which answers each statement with no rows.
 */
async function explain(call: string, fn: (db: Queryable) => Promise<unknown>): Promise<Plan[]> {
  return withClient(DB_URL, async (c) => {
    const plans: Plan[] = []
    await c.query('BEGIN')
    try {
      await fn({
        query: async <T extends object>(sql: string, params?: unknown[]) => {
          const r = await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params)
          const text = r.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n')
          const ms = Number(/Execution Time: ([\d.]+) ms/.exec(text)?.[1] ?? NaN)
          const seqScans = BIG_TABLES.filter((t) => new RegExp(`Seq Scan on ${t}\\b`).test(text))
          plans.push({ call, ms, seqScans, text })
          return [] as T[]
        },
      })
    } finally {
      await c.query('ROLLBACK')
    }
    return plans
  })
}

async function seqScanCounts(): Promise<Record<string, [number, number]>> {
  return withClient(DB_URL, async (c) => {
    const rows = (await c.query('SELECT relname, seq_scan, seq_tup_read FROM pg_stat_user_tables WHERE relname = ANY($1)', [BIG_TABLES])).rows as {
      relname: string
      seq_scan: string
      seq_tup_read: string
    }[]
    return Object.fromEntries(rows.map((r) => [r.relname, [Number(r.seq_scan), Number(r.seq_tup_read)]]))
  })
}

/**
 * Waits until the server has nothing left to do for 3 readings in a row (two minutes at most): no
 * job due and no backend of the database working. The sweep before the server leaves
 * a receipt job (an invoice PDF and its mail) for every renewal, which the first server then works
 * through in its own process; a call measured beside them measures them too.
 */
async function settled() {
  await withClient(DB_URL, async (c) => {
    let quiet = 0
    for (let i = 0; i < 240 && quiet < 3; i++) {
      const { rows } = await c.query(
        `SELECT (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid())
              + (SELECT count(*) FROM jobs WHERE status = 'pending' AND run_at <= now()) AS n`,
      )
      quiet = (rows[0] as { n: number }).n === 0 ? quiet + 1 : 0
      await new Promise((r) => setTimeout(r, 500))
    }
  })
}

/** Samples pg_stat_activity and pg_locks of the bench's database while `load` runs. */
async function watchDatabase<T>(load: () => Promise<T>): Promise<[T, DbSample]> {
  const c = new pg.Client({ connectionString: DB_URL })
  await c.connect()
  const stat = async () =>
    (await c.query('SELECT xact_commit, xact_rollback, deadlocks FROM pg_stat_database WHERE datname = current_database()')).rows[0] as Record<string, string>
  const before = await stat()
  const s: DbSample = {
    connectionsMax: 0,
    activeMean: 0,
    activeMax: 0,
    idleInTxMax: 0,
    lockWaitsMax: 0,
    lockWaitSamples: 0,
    samples: 0,
    commits: 0,
    rollbacks: 0,
    deadlocks: 0,
  }
  let active = 0
  let running = true
  const sampling = (async () => {
    while (running) {
      const [a] = (
        await c.query(
          `SELECT count(*)::int AS connections,
                  count(*) FILTER (WHERE state = 'active')::int AS active,
                  count(*) FILTER (WHERE state LIKE 'idle in transaction%')::int AS idle_in_tx,
                  (SELECT count(*)::int FROM pg_locks l JOIN pg_stat_activity w ON w.pid = l.pid
                    WHERE NOT l.granted AND w.datname = current_database()) AS lock_waits
             FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        )
      ).rows as { connections: number; active: number; idle_in_tx: number; lock_waits: number }[]
      s.samples++
      s.connectionsMax = Math.max(s.connectionsMax, a!.connections)
      active += a!.active
      s.activeMax = Math.max(s.activeMax, a!.active)
      s.idleInTxMax = Math.max(s.idleInTxMax, a!.idle_in_tx)
      s.lockWaitsMax = Math.max(s.lockWaitsMax, a!.lock_waits)
      if (a!.lock_waits > 0) s.lockWaitSamples++
      await new Promise((r) => setTimeout(r, 200))
    }
  })()
  try {
    const result = await load()
    running = false
    await sampling
    // a backend reports its counts when its transaction ends, at most once a second
    await new Promise((r) => setTimeout(r, 1100))
    const after = await stat()
    s.activeMean = s.samples ? active / s.samples : 0
    s.commits = Number(after.xact_commit) - Number(before.xact_commit)
    s.rollbacks = Number(after.xact_rollback) - Number(before.xact_rollback)
    s.deadlocks = Number(after.deadlocks) - Number(before.deadlocks)
    return [result, s]
  } finally {
    running = false
    await sampling.catch(() => undefined)
    await c.end()
  }
}

async function signIn(base: string, email: string, password: string): Promise<string> {
  const first = await fetch(`${base}/api/health/`)
  const csrf = /csrftoken=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1]!
  const signin = await fetch(`${base}/api/client/signin/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrftoken': csrf, cookie: `csrftoken=${csrf}` },
    body: JSON.stringify({ username: email, password }),
  })
  if (!signin.ok) throw new Error(`sign-in of ${email} failed: ${await signin.text()}`)
  return signin.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
}

async function runSize(licenses: number, last: boolean): Promise<SizeResult> {
  const { clients, heavy, due } = shapeOf(licenses)
  console.log(`\n${licenses} licenses over ${clients} clients (${heavy} with ${HEAVY_LICENSES})`)
  await recreateDatabase()
  // every process of the size (and the sweep in this one) shares the environment's master key
  const env = { ...benchEnv(DB_URL, 'scale'), METRICS_TOKEN }
  const cli = (...args: string[]) => portalCli(env, ...args)
  await cli('migrate')
  const password = /Password: (\S+)/.exec(await cli('demo:seed', EMAIL))![1]!
  await cli('licenses:bulk', EMAIL, String(OWN_LICENSES))
  const ownClientId = await withClient(DB_URL, async (c) => {
    const id = Number((await c.query('SELECT id FROM clients WHERE email = $1', [EMAIL])).rows[0].id)
    await c.query(
      `INSERT INTO devices (license_id, kind, fingerprint, last_seen) SELECT id, 'online', 'bench-device-' || id, now() FROM licenses WHERE client_id = $1`,
      [id],
    )
    return id
  })
  const generate_ = await generate(licenses, ownClientId)
  const databaseBytes = await withClient(DB_URL, async (c) => Number((await c.query('SELECT pg_database_size(current_database()) AS n')).rows[0].n))
  const keys = await withClient(DB_URL, async (c) =>
    (await c.query('SELECT token, id FROM licenses WHERE client_id = $1 ORDER BY id', [ownClientId])).rows.map((l: { token: string; id: number }) =>
      JSON.stringify({ key: l.token, fingerprint: `bench-device-${l.id}` }),
    ),
  )

  // EXPLAIN ANALYZE of the calls' queries, before the load (as a first customer meets the database)
  const now = new Date()
  const heavyClientId =
    heavy > 0 ? await withClient(DB_URL, async (c) => Number((await c.query('SELECT id FROM clients WHERE email = $1', [HEAVY_EMAIL])).rows[0].id)) : null
  // the page as the route reads PAGE_PATH's query
  const page = pageRequest({ type: 'nuitrack', offset: 0, limit: 50 })!
  const plans = [
    ...(await explain('page of 50 (its rows)', (db) => listLicenses(db, ownClientId, { platform: 'nuitrack', page, now }))),
    ...(await explain("the dashboard's counts", (db) => countLicenses(db, ownClientId, 'nuitrack', 'all', now))),
    ...(heavyClientId === null
      ? []
      : [
          ...(await explain(`page of 50 of ${HEAVY_LICENSES} (its rows)`, (db) => listLicenses(db, heavyClientId, { platform: 'nuitrack', page, now }))),
          ...(await explain(`the dashboard's counts of ${HEAVY_LICENSES}`, (db) => countLicenses(db, heavyClientId, 'nuitrack', 'all', now))),
        ]),
    ...(await explain('validate', (db) => findForValidation(db, [JSON.parse(keys[0]!) as { key: string; fingerprint: string }]))),
    ...(await explain('payment documents, first page', (db) => listTransactions(db, ownClientId, { limit: 50 }))),
    ...(await explain('payment documents, their count', (db) => countTransactions(db, ownClientId))),
    ...(await explain('renewal sweep: the due subscriptions', (db) => listDueSubscriptions(db, now, 500))),
    ...(await explain('/metrics: subscriptions by state', (db) => subscriptionFigures(db))),
    ...(await explain('/metrics: payments of the last 24 hours', (db) => paymentFigures(db))),
  ]
  for (const p of plans) console.log(`  EXPLAIN ${p.call}: ${p.ms} ms${p.seqScans.length ? `, Seq Scan on ${p.seqScans.join(', ')}` : ''}`)

  // the renewal sweep, before any server runs (a server's own renewal job would take the due ones)
  const sweep = await renewalSweep(env)
  console.log(`  renewal sweep: ${sweep.rows} renewed in ${sweep.runs} runs of the job, ${(sweep.ms / 1000).toFixed(1)} s`)
  if (sweep.rows !== due) throw new Error(`the sweep renewed ${sweep.rows} of ${due} due subscriptions`)

  const serverEnv = (port: number) => ({ ...env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', INVOICE_SELLER: SELLER })
  const serverArgs = ['apps/server/src/main.ts']
  const servers = [startProcess('server', process.execPath, serverArgs, serverEnv(PORT))]
  const bareProcess = startProcess('bare', process.execPath, ['scripts/bench-bare.ts'], { DATABASE_URL: DB_URL, PORT: String(BARE_PORT) })
  const base = `http://127.0.0.1:${PORT}`
  await waitFor(`${base}/api/health/`)
  await waitFor(`http://127.0.0.1:${BARE_PORT}/bare/health`)
  const cookie = await signIn(base, EMAIL, password)
  const heavyCookie = heavy > 0 ? await signIn(base, HEAVY_EMAIL, password) : null
  const check = (await (
    await fetch(`${base}/api/sdk/validate/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: keys[0] })
  ).json()) as {
    code?: string
  }
  if (check.code !== 'VALID') throw new Error(`validate answers ${JSON.stringify(check)}, not VALID`)
  await settled()
  const validateOpts = (origin: string, connections = CONNECTIONS): autocannon.Options => {
    let i = 0
    return {
      url: `${origin}/api/sdk/validate/`,
      method: 'POST',
      connections,
      headers: { 'content-type': 'application/json' },
      requests: [{ setupRequest: (req) => ({ ...req, body: keys[i++ % keys.length] }) }],
    }
  }
  const scansBefore = await seqScanCounts()
  const bareUrl = `http://127.0.0.1:${BARE_PORT}/bare/${ownClientId}`
  const bare1 = await measure('bare Fastify, one primary-key SELECT', { url: bareUrl })
  const validate = await measure('POST /api/sdk/validate/', validateOpts(base))
  const pageFigures = await measure(`GET ${PAGE_PATH} (${OWN_LICENSES} licenses)`, { url: `${base}${PAGE_PATH}`, headers: { cookie } })
  const heavyPage = heavyCookie
    ? await measure(`GET ${PAGE_PATH} (${HEAVY_LICENSES} licenses)`, { url: `${base}${PAGE_PATH}`, headers: { cookie: heavyCookie } })
    : null
  // what the payment documents screen reads: the first page, with the total
  const documents = await measure(`GET /api/transaction/?limit=50 (${OWN_TRANSACTIONS} transactions)`, {
    url: `${base}/api/transaction/?limit=50`,
    headers: { cookie },
  })
  const metrics = await measure('GET /metrics', { url: `${base}/metrics`, headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  const bare2 = await measure('bare Fastify, again', { url: bareUrl })
  const bare = (bare1.rps + bare2.rps) / 2

  let processes: ProcessRun[] | null = null
  if (last) {
    processes = []
    for (const port of SERVER_PORTS.slice(1)) {
      servers.push(startProcess(`server on ${port}`, process.execPath, serverArgs, serverEnv(port)))
      // a loaded two-core machine starts a third and fourth process slowly: two minutes at most
      await waitFor(`http://127.0.0.1:${port}/api/health/`, 1200)
      // warmed as the first one was by the calls above (its code compiled, its pool open), unmeasured
      const origin = `http://127.0.0.1:${port}`
      await autocannon({ ...validateOpts(origin), duration: DURATION / 2 })
      await autocannon({ url: `${origin}${PAGE_PATH}`, headers: { cookie }, connections: CONNECTIONS, duration: DURATION / 2 })
    }
    for (const n of [1, 2, 4]) {
      const origins = SERVER_PORTS.slice(0, n).map((p) => `http://127.0.0.1:${p}`)
      // the same connections in all, shared among the processes
      const each = Math.max(2, Math.ceil(CONNECTIONS / n))
      const calls: [string, (origin: string) => autocannon.Options][] = [
        ['POST /api/sdk/validate/', (o) => validateOpts(o, each)],
        [`GET ${PAGE_PATH}`, (o) => ({ url: `${o}${PAGE_PATH}`, headers: { cookie }, connections: each })],
      ]
      for (const [call, opts] of calls) {
        await new Promise((r) => setTimeout(r, SETTLE_MS))
        const [perProcess, db] = await watchDatabase(() =>
          Promise.all(origins.map((o, i) => measureQuiet(`${call}, process ${i + 1} of ${n}`, { duration: DURATION, ...opts(o) }))),
        )
        console.log(
          `  ${n} processes, ${call}: ${perProcess.map((f) => `${f.rps.toFixed(0)} req/s p99 ${f.p99} ms`).join(' | ')}; ` +
            `connections ≤ ${db.connectionsMax}, active ${db.activeMean.toFixed(1)} (≤ ${db.activeMax}), lock waits ≤ ${db.lockWaitsMax} in ${db.lockWaitSamples} of ${db.samples} samples, deadlocks ${db.deadlocks}`,
        )
        processes.push({ call, processes: n, perProcess, db })
      }
    }
  }
  await Promise.all([...servers, bareProcess].map(stopProcess))
  // the servers' connections are closed: their counts of sequential scans are reported
  await new Promise((r) => setTimeout(r, 1100))
  const scansAfter = await seqScanCounts()
  const seqScans = Object.fromEntries(
    BIG_TABLES.map((t) => [t, [(scansAfter[t]?.[0] ?? 0) - (scansBefore[t]?.[0] ?? 0), (scansAfter[t]?.[1] ?? 0) - (scansBefore[t]?.[1] ?? 0)]]),
  ) as Record<string, [number, number]>
  console.log(`  sequential scans during the calls: ${JSON.stringify(seqScans)}`)
  return {
    licenses,
    clients,
    heavy,
    generate: generate_,
    databaseBytes,
    bare,
    page: pageFigures,
    heavyPage,
    validate,
    documents,
    metrics,
    sweep,
    plans,
    seqScans,
    processes,
  }
}

/**
 * The renewal job's runs (runRenewals, 500 due subscriptions a run) until one finds nothing due, in
 * this process on an app built as the CLI builds it (its job loop off): the time of the runs only.
 */
async function renewalSweep(env: NodeJS.ProcessEnv) {
  const config = loadConfig({ ...process.env, ...env, NODE_ENV: 'production', INVOICE_SELLER: SELLER, LOG_LEVEL: 'warn' })
  const db = await openDb({ databaseUrl: DB_URL })
  const app = await buildApp({ config, db, runJobs: false })
  try {
    const started = performance.now()
    let runs = 0
    let rows = 0
    for (;;) {
      const counts = await runRenewals(app.ctx)
      runs++
      if (counts.error) throw new Error(`the renewal run failed on ${counts.error} subscriptions`)
      rows += counts.renewed ?? 0
      if (Object.values(counts).every((n) => !n)) break
    }
    return { rows, runs: runs - 1, ms: performance.now() - started }
  } finally {
    await app.close()
    await db.close()
  }
}

async function measureQuiet(name: string, opts: autocannon.Options): Promise<Figures> {
  const r = await autocannon(opts)
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, failed: r.errors + r.timeouts + r.non2xx }
}

export async function benchScale(): Promise<void> {
  const started = Date.now()
  if (!existsSync('apps/web/dist/index.html')) {
    console.log('building the web app (apps/web/dist is missing)')
    await runCommand('npm', ['run', '-s', 'build'], {})
  }
  const results: SizeResult[] = []
  try {
    for (const [i, size] of SIZES.entries()) results.push(await runSize(size, i === SIZES.length - 1))
  } finally {
    await withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`)).catch(() => undefined)
  }
  const minutes = ((Date.now() - started) / 60_000).toFixed(0)
  writeReport(results, minutes)
  console.log(`\nscale bench finished in ${minutes} min; written to docs/benchmarks.md (## Scale)`)
}

const ratio = (f: Figures, bare: number) => `${((f.rps / bare) * 100).toFixed(0)} %`
const cell = (f: Figures | null, bare: number) => (f ? `p99 ${f.p99} ms, ${ratio(f, bare)}` : '—')
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`

function writeReport(results: SizeResult[], minutes: string) {
  const largest = results[results.length - 1]!
  const rows = results.map((r) => {
    const gen = r.generate.reduce((s, g) => s + g.ms, 0) / 1000
    return `| ${r.licenses.toLocaleString('en')} | ${r.clients.toLocaleString('en')} | ${gen.toFixed(0)} s, ${mb(r.databaseBytes)} | ${r.bare.toFixed(0)} | ${cell(r.page, r.bare)} | ${cell(r.heavyPage, r.bare)} | ${ratio(r.validate, r.bare)} (p99 ${r.validate.p99} ms) | ${cell(r.documents, r.bare)} | ${cell(r.metrics, r.bare)} | ${r.sweep.rows}: ${(r.sweep.ms / 1000).toFixed(1)} s, ${(r.sweep.rows / (r.sweep.ms / 1000)).toFixed(0)} rows/s |`
  })
  const planCalls = [...new Set(results.flatMap((r) => r.plans.map((p) => p.call)))]
  const planRows = planCalls.map(
    (call) =>
      `| ${call} | ${results
        .map((r) => {
          const ps = r.plans.filter((p) => p.call === call)
          if (!ps.length) return '—'
          const seq = [...new Set(ps.flatMap((p) => p.seqScans))]
          return `${ps.map((p) => p.ms.toFixed(2)).join(' + ')}${seq.length ? ` (Seq Scan on ${seq.join(', ')})` : ''}`
        })
        .join(' | ')} |`,
  )
  const seqPlans = largest.plans.filter((p) => p.seqScans.length)
  const stepRows = [...new Set(results.flatMap((r) => r.generate.map((g) => g.name)))].map(
    (name) =>
      `| ${name} | ${results
        .map((r) => {
          const g = r.generate.find((x) => x.name === name)
          return g ? `${(g.ms / 1000).toFixed(1)} s${g.rows ? ` (${g.rows.toLocaleString('en')} rows)` : ''}` : '—'
        })
        .join(' | ')} |`,
  )
  const procs = largest.processes ?? []
  const procRows = procs.map((p) => {
    const total = p.perProcess.reduce((s, f) => s + f.rps, 0)
    const d = p.db
    return `| ${p.call} | ${p.processes} | ${p.perProcess.map((f) => `${f.rps.toFixed(0)} (p99 ${f.p99} ms${f.failed ? `, ${f.failed} failed` : ''})`).join('; ')} | ${total.toFixed(0)} | ${d.connectionsMax} | ${d.activeMean.toFixed(1)} / ${d.activeMax} | ${d.idleInTxMax} | ${d.lockWaitsMax} (${d.lockWaitSamples} of ${d.samples}) | ${d.commits} / ${d.rollbacks} / ${d.deadlocks} |`
  })
  const scans = results.map(
    (r) =>
      `- ${r.licenses.toLocaleString('en')}: ${
        Object.entries(r.seqScans)
          .filter(([, [n]]) => n > 0)
          .map(([t, [n, rows]]) => `${t} ${n} scans, ${rows.toLocaleString('en')} rows read`)
          .join('; ') || 'none'
      }`,
  )
  const section = `## Scale

Made by \`npm run bench -- --scale\` (scripts/bench-scale.ts) on ${new Date().toISOString().slice(0, 10)}, in one run of ${minutes} minutes:
one database per size, filled with set-based SQL; autocannon, ${CONNECTIONS} connections, ${DURATION} s per call,
against the real server (NODE_ENV=production) on the local PostgreSQL, beside the bare Fastify route doing one
primary-key SELECT (scripts/bench-bare.ts) measured in the same run: the machine's floor, whose req/s is
in the table ("bare"); the other figures are p99 and throughput as a share of that floor. Two cores, shared
with other work (the floor moves between sizes with the machine's load, hence the ratios).

The measured customer is the same at every size: ${OWN_LICENSES} licenses, each with a device, and ${OWN_TRANSACTIONS.toLocaleString('en')} paid
transactions. Around it: clients with a default group each (100 at the smallest size, 100,000 above), most
holding a few licenses and some hundreds (license k of n goes to client ⌊clients × (k/n)²⌋), one in
100,000 licenses held by a client with ${HEAVY_LICENSES.toLocaleString('en')} ("big client"); a device on every other license, a
subscription (renewing from the balance) on one in five, ${DUE} of them due (100 at the smallest size); one paid transaction a license.
The sweep is the renewal job's runs (runRenewals, 500 due subscriptions a run, each renewed from the
balance in a transaction of its own) until a run finds nothing due, on an app built as the CLI's
\`subscriptions:renew\` builds it, before any server runs.

| licenses | clients | generated in, database | bare req/s | page of 50 (${OWN_LICENSES}) | page of 50 (big client, ${HEAVY_LICENSES.toLocaleString('en')}) | validate / bare | payment documents, first page of 50 (${OWN_TRANSACTIONS.toLocaleString('en')}) | GET /metrics | renewal sweep (due) |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Generating, step by step:

| step | ${results.map((r) => r.licenses.toLocaleString('en')).join(' | ')} |
|---|${results.map(() => '---|').join('')}
${stepRows.join('\n')}

EXPLAIN (ANALYZE, BUFFERS) of the queries behind the calls, run by the app's own query functions on a
fresh connection before the load (ms of execution; a Seq Scan on a table that grows is named):

| query | ${results.map((r) => r.licenses.toLocaleString('en')).join(' | ')} |
|---|${results.map(() => '---|').join('')}
${planRows.join('\n')}

Sequential scans the servers made on the growing tables during the calls (pg_stat_user_tables):

${scans.join('\n')}
${
  seqPlans.length
    ? `\nThe plans with a Seq Scan at ${largest.licenses.toLocaleString('en')} licenses:\n\n${seqPlans.map((p) => `${p.call}:\n\n\`\`\`\n${p.text}\n\`\`\``).join('\n\n')}\n`
    : ''
}
${
  procRows.length
    ? `### Several processes at ${largest.licenses.toLocaleString('en')} licenses

One, two and four server processes on the one database, each loaded at once by its own autocannon
instance (${CONNECTIONS} connections shared among them, at least 2 each), ${DURATION} s. Meanwhile pg_stat_activity
and pg_locks of the database are sampled every 200 ms (the sampler's own connection left out), and
pg_stat_database's commits, rollbacks and deadlocks are counted.

| call | processes | req/s of each (p99) | total req/s | connections (most) | active backends mean / most | idle in transaction (most) | lock waits (most, samples with any) | commits / rollbacks / deadlocks |
|---|---|---|---|---|---|---|---|---|
${procRows.join('\n')}
`
    : ''
}${process.env.BENCH_SCALE_NOTES ?? ''}`
  const old = existsSync('docs/benchmarks.md') ? readFileSync('docs/benchmarks.md', 'utf8') : '# Benchmarks\n'
  const at = old.indexOf('\n## Scale\n')
  const next = at < 0 ? -1 : old.indexOf('\n## ', at + 1)
  const text = at < 0 ? `${old.trimEnd()}\n\n${section}` : `${old.slice(0, at + 1)}${section}${next < 0 ? '' : old.slice(next)}`
  writeFileSync('docs/benchmarks.md', text.trimEnd() + '\n')
}
