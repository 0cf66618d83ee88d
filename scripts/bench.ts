/**
 * `npm run bench`: autocannon against the real server on PostgreSQL, beside a bare Fastify route
 * doing one primary-key SELECT on the same database, in the same run. Writes docs/benchmarks.md.
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/portal_bench) is dropped and made anew.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import Fastify from 'fastify'
import pg from 'pg'

const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const DB_NAME = 'portal_bench'
const DB_URL = process.env.BENCH_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/${DB_NAME}`
const PORT = 3311
const BARE_PORT = 3312
const DURATION = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const EMAIL = 'bench@example.com'
const LICENSES = 1000

const run = (cmd: string, args: string[], env: NodeJS.ProcessEnv) =>
  new Promise<string>((resolve, reject) => {
    const p = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    p.stdout.on('data', (d) => (out += d))
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}`))))
  })

async function waitFor(url: string) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`${url} did not come up`)
}

interface Figures {
  name: string
  rps: number
  p50: number
  p99: number
  errors: number
  non2xx: number
}

async function measure(name: string, opts: autocannon.Options): Promise<Figures> {
  const r = await autocannon({ duration: DURATION, connections: CONNECTIONS, ...opts })
  const f = { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx }
  console.log(`${name}: ${f.rps.toFixed(0)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, errors ${f.errors}, non-2xx ${f.non2xx}`)
  return f
}

async function main() {
  const admin = new pg.Client({ connectionString: ADMIN_URL })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`)
  await admin.query(`CREATE DATABASE ${DB_NAME}`)
  await admin.end()

  const env = {
    DATABASE_URL: DB_URL,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-bench-')),
    LOG_LEVEL: 'warn',
    SDK_RATE_PER_IP: '100000000',
    SDK_RATE_PER_KEY: '100000000',
  }
  await run('node', ['--import', 'tsx', 'apps/server/src/cli/main.ts', 'migrate'], env)
  const seeded = await run('node', ['--import', 'tsx', 'apps/server/src/cli/main.ts', 'demo:seed', EMAIL], env)
  const password = /Password: (\S+)/.exec(seeded)![1]!
  await run('node', ['--import', 'tsx', 'apps/server/src/cli/main.ts', 'licenses:bulk', EMAIL, String(LICENSES)], env)

  const server: ChildProcess = spawn('node', ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: { ...process.env, ...env, PORT: String(PORT), HOST: '127.0.0.1', NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const bare = Fastify()
  const pool = new pg.Pool({ connectionString: DB_URL, max: 10 })
  bare.get('/bare/:id', async (req) => (await pool.query('SELECT id, email FROM clients WHERE id = $1', [(req.params as { id: string }).id])).rows[0])
  await bare.listen({ port: BARE_PORT, host: '127.0.0.1' })

  try {
    const base = `http://127.0.0.1:${PORT}`
    await waitFor(`${base}/api/health/`)
    // sign in like a browser: a CSRF cookie first, then the session cookie
    const first = await fetch(`${base}/api/health/`)
    const csrf = /csrftoken=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1]!
    const signin = await fetch(`${base}/api/client/signin/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrftoken': csrf, cookie: `csrftoken=${csrf}` },
      body: JSON.stringify({ username: EMAIL, password }),
    })
    if (!signin.ok) throw new Error(`sign-in failed: ${await signin.text()}`)
    const cookies = signin.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const list = await fetch(`${base}/api/license/`, { headers: { cookie: cookies } })
    const licenses = ((await list.json()) as { licenses: { token: string }[] }).licenses
    if (licenses.length !== LICENSES) throw new Error(`expected ${LICENSES} licenses, got ${licenses.length}`)

    // bind one device to every license, so validation answers VALID
    const keys = licenses.map((l) => ({ key: l.token, fingerprint: `bench-device-${(l as unknown as { id: number }).id}` }))
    await db(async (c) => {
      await c.query(`INSERT INTO devices (license_id, kind, fingerprint, last_seen) SELECT id, 'online', 'bench-device-' || id, now() FROM licenses`)
      await c.query('ANALYZE')
    })

    const clientId = await db(async (c) => (await c.query('SELECT id FROM clients WHERE email = $1', [EMAIL])).rows[0].id as number)
    const results: Figures[] = []
    results.push(await measure('bare Fastify, one primary-key SELECT', { url: `http://127.0.0.1:${BARE_PORT}/bare/${clientId}` }))
    results.push(await measure(`GET /api/license/ (${LICENSES} licenses)`, { url: `${base}/api/license/`, headers: { cookie: cookies } }))
    results.push(
      await measure(`GET /api/license/ (${LICENSES} licenses), 1 connection`, { url: `${base}/api/license/`, headers: { cookie: cookies }, connections: 1 }),
    )
    let i = 0
    results.push(
      await measure('POST /api/sdk/validate/', {
        url: `${base}/api/sdk/validate/`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify(keys[i++ % keys.length]) }) }],
      }),
    )
    // a second bare run at the end shows how much the machine drifted during the run
    results.push(await measure('bare Fastify, again', { url: `http://127.0.0.1:${BARE_PORT}/bare/${clientId}` }))
    const dashboard = await dashboardLoad(base, signin.headers.getSetCookie())
    report(results, dashboard)
  } finally {
    server.kill('SIGTERM')
    await bare.close()
    await pool.end()
  }

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

/** Time from navigation to the dashboard's first rows, 1,000 licenses, in Chromium (median of 5). */
async function dashboardLoad(base: string, setCookies: string[]): Promise<number[] | null> {
  if (!existsSync('apps/web/dist/index.html')) return null
  const { chromium } = await import('@playwright/test')
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  await context.addCookies(
    setCookies.map((c) => {
      const [pair] = c.split(';')
      const [name, ...value] = pair!.split('=')
      return { name: name!, value: value.join('='), url: base }
    }),
  )
  const page = await context.newPage()
  const times: number[] = []
  for (let i = 0; i < 6; i++) {
    const started = Date.now()
    await page.goto(`${base}/app/nuitrack/dashboard/`)
    await page.getByText(`Showing 20 of ${LICENSES}`).waitFor()
    // interactive: a click on the next page of rows is answered
    await page.getByRole('button', { name: /Show 50 more/ }).click()
    await page.getByText(`Showing 70 of ${LICENSES}`).waitFor()
    if (i > 0) times.push(Date.now() - started)
  }
  await browser.close()
  times.sort((a, b) => a - b)
  console.log(`dashboard with ${LICENSES} licenses interactive in ${times.join(', ')} ms`)
  return times
}

