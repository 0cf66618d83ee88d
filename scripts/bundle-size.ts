/**
 * `npm run size`: what the first load of a page costs.
 *
 * From the build (apps/web/dist and Vite's manifest): the JS and CSS files a page loads on its first
 * load (the entry, its static imports, and the lazy route modules the page matches with their static
 * imports), each raw, gzip (level 9) and brotli (quality 11) as the build's precompressed files are.
 *
 * With a running server (`--url http://127.0.0.1:3000`): the pages opened in Chromium, summing the
 * encoded (transferred) body bytes of the JS and CSS responses. The dashboard needs a signed-in
 * account: `--email`/`--password`, or one is registered and confirmed through the dev mailbox (a
 * server not in production).
 *
 *   npm run size                                   # from the build only
 *   npm run size -- --url http://127.0.0.1:3000    # and the bytes a browser receives
 *   npm run size -- --json out.json                # the figures as JSON too
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

export const DEFAULT_DIST = join(import.meta.dirname, '../apps/web/dist')

/** One page to measure: its address and the lazy route modules (source paths, as the manifest keys them) it matches. */
export interface PageSpec {
  name: string
  path: string
  routes: string[]
}

/** The pages the goals name: the sign-in screen and a dashboard. */
export const DEFAULT_PAGES: PageSpec[] = [
  { name: 'login', path: '/app/login/', routes: ['src/features/auth/routes/login.tsx'] },
  // the shell, the screen, and the dashboard route's loader (its first requests)
  {
    name: 'dashboard',
    path: '/app/nuitrack/dashboard/',
    routes: ['src/app/shell/Shell.tsx', 'src/features/licenses/routes/dashboard.tsx', 'src/app/prefetch-dashboard.ts'],
  },
]

/**
 * The goals: at most this much gzipped first-load JS per page, in kB of 1,000 bytes, as Vite's build
 * report counts.
 */
export const BUDGETS = {
  gzipJs: { login: 200_000, dashboard: 250_000 },
} as const

