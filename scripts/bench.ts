/**
 * `npm run bench`: the performance goals' figures from one run, written to docs/benchmarks.md (its
 * hand-kept "## History" section stays as it was).
 *
 * - autocannon against the real server (NODE_ENV=production, the built web app) on PostgreSQL, beside
 *   a bare Fastify route doing one primary-key SELECT on the same database (in a process of its own,
 *   scripts/bench-bare.ts, and inside this one as before), in the same run: the whole
 *   license list, a page of 50, a repeat fetch answered 304 from its ETag, the device API's validate;
 * - the same validate and page calls through a small round-robin proxy, to one and then to two
 *   server processes on the same database;
 * - the dashboard with 1,000 licenses in Chromium; Lighthouse (mobile) on /app/login/ and the dashboard;
 * - the bundle sizes (scripts/bundle-size.ts).
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/portal_bench) is dropped and made
 * anew. BENCH_SECONDS (10) per route, BENCH_CONNECTIONS (10), BENCH_PORT (3311: the server; +1 bare,
 * +2 second server, +3 proxy, +4 the TLS front of the Lighthouse runs), BENCH_TIMEOUT (600 s: everything is stopped after it),
 * BENCH_SKIP=lighthouse,dashboard,two-process to leave sections out while developing; BENCH_LH_RUNS (5)
 * Lighthouse runs per page, the median reported; BENCH_PROF=DIR: the
 * server processes write CPU profiles (node --cpu-prof) into DIR as they stop; BENCH_LH_DIR=DIR: Lighthouse's
 * whole reports go there.
 * `--only list`: just the page of 50 and the 304 repeat fetch (between the two bare runs); `--only validate`:
 * just validate between them; `--only browser`: the dashboard timing and Lighthouse. Printed and not written to docs/benchmarks.md: a quick before/after.
 * `--scale`: the growth bench instead (scripts/bench-scale.ts): the same calls at 1,000, 100,000 and
 * 1,000,000 licenses, written to docs/benchmarks.md's "## Scale" section.
 * Every process it starts (servers, proxy, Chromium) is ended on success, failure or a signal.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { BUDGETS, formatReport, kb, measureBundles, type BundleReport } from './bundle-size.ts'
import { floorApp } from './bench-floor.ts'
import { benchScale } from './bench-scale.ts'
import {
  dashboardLoad,
  type DashboardTimes,
  benchEnv,
  installExitGuards,
  isStopping,
  onCleanup,
  portalCli,
  roundRobinProxy,
  runCommand,
  startProcess,
  stopProcess,
  stopAll,
  tlsFront,
  waitFor,
  type LighthouseFigures,
} from './bench-tools.ts'

const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_bench'
const DB_NAME = new URL(DB_URL).pathname.slice(1)
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? Object.assign(new URL(DB_URL), { pathname: '/postgres' }).toString()
const PORT = Number(process.env.BENCH_PORT ?? 3311)
const BARE_PORT = PORT + 1
const PORT_2 = PORT + 2
const PROXY_PORT = PORT + 3
const TLS_PORT = PORT + 4
const IN_BENCH_BARE_PORT = PORT + 5
/** a throughput as a share of another, as the report writes it ("77 %") */
const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(0)} %`
const DURATION = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const SCALE = process.argv.includes('--scale')
const TIMEOUT = Number(process.env.BENCH_TIMEOUT ?? (SCALE ? 3600 : 600))
const SETTLE_MS = 1500
const SKIP = new Set((process.env.BENCH_SKIP ?? '').split(',').filter(Boolean))
const onlyAt = process.argv.indexOf('--only')
const ONLY = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined
if (ONLY !== undefined && !['list', 'validate', 'browser'].includes(ONLY)) throw new Error(`--only ${ONLY}: 'list', 'validate' and 'browser' are known`)
/** whether this run measures a part: every part without --only; with it, the part named (the whole list only in a full run) */
const runs = (part: 'list' | 'validate' | 'browser' | 'whole list') => ONLY === undefined || ONLY === part
const EMAIL = 'bench@example.com'
const LICENSES = 1000
const PAGE_PATH = '/api/license/?type=nuitrack&offset=0&limit=50'
const LIST_PATH = '/api/license/'

if (!/^[a-z_][a-z0-9_]*$/.test(DB_NAME)) throw new Error(`unexpected database name ${DB_NAME}`)

interface Figures {
  name: string
  rps: number
  p50: number
  p99: number
  errors: number
  non2xx: number
  /** answers by status code */
  statuses: Record<string, number>
  total: number
}

async function measure(name: string, opts: autocannon.Options): Promise<Figures> {
  // the requests a previous call left running on the server (a list takes long under load) finish first
  await new Promise((r) => setTimeout(r, SETTLE_MS))
  const r = await autocannon({ duration: DURATION, connections: CONNECTIONS, ...opts })
  const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, (s as { count: number }).count]))
  const f: Figures = {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    statuses,
    total: r.requests.total,
  }
  console.log(`${name}: ${f.rps.toFixed(0)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, errors ${f.errors}, statuses ${JSON.stringify(statuses)}`)
  return f
}

interface BundleFigures {
  report: BundleReport
  text: string
}

/** what the report is made of; a section left out (BENCH_SKIP) or failed stays null with its reason */
interface Results {
  api: Figures[]
  bare: number
  list: Figures
  page: Figures
  notModified: Figures | null
  notModifiedReason?: string
  validate: Figures
  /** the bare route inside the load generator's process, as the floor was measured before 2026-11-26 */
  inBenchBare: Figures | null
  twoProcess: { oneDirect: Figures[]; oneProxied: Figures[]; twoProxied: Figures[] } | null
  dashboard: DashboardTimes | null
  dashboardReason?: string
  lighthouse: LighthouseFigures[] | null
  lighthouseReason?: string
  bundles: BundleFigures | null
  bundlesReason: string
}

async function main() {
  installExitGuards(TIMEOUT)
  if (SCALE) return benchScale()
  const started = Date.now()
  if (!existsSync('apps/web/dist/index.html')) {
    console.log('building the web app (apps/web/dist is missing)')
    await runCommand('npm', ['run', '-s', 'build'], {})
  }
  const admin = new pg.Client({ connectionString: ADMIN_URL })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`)
  await admin.query(`CREATE DATABASE ${DB_NAME}`)
  await admin.end()

  const env = benchEnv(DB_URL, 'bench')
  const cli = (...args: string[]) => portalCli(env, ...args)
  await cli('migrate')
  const seeded = await cli('demo:seed', EMAIL)
  const password = /Password: (\S+)/.exec(seeded)![1]!
  await cli('licenses:bulk', EMAIL, String(LICENSES))

  const BENCH_SELLER = JSON.stringify({ name: 'Bench Ltd', address: '1 Main St', tax_id: 'EIN 12-3456789', email: 'billing@bench.example' })
  const serverEnv = (port: number) => ({ ...env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', INVOICE_SELLER: BENCH_SELLER })
  const serverArgs = [...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_PROF] : []), 'apps/server/src/main.ts']
  const server = startProcess('server', process.execPath, serverArgs, serverEnv(PORT))
  // the floor: bare Fastify with one primary-key SELECT, in a process of its own as the server is
  startProcess('bare', process.execPath, ['scripts/bench-bare.ts'], { DATABASE_URL: DB_URL, PORT: String(BARE_PORT) })
  // and the same route inside this process, beside the load generator, as runs before 2026-11-26 had
  // it: no process hop between the two, which on a machine with costly context switches flatters it
  const inBench = floorApp(DB_URL)
  await inBench.listen({ port: IN_BENCH_BARE_PORT, host: '127.0.0.1' })
  onCleanup(() => inBench.close())

  const base = `http://127.0.0.1:${PORT}`
  await waitFor(`${base}/api/health/`)
  await waitFor(`http://127.0.0.1:${BARE_PORT}/bare/health`)
  // sign in like a browser: a CSRF cookie first, then the session cookie
  const first = await fetch(`${base}/api/health/`)
  const csrf = /csrftoken=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1]!
  const signin = await fetch(`${base}/api/client/signin/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrftoken': csrf, cookie: `csrftoken=${csrf}` },
    body: JSON.stringify({ username: EMAIL, password }),
  })
  if (!signin.ok) throw new Error(`sign-in failed: ${await signin.text()}`)
  const setCookies = signin.headers.getSetCookie()
  const cookies = setCookies.map((c) => c.split(';')[0]).join('; ')
  // every license, a page of 200 (the API's largest) at a time: the list without paging stops at the newest 200
  const licenses: { id: number; token: string }[] = []
  for (;;) {
    const res = await fetch(`${base}${LIST_PATH}?offset=${licenses.length}&limit=200`, { headers: { cookie: cookies } })
    const page = ((await res.json()) as { licenses: { id: number; token: string }[] }).licenses
    licenses.push(...page)
    if (page.length < 200) break
  }
  if (licenses.length !== LICENSES) throw new Error(`expected ${LICENSES} licenses, got ${licenses.length}`)

  // bind one device to every license, so validation answers VALID
  const keys = licenses.map((l) => JSON.stringify({ key: l.token, fingerprint: `bench-device-${l.id}` }))
  await db(async (c) => {
    await c.query(`INSERT INTO devices (license_id, kind, fingerprint, last_seen) SELECT id, 'online', 'bench-device-' || id, now() FROM licenses`)
    await c.query('ANALYZE')
  })
  const check = await fetch(`${base}/api/sdk/validate/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: keys[0] })
  const checked = (await check.json()) as { code?: string }
  if (checked.code !== 'VALID') throw new Error(`validate answers ${JSON.stringify(checked)}, not VALID`)

  const clientId = await db(async (c) => (await c.query('SELECT id FROM clients WHERE email = $1', [EMAIL])).rows[0].id as number)
  const validateOpts = (origin: string): autocannon.Options => {
    let i = 0
    return {
      url: `${origin}/api/sdk/validate/`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      requests: [{ setupRequest: (req) => ({ ...req, body: keys[i++ % keys.length] }) }],
    }
  }
  const signedIn = { cookie: cookies }

  // ---- the browser, first: on the server as a customer meets it, before the load runs below leave
  // PostgreSQL with dead rows to vacuum and the server with a full heap, which slowed the dashboard
  // several times over in one run (docs/benchmarks.md, History) ----
  let dashboard: DashboardTimes | null = null
  let dashboardReason: string | undefined
  if (!SKIP.has('dashboard') && runs('browser')) {
    try {
      dashboard = await dashboardLoad(base, setCookies, LICENSES)
    } catch (err) {
      dashboardReason = `failed: ${(err as Error).message.split('\n')[0]}`
      console.error(`dashboard timing ${dashboardReason}`)
    }
  } else dashboardReason = 'skipped'
  let lighthouse: LighthouseFigures[] | null = null
  let lighthouseReason: string | undefined
  if (!SKIP.has('lighthouse') && runs('browser')) {
    try {
      // each page as a deployed portal serves it (https through a TLS front, where browsers speak
      // HTTP/2: docs/deploy.md) and as `npm start` serves it (plain http/1.1)
      // without openssl (or its port) the plain-http runs still run, and the report says why the others did not
      const front = await tlsFront(TLS_PORT, PORT, env.DATA_DIR).catch((err: Error) => {
        // with figures, the reason is printed under them
        lighthouseReason = `The TLS front did not start (${err.message.split('\n')[0]}): no HTTP/2 runs.`
        console.error(lighthouseReason)
        return null
      })
      const pages = [front, base]
        .filter((o) => o !== null)
        .flatMap((origin) => [
          { name: '/app/login/', url: `${origin}/app/login/` },
          { name: `/app/nuitrack/dashboard/ (${LICENSES} licenses)`, url: `${origin}/app/nuitrack/dashboard/`, setCookies },
        ])
      // in a process of its own (scripts/bench-lighthouse.ts), away from the load generator
      const out = join(env.DATA_DIR, 'lighthouse.json')
      const printed = await runCommand(process.execPath, [join(import.meta.dirname, 'bench-lighthouse.ts')], {
        BENCH_LH_PAGES: JSON.stringify(pages),
        BENCH_LH_OUT: out,
      })
      process.stdout.write(printed)
      lighthouse = JSON.parse(readFileSync(out, 'utf8')) as LighthouseFigures[]
    } catch (err) {
      lighthouseReason = `failed: ${(err as Error).message.split('\n')[0]}`
      console.error(`Lighthouse ${lighthouseReason}`)
    }
  } else lighthouseReason = 'skipped'

  if (ONLY === 'browser') {
    console.log(`--only browser: nothing written; bench finished in ${((Date.now() - started) / 1000).toFixed(0)} s`)
    return
  }
  // The calls below run against a server started afresh, as the bare route's process is: the one
  // that served the browser runs answered validate markedly slower (docs/benchmarks.md, History).
  // Sessions and data are in the database.
  if (dashboard || lighthouse) {
    await stopProcess(server)
    startProcess('server', process.execPath, serverArgs, serverEnv(PORT))
    await waitFor(`${base}/api/health/`)
  }
  const api: Figures[] = []
  const bareUrl = `http://127.0.0.1:${BARE_PORT}/bare/${clientId}`
  api.push(await measure('bare Fastify, one primary-key SELECT', { url: bareUrl }))
  // validate beside the bare route, before the list calls leave garbage and JIT work behind them
  const validate = runs('validate') ? await measure('POST /api/sdk/validate/', validateOpts(base)) : null
  if (validate) api.push(validate)
  const inBenchBare = runs('validate')
    ? await measure("bare Fastify inside the load generator's process (the floor before 2026-11-26)", {
        url: `http://127.0.0.1:${IN_BENCH_BARE_PORT}/bare/${clientId}`,
      })
    : null
  if (inBenchBare) api.push(inBenchBare)
  const list = runs('whole list')
    ? await measure(`GET ${LIST_PATH} (the list without paging: the newest 200 of ${LICENSES} licenses)`, { url: `${base}${LIST_PATH}`, headers: signedIn })
    : null
  if (list) api.push(list)
  if (runs('whole list'))
    api.push(await measure(`GET ${LIST_PATH} (the list without paging), 1 connection`, { url: `${base}${LIST_PATH}`, headers: signedIn, connections: 1 }))
  const page = runs('list') ? await measure(`GET ${PAGE_PATH} (page of 50 of ${LICENSES})`, { url: `${base}${PAGE_PATH}`, headers: signedIn }) : null
  if (page) api.push(page)
  let notModified: Figures | null = null
  let notModifiedReason: string | undefined
  // the ETag of the list as it is now: the devices bound above made the first fetch's tag stale
  const etag = runs('list') ? (await fetch(`${base}${LIST_PATH}`, { headers: signedIn })).headers.get('etag') : null
  if (etag) {
    notModified = await measure(`GET ${LIST_PATH} again with If-None-Match (304)`, {
      url: `${base}${LIST_PATH}`,
      headers: { ...signedIn, 'if-none-match': etag },
    })
    api.push(notModified)
  } else if (runs('list')) {
    notModifiedReason = 'the list answers no ETag yet'
    console.log(`repeat fetch: ${notModifiedReason}`)
  }
  // a second bare run at the end shows how much the machine drifted during the run
  api.push(await measure('bare Fastify, again', { url: bareUrl }))
  const bareRps = (api[0]!.rps + api[api.length - 1]!.rps) / 2
  if (!validate || !list || !page) {
    if (validate && inBenchBare)
      console.log(
        `validate / bare: ${percent(validate.rps, bareRps)} (/ the bare route in the load generator's process: ${percent(validate.rps, inBenchBare.rps)})`,
      )
    console.log(`--only ${ONLY}: nothing written; bench finished in ${((Date.now() - started) / 1000).toFixed(0)} s`)
    return
  }

  // ---- several instances: the same calls through a round-robin proxy, to one and to two processes ----
  let twoProcess: Results['twoProcess'] = null
  if (!SKIP.has('two-process')) {
    const proxy = `http://127.0.0.1:${PROXY_PORT}`
    const proxied = await roundRobinProxy(PROXY_PORT, [PORT])
    const oneProxied = [await measure('one process via proxy: POST /api/sdk/validate/', validateOpts(proxy))]
    oneProxied.push(await measure(`one process via proxy: GET ${PAGE_PATH}`, { url: `${proxy}${PAGE_PATH}`, headers: signedIn }))
    proxied.closeAllConnections()
    await new Promise((r) => proxied.close(r))
    startProcess('second server', process.execPath, serverArgs, serverEnv(PORT_2))
    await waitFor(`http://127.0.0.1:${PORT_2}/api/health/`)
    await roundRobinProxy(PROXY_PORT, [PORT, PORT_2])
    // the session made on the first process is good on the second: the sessions are in the database
    const onSecond = await fetch(`http://127.0.0.1:${PORT_2}${PAGE_PATH}`, { headers: signedIn })
    if (!onSecond.ok) throw new Error(`the second process refused the session: ${onSecond.status}`)
    const twoProxied = [await measure('two processes via proxy: POST /api/sdk/validate/', validateOpts(proxy))]
    twoProxied.push(await measure(`two processes via proxy: GET ${PAGE_PATH}`, { url: `${proxy}${PAGE_PATH}`, headers: signedIn }))
    twoProcess = { oneDirect: [validate, page], oneProxied, twoProxied }
  }

  // ---- bundle sizes (scripts/bundle-size.ts): the build's first loads and the bytes a browser receives ----
  let bundles: BundleFigures | null = null
  let bundlesReason = 'not measured'
  try {
    const measured = await measureBundles({ baseUrl: base, account: { email: EMAIL, password } })
    bundles = { report: measured, text: formatReport(measured) }
  } catch (err) {
    bundlesReason = `failed: ${(err as Error).message.split('\n')[0]}`
    console.error(`bundle sizes ${bundlesReason}`)
  }

  if (isStopping()) throw new Error('stopped before the end: docs/benchmarks.md left as it was')
  report({
    api,
    bare: bareRps,
    list,
    page,
    notModified,
    notModifiedReason,
    validate,
    inBenchBare,
    twoProcess,
    dashboard,
    dashboardReason,
    lighthouse,
    lighthouseReason,
    bundles,
    bundlesReason,
  })
  console.log(`bench finished in ${((Date.now() - started) / 1000).toFixed(0)} s`)

  async function db<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
    const c = new pg.Client({ connectionString: DB_URL })
    await c.connect()
    try {
      return await fn(c)
    } finally {
      await c.end()
    }
  }
}