function report(r: Figures[], dashboard: number[] | null) {
  const bare = (r[0]!.rps + r[r.length - 1]!.rps) / 2
  const row = (f: Figures) => `| ${f.name} | ${f.rps.toFixed(0)} | ${f.p50} | ${f.p99} | ${f.errors + f.non2xx} | ${((f.rps / bare) * 100).toFixed(0)} % |`
  const text = `# Benchmarks

Made by \`npm run bench\` (scripts/bench.ts) on ${new Date().toISOString().slice(0, 10)}: autocannon, ${CONNECTIONS} connections,
${DURATION} s per route, against the real server (NODE_ENV=production) on the local PostgreSQL, beside a bare
Fastify route doing one primary-key SELECT on the same database in the same run. The machine: 2 cores;
the load generator, the server and PostgreSQL share them, so absolute figures are low and the ratio is
the figure to watch. Ratios are against the mean of the two bare runs.

| route | req/s | p50 ms | p99 ms | errors + non-2xx | of bare |
|---|---|---|---|---|---|
${r.map(row).join('\n')}

${
  dashboard
    ? `Dashboard with ${LICENSES} licenses, from navigation until the first 20 rows show and a "Show 50 more" click is
answered, in Chromium (5 loads after a warm-up): ${dashboard.join(', ')} ms, median ${dashboard[2]} ms.
`
    : ''
}
Goals: GET /api/license/ with 1,000 licenses p99 under 100 ms; POST /api/sdk/validate/ at least 50 % of the bare
route's throughput; the dashboard with 1,000 licenses interactive in under 1 s.
`
  writeFileSync('docs/benchmarks.md', text + (process.env.BENCH_NOTES ?? ''))
  console.log('\nwritten to docs/benchmarks.md')
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err)
    process.exit(1)
  },
)