/** Bytes as the report writes them: kB of 1,000 bytes. */
export const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`

export interface Sizes {
  raw: number
  gzip: number
  brotli: number
}
export interface FileSize extends Sizes {
  file: string
  kind: 'js' | 'css'
}
export interface PageBundle {
  page: string
  path: string
  files: FileSize[]
  js: Sizes
  css: Sizes
}
export interface PageTransfer {
  page: string
  path: string
  /** encoded body bytes received, and the number of responses */
  js: { bytes: number; files: number }
  css: { bytes: number; files: number }
  /** Content-Encoding of the JS and CSS responses, counted */
  encodings: Record<string, number>
}
export interface BundleReport {
  dist: string
  pages: PageBundle[]
  transfer?: PageTransfer[]
}

/** Vite's manifest (build.manifest): one entry per chunk, keyed by source path or `_name-hash.js`. */
export type Manifest = Record<string, { file: string; isEntry?: boolean; imports?: string[]; css?: string[] }>

/** The files a page's first load fetches: the entry's and each route module's static import graph, scripts and styles. */
export function firstLoadFiles(manifest: Manifest, routes: string[]): { js: string[]; css: string[] } {
  const entry = Object.entries(manifest).find(([, c]) => c.isEntry)
  if (!entry) throw new Error('the manifest has no entry')
  const js = new Set<string>()
  const css = new Set<string>()
  const seen = new Set<string>()
  const visit = (key: string) => {
    if (seen.has(key)) return
    seen.add(key)
    const chunk = manifest[key]
    if (!chunk) throw new Error(`${key} is not in the manifest`)
    js.add(chunk.file)
    for (const c of chunk.css ?? []) css.add(c)
    for (const i of chunk.imports ?? []) visit(i)
  }
  visit(entry[0])
  for (const r of routes) visit(r)
  return { js: [...js], css: [...css] }
}

export function sizesOf(bytes: Buffer): Sizes {
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }
}

const sum = (files: Sizes[]): Sizes =>
  files.reduce((a, f) => ({ raw: a.raw + f.raw, gzip: a.gzip + f.gzip, brotli: a.brotli + f.brotli }), { raw: 0, gzip: 0, brotli: 0 })

/**
 * A file's sizes as the build ships it: the lengths of the `.gz` and `.br` siblings the build wrote
 * with the same settings (apps/web/build-compress.ts), else compressed here.
 */
export function builtSizes(dist: string, file: string): Sizes {
  const path = join(dist, file)
  const bytes = readFileSync(path)
  if (!existsSync(`${path}.gz`) || !existsSync(`${path}.br`)) return sizesOf(bytes)
  return { raw: bytes.length, gzip: statSync(`${path}.gz`).size, brotli: statSync(`${path}.br`).size }
}

/** A page's first load from the build: every file with its three sizes, and the JS and CSS totals. */
export function pageBundle(dist: string, manifest: Manifest, spec: PageSpec, sizes = (file: string) => builtSizes(dist, file)): PageBundle {
  const { js, css } = firstLoadFiles(manifest, spec.routes)
  const files: FileSize[] = [
    ...js.map((file) => ({ file, kind: 'js' as const, ...sizes(file) })),
    ...css.map((file) => ({ file, kind: 'css' as const, ...sizes(file) })),
  ]
  return {
    page: spec.name,
    path: spec.path,
    files,
    js: sum(files.filter((f) => f.kind === 'js')),
    css: sum(files.filter((f) => f.kind === 'css')),
  }
}

/** In the page: the screen's heading is drawn and no lazy route is loading (a string: this file is not compiled with the DOM's types). */
const SETTLED = `document.querySelector('h1') !== null && document.querySelector('[role="status"][aria-busy="true"]') === null`

/** The flags the project's browser runs take (e2e/playwright.config.ts). */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync']

export interface Account {
  email: string
  password: string
}

/** Opens each page in Chromium against a running server and sums the JS and CSS bytes it received. */
export async function measureTransfer(baseUrl: string, pages: PageSpec[], account?: Account, executablePath = '/usr/bin/chromium'): Promise<PageTransfer[]> {
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS })
  try {
    const out: PageTransfer[] = []
    for (const spec of pages) {
      // a fresh context per page: an empty cache, as on a first visit
      const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } })
      try {
        if (spec.name !== 'login') await signIn(context.request, account ?? (await newAccount(context.request)))
        const page = await context.newPage()
        const responses: import('playwright-core').Response[] = []
        page.on('response', (r) => responses.push(r))
        await page.goto(spec.path, { waitUntil: 'networkidle' })
        // the entry runs before the lazy screen is fetched: on a slow machine the network can idle in between
        await page.waitForFunction(SETTLED, undefined, { timeout: 30_000 })
        await page.waitForLoadState('networkidle')
        if (new URL(page.url()).pathname !== spec.path) throw new Error(`${spec.path} ended at ${page.url()}`)
        const t: PageTransfer = { page: spec.name, path: spec.path, js: { bytes: 0, files: 0 }, css: { bytes: 0, files: 0 }, encodings: {} }
        for (const r of responses) {
          const type = r.request().resourceType()
          const kind = type === 'script' ? 'js' : type === 'stylesheet' ? 'css' : null
          if (!kind) continue
          const sizes = await r.request().sizes()
          t[kind].bytes += sizes.responseBodySize
          t[kind].files += 1
          const enc = (await r.headerValue('content-encoding')) ?? 'identity'
          t.encodings[enc] = (t.encodings[enc] ?? 0) + 1
        }
        out.push(t)
      } finally {
        await context.close()
      }
    }
    return out
  } finally {
    await browser.close()
  }
}

type Request = import('playwright-core').APIRequestContext

async function post(request: Request, url: string, data: unknown) {
  let token = (await request.storageState()).cookies.find((c) => c.name === 'csrftoken')?.value
  if (!token) {
    await request.get('/api/health/')
    token = (await request.storageState()).cookies.find((c) => c.name === 'csrftoken')?.value
  }
  return request.post(url, { data, headers: { 'x-csrftoken': token ?? '' } })
}

async function signIn(request: Request, account: Account) {
  const res = await post(request, '/api/client/signin/', { username: account.email, password: account.password })
  if (res.status() !== 200) throw new Error(`sign-in as ${account.email}: ${res.status()} ${await res.text()}`)
}

/** An account registered and confirmed through the dev mailbox (servers not in production). */
async function newAccount(request: Request): Promise<Account> {
  const email = `size-${Date.now().toString(36)}@example.com`
  const password = 'Str0ng-Pass'
  const signup = await post(request, '/api/client/signup/', { username: email, email, password, is_corporate: false })
  if (signup.status() !== 201) throw new Error(`sign-up: ${signup.status()} ${await signup.text()}`)
  for (let i = 0; i < 50; i++) {
    const { messages } = (await (await request.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json()) as { messages: { text: string }[] }
    const link = messages.map((m) => /\/registration-confirm\/(\d+)\/([\w-]+)\//.exec(m.text)).find(Boolean)
    if (link) {
      const confirm = await post(request, '/api/client/confirm/', { client_id: Number(link[1]), confirmation_token: link[2] })
      if (!confirm.ok()) throw new Error(`confirm: ${confirm.status()}`)
      return { email, password }
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no confirmation mail to ${email}`)
}