const mark = (pass: boolean | null) => (pass === null ? '—' : pass ? 'pass' : '**miss**')
const median = (xs: number[]) => xs[Math.floor(xs.length / 2)]!

function report(r: Results) {
  const pct = (f: Figures) => percent(f.rps, r.bare)
  const apiRow = (f: Figures) => `| ${f.name} | ${f.rps.toFixed(0)} | ${f.p50} | ${f.p99} | ${f.errors + f.non2xx - (f.statuses['304'] ?? 0)} | ${pct(f)} |`
  const validateRatio = (r.validate.rps / r.bare) * 100
  const goals: [string, string, string, boolean | null][] = [
    [`list page of 50 from ${LICENSES} licenses, ${CONNECTIONS} connections: p99`, `${r.page.p99} ms`, 'under 50 ms', r.page.p99 < 50],
    r.notModified
      ? [
          `list without paging (newest 200 of ${LICENSES}), repeat fetch with If-None-Match: p99 (304 answers)`,
          `${r.notModified.p99} ms (${r.notModified.statuses['304'] ?? 0} of ${r.notModified.total} were 304)`,
          'under 5 ms, all 304',
          r.notModified.p99 < 5 && (r.notModified.statuses['304'] ?? 0) === r.notModified.total,
        ]
      : [`list without paging (newest 200 of ${LICENSES}), repeat fetch with If-None-Match: p99`, r.notModifiedReason ?? '', 'under 5 ms', false],
    [
      'POST /api/sdk/validate/ throughput / bare one-SELECT route (each in a process of its own)',
      `${pct(r.validate)}${r.inBenchBare ? ` (${percent(r.validate.rps, r.inBenchBare.rps)} of the bare route inside the load generator's process)` : ''}`,
      '75 % or more',
      validateRatio >= 75,
    ],
    r.dashboard
      ? [
          `dashboard with ${LICENSES} licenses interactive: median in the page (the harness's figure; the harness alone)`,
          `${r.dashboard.page.length ? `${median(r.dashboard.page)} ms` : 'not recorded'} (${median(r.dashboard.harness)} ms; ${median(r.dashboard.floor)} ms)`,
          'under 250 ms',
          r.dashboard.page.length ? median(r.dashboard.page) < 250 : null,
        ]
      : [`dashboard with ${LICENSES} licenses interactive: median`, r.dashboardReason ?? '', 'under 250 ms', null],
  ]
  for (const l of r.lighthouse ?? []) {
    for (const [label, v] of [
      ['performance', l.performance],
      ['accessibility', l.accessibility],
      ['best practices', l.bestPractices],
    ] as const) {
      goals.push([`Lighthouse (mobile) ${label}, ${l.page} over ${l.protocol}`, String(v), '95 or more', v >= 95])
    }
  }
  if (!r.lighthouse) goals.push(['Lighthouse (mobile) performance, accessibility, best practices', r.lighthouseReason ?? '', '95 or more each', null])
  const gz = (page: string) => r.bundles?.report.pages.find((p) => p.page === page)?.js.gzip
  const [gzLogin, gzDashboard] = [gz('login'), gz('dashboard')]
  goals.push(
    gzLogin !== undefined && gzDashboard !== undefined
      ? [
          'first-load JS, gzipped: login / dashboard',
          `${kb(gzLogin)} / ${kb(gzDashboard)}`,
          `at most ${kb(BUDGETS.gzipJs.login)} / ${kb(BUDGETS.gzipJs.dashboard)}`,
          gzLogin <= BUDGETS.gzipJs.login && gzDashboard <= BUDGETS.gzipJs.dashboard,
        ]
      : ['first-load JS, gzipped: login / dashboard', r.bundlesReason, `at most ${kb(BUDGETS.gzipJs.login)} / ${kb(BUDGETS.gzipJs.dashboard)}`, null],
  )

  const two = r.twoProcess
  const twoTable = two
    ? `## Several instances

The same calls through a small round-robin proxy (node:http with keep-alive connections, in the
script): first to the one process, then to two server processes on the same database. "Direct" is the
one-process figure above, without the proxy. On 2 cores the load generator, the proxy, both servers
and PostgreSQL share the CPUs, so a second process cannot add capacity here; the run shows that two
processes serve the same calls correctly side by side (sessions, rate-limit counts and last-seen
times are in the database) and what the proxy hop costs.

| call | one process, direct | one process via proxy | two processes via proxy |
|---|---|---|---|
${[0, 1]
  .map((i) => {
    const cell = (f: Figures) => `${f.rps.toFixed(0)} req/s, p99 ${f.p99} ms${f.errors + f.non2xx ? `, ${f.errors + f.non2xx} failed` : ''}`
    return `| ${i === 0 ? 'POST /api/sdk/validate/' : `GET ${PAGE_PATH}`} | ${cell(two.oneDirect[i]!)} | ${cell(two.oneProxied[i]!)} | ${cell(two.twoProxied[i]!)} |`
  })
  .join('\n')}
`
    : '## Several instances\n\nSkipped in this run.\n'

  const lh = r.lighthouse
    ? `## Lighthouse

Lighthouse ${lighthouseVersion()} (default mobile profile: emulated phone, simulated slow 4G and 4× CPU
slow-down) through its Node API on Debian's Chromium, against the production server on loopback, each
page twice: over https through a TLS front speaking HTTP/2 (h2), as a deployed portal is reached
(docs/deploy.md's nginx, \`listen 443 ssl http2\`: the front is a few lines of node:http2 in the script,
with a certificate made for the run), and over plain http/1.1, as \`npm start\` serves it. The protocol
is the one Lighthouse saw the page come over. Lighthouse simulates the slow network from the requests
it saw: over http/1.1 the page's 20-odd requests queue for six connections, each costing round trips
on the simulated 150 ms link; over h2 they share one. The dashboard is signed in (the sign-in's
cookies in the browser's cookie jar).

Each page runs ${r.lighthouse[0]?.runs.length ?? 0} times (\`BENCH_LH_RUNS\`): the row is the run of median performance, and
"runs" lists every run's performance score (on 2 busy cores it moves by several points from run to run).

| page | protocol | performance | runs | accessibility | best practices | FCP ms | LCP ms | TBT ms | CLS |
|---|---|---|---|---|---|---|---|---|---|
${r.lighthouse.map((l) => `| ${l.page} | ${l.protocol} | ${l.performance} | ${l.runs.join(', ')} | ${l.accessibility} | ${l.bestPractices} | ${l.fcp} | ${l.lcp} | ${l.tbt} | ${l.cls} |`).join('\n')}

What costs points (category: audit, the points it costs in its category):

${r.lighthouse.map((l) => `- ${l.page} over ${l.protocol}: ${l.losses.length ? l.losses.join('; ') : 'nothing'}`).join('\n')}

What Lighthouse says would make the pages faster:

${r.lighthouse.map((l) => `- ${l.page} over ${l.protocol}: ${l.savings.length ? l.savings.join('; ') : 'nothing'}`).join('\n')}
${r.lighthouseReason ? `\n${r.lighthouseReason}\n` : ''}`
    : `## Lighthouse\n\n${r.lighthouseReason}\n`

  const text = `# Benchmarks

Made by \`npm run bench\` (scripts/bench.ts) on ${new Date().toISOString().slice(0, 10)}, in one run: autocannon,
${CONNECTIONS} connections, ${DURATION} s per call, against the real server (NODE_ENV=production, the built web
app) on the local PostgreSQL, beside a bare Fastify route doing one primary-key SELECT on the same
database, in a process of its own as the server is (scripts/bench-bare.ts). The machine: 2 cores; the load
generator, the server and PostgreSQL share them, so absolute figures are low and the ratio is the figure to
watch. Ratios are against the mean of the two bare runs. Runs before 2026-11-26 served the bare route from
inside the load generator's process: no process hop between the two, which flatters it where context
switches are costly (this machine) and handicaps it where the load generator's CPU is the limit; that
route is measured once more here, and the validate row names its ratio too.
The browser part (the dashboard's timing, then Lighthouse in a process of its own) runs first, on the
server as a customer meets it; the calls then run against a server started afresh, as the bare route's
process is (the server that had served the browser runs answered validate markedly slower; History
below).
No test asserts a timing: these figures are measured here only.

## Goals

| goal | measured | target | |
|---|---|---|---|
${goals.map(([g, m, t, p]) => `| ${g} | ${m} | ${t} | ${mark(p)} |`).join('\n')}

## API, one process

| call | req/s | p50 ms | p99 ms | errors + failed | of bare |
|---|---|---|---|---|---|
${r.api.map(apiRow).join('\n')}

The list without paging is the newest 200 of the ${LICENSES} licenses (the API's cap); the page is \`${PAGE_PATH}\`; the repeat fetch sends the ETag of a
first fetch in If-None-Match (a 304 counts as answered, not failed). Validate sends each of the
${LICENSES} license keys with its bound device in turn (every answer VALID).

${twoTable}
## Dashboard

${
  r.dashboard
    ? `Dashboard with ${LICENSES} licenses, from navigation until the first 20 rows show and a "Show 50 more" click is
answered, in Chromium at 1280×900 (5 loads after 3 warm-up loads), measured before the API load runs (as Lighthouse is).
In the page itself (the goal's figure; performance.now, marked in the page once the frame that shows the texts is
painted: navigation until the first 20 rows, plus the click until the 70 rows): ${r.dashboard.page.join(', ')} ms,
median ${r.dashboard.page.length ? median(r.dashboard.page) : '–'} ms. As the test harness sees it, from Node (Playwright's
round trips and its click's checks included): ${r.dashboard.harness.join(', ')} ms, median ${median(r.dashboard.harness)} ms.
The same harness against a page that answers at once (served by the bench): ${r.dashboard.floor.join(', ')} ms, median
${median(r.dashboard.floor)} ms, the part of the harness's figure that is the harness.`
    : (r.dashboardReason ?? '')
}

${lh}
## Bundles

${r.bundles ? `From scripts/bundle-size.ts (measureBundles):\n\n\`\`\`\n${r.bundles.text}\n\`\`\`` : `Not measured in this run: ${r.bundlesReason}.`}
`
  writeFileSync('docs/benchmarks.md', text + (process.env.BENCH_NOTES ?? '') + keptHistory())
  console.log('\nwritten to docs/benchmarks.md')
}

/** The file's "## History" section, kept by hand across runs: what changed the figures, and by how much. */
function keptHistory(): string {
  const old = existsSync('docs/benchmarks.md') ? readFileSync('docs/benchmarks.md', 'utf8') : ''
  const at = old.indexOf('\n## History')
  return at < 0 ? '' : old.slice(at)
}

function lighthouseVersion() {
  try {
    return (JSON.parse(readFileSync('node_modules/lighthouse/package.json', 'utf8')) as { version: string }).version
  } catch {
    return ''
  }
}

main()
  .then(
    async () => {
      await stopAll()
      process.exit(0)
    },
    async (err) => {
      console.error(err)
      await stopAll()
      process.exit(1)
    },
  )
  .catch(() => process.exit(1))