export interface MeasureOptions {
  /** the built web app (default apps/web/dist) */
  dist?: string
  /** the pages (default DEFAULT_PAGES: /app/login/ and /app/nuitrack/dashboard/) */
  pages?: PageSpec[]
  /** a running server to load the pages from in Chromium; without it only the build is measured */
  baseUrl?: string
  /** the account the dashboard is opened with; without it one is made through the dev mailbox */
  account?: Account
  /** Chromium (default /usr/bin/chromium) */
  executablePath?: string
}

/** The figures of `npm run size`, for the benchmark document too. */
export async function measureBundles(opts: MeasureOptions = {}): Promise<BundleReport> {
  const dist = opts.dist ?? DEFAULT_DIST
  const pages = opts.pages ?? DEFAULT_PAGES
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Manifest
  const report: BundleReport = { dist, pages: pages.map((p) => pageBundle(dist, manifest, p)) }
  if (opts.baseUrl) report.transfer = await measureTransfer(opts.baseUrl, pages, opts.account, opts.executablePath)
  return report
}

/** The goals a report misses, one line each (none: every budget is met). */
export function budgetMisses(report: BundleReport): string[] {
  return report.pages.flatMap((p) => {
    const budget = BUDGETS.gzipJs[p.page as keyof typeof BUDGETS.gzipJs]
    return budget && p.js.gzip > budget ? [`${p.page}: gzipped first-load JS ${kb(p.js.gzip)}, the goal is at most ${kb(budget)}`] : []
  })
}

/** The report as text tables. */
export function formatReport(report: BundleReport): string {
  const lines: string[] = []
  for (const p of report.pages) {
    lines.push(`${p.page} (${p.path}): first load from the build`)
    lines.push(`  ${'file'.padEnd(44)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)} ${'brotli'.padStart(10)}`)
    for (const f of [...p.files].sort((a, b) => b.raw - a.raw))
      lines.push(`  ${f.file.padEnd(44)} ${kb(f.raw).padStart(10)} ${kb(f.gzip).padStart(10)} ${kb(f.brotli).padStart(10)}`)
    for (const [label, s] of [
      ['JS total', p.js],
      ['CSS total', p.css],
    ] as const)
      lines.push(`  ${label.padEnd(44)} ${kb(s.raw).padStart(10)} ${kb(s.gzip).padStart(10)} ${kb(s.brotli).padStart(10)}`)
    const budget = BUDGETS.gzipJs[p.page as keyof typeof BUDGETS.gzipJs]
    if (budget) lines.push(`  gzipped JS ${kb(p.js.gzip)} against the goal of at most ${kb(budget)}: ${p.js.gzip <= budget ? 'met' : 'NOT met'}`)
    lines.push('')
  }
  if (report.transfer) {
    lines.push('Bytes received by Chromium (encoded bodies, empty cache)')
    for (const t of report.transfer) {
      const enc = Object.entries(t.encodings)
        .map(([e, n]) => `${e} ×${n}`)
        .join(', ')
      lines.push(
        `  ${t.page.padEnd(10)} JS ${kb(t.js.bytes)} in ${t.js.files} files, CSS ${kb(t.css.bytes)} in ${t.css.files}, total ${kb(t.js.bytes + t.css.bytes)} (${enc})`,
      )
    }
  }
  return lines.join('\n')
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const email = arg('email')
  const report = await measureBundles({
    dist: arg('dist'),
    baseUrl: arg('url'),
    account: email ? { email, password: arg('password') ?? '' } : undefined,
  })
  console.log(formatReport(report))
  const json = arg('json')
  if (json) writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`)
  // --check (the test run): a missed budget fails, so a change that weighs down a first load says so
  const misses = budgetMisses(report)
  if (process.argv.includes('--check') && misses.length) {
    console.error(`bundle budgets missed:\n${misses.join('\n')}`)
    process.exitCode = 1
  }
}
