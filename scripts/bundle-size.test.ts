import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { BUDGETS, budgetMisses, builtSizes, firstLoadFiles, formatReport, measureBundles, sizesOf, type BundleReport, type Manifest } from './bundle-size.ts'

/** A build's manifest in Vite's shape: an entry, a vendor chunk, two lazy routes sharing a chunk, and a route nobody measures. */
const MANIFEST: Manifest = {
  'index.html': {
    file: 'assets/index-a1.js',
    isEntry: true,
    imports: ['_react-b2.js'],
    css: ['assets/index-c3.css'],
  },
  '_react-b2.js': { file: 'assets/react-b2.js' },
  'src/features/auth/routes/login.tsx': { file: 'assets/login-d4.js', imports: ['_react-b2.js', 'index.html', '_form-e5.js'] },
  '_form-e5.js': { file: 'assets/form-e5.js', imports: ['_react-b2.js'] },
  'src/app/shell/Shell.tsx': { file: 'assets/Shell-f6.js', imports: ['index.html', '_form-e5.js'], css: ['assets/Shell-f6.css'] },
  'src/features/licenses/routes/dashboard.tsx': { file: 'assets/dashboard-g7.js', imports: ['_table-h8.js'] },
  '_table-h8.js': { file: 'assets/table-h8.js', css: ['assets/table-h8.css'] },
  'src/app/prefetch-dashboard.ts': { file: 'assets/prefetch-dashboard-k1.js', imports: ['_react-b2.js'] },
  'src/features/staff/routes/staff-license.tsx': { file: 'assets/staff-i9.js', imports: ['_pdf-j0.js'] },
  '_pdf-j0.js': { file: 'assets/pdf-j0.js' },
}

/** Each file's bytes: repetitive text of a known length, so gzip has something to do. */
const CONTENT: Record<string, string> = {
  'assets/index-a1.js': 'console.log("entry");\n'.repeat(100),
  'assets/react-b2.js': 'export const react = 1;\n'.repeat(400),
  'assets/login-d4.js': 'export const login = 2;\n'.repeat(50),
  'assets/form-e5.js': 'export const form = 3;\n'.repeat(30),
  'assets/Shell-f6.js': 'export const shell = 4;\n'.repeat(60),
  'assets/dashboard-g7.js': 'export const dashboard = 5;\n'.repeat(70),
  'assets/table-h8.js': 'export const table = 6;\n'.repeat(20),
  'assets/prefetch-dashboard-k1.js': 'export const prefetch = 9;\n'.repeat(10),
  'assets/staff-i9.js': 'export const staff = 7;\n'.repeat(500),
  'assets/pdf-j0.js': 'export const pdf = 8;\n'.repeat(5000),
  'assets/index-c3.css': '.a{color:red}\n'.repeat(200),
  'assets/Shell-f6.css': '.b{color:blue}\n'.repeat(40),
  'assets/table-h8.css': '.c{color:green}\n'.repeat(10),
}

function fakeDist() {
  const dist = mkdtempSync(join(tmpdir(), 'size-dist-'))
  mkdirSync(join(dist, 'assets'))
  mkdirSync(join(dist, '.vite'))
  writeFileSync(join(dist, '.vite/manifest.json'), JSON.stringify(MANIFEST))
  for (const [file, text] of Object.entries(CONTENT)) writeFileSync(join(dist, file), text)
  return dist
}

describe('bundle-size: the first load of a page from the manifest', () => {
  it('the login page loads the entry, its imports and the login route with its imports: no shell, dashboard or staff code', () => {
    const { js, css } = firstLoadFiles(MANIFEST, ['src/features/auth/routes/login.tsx'])
    expect(js.sort()).toEqual(['assets/form-e5.js', 'assets/index-a1.js', 'assets/login-d4.js', 'assets/react-b2.js'])
    expect(css).toEqual(['assets/index-c3.css'])
  })

  it('a dashboard adds the shell and the dashboard route with their nested imports and styles, each file once', () => {
    const { js, css } = firstLoadFiles(MANIFEST, ['src/app/shell/Shell.tsx', 'src/features/licenses/routes/dashboard.tsx'])
    expect(js.sort()).toEqual([
      'assets/Shell-f6.js',
      'assets/dashboard-g7.js',
      'assets/form-e5.js',
      'assets/index-a1.js',
      'assets/react-b2.js',
      'assets/table-h8.js',
    ])
    expect(css.sort()).toEqual(['assets/Shell-f6.css', 'assets/index-c3.css', 'assets/table-h8.css'])
  })

  it('a route the manifest does not know is an error, not a silent zero', () => {
    expect(() => firstLoadFiles(MANIFEST, ['src/features/nothing.tsx'])).toThrow(/not in the manifest/)
  })

  it("takes a file's compressed sizes from the .gz and .br siblings the build wrote, where both are there", () => {
    const dist = fakeDist()
    writeFileSync(join(dist, 'assets/react-b2.js.gz'), 'x'.repeat(123))
    writeFileSync(join(dist, 'assets/react-b2.js.br'), 'y'.repeat(45))
    writeFileSync(join(dist, 'assets/login-d4.js.gz'), 'only gzip')
    expect(builtSizes(dist, 'assets/react-b2.js')).toEqual({ raw: Buffer.byteLength(CONTENT['assets/react-b2.js']!), gzip: 123, brotli: 45 })
    expect(builtSizes(dist, 'assets/login-d4.js')).toEqual(sizesOf(Buffer.from(CONTENT['assets/login-d4.js']!)))
  })

  it('reports raw, gzip and brotli sizes per file and per page, summed over the files of the page', async () => {
    const report = await measureBundles({ dist: fakeDist() })
    const login = report.pages.find((p) => p.page === 'login')!
    const loginJs = ['assets/index-a1.js', 'assets/react-b2.js', 'assets/login-d4.js', 'assets/form-e5.js']
    expect(login.js.raw).toBe(loginJs.reduce((n, f) => n + Buffer.byteLength(CONTENT[f]!), 0))
    expect(login.js.gzip).toBe(loginJs.reduce((n, f) => n + gzipSync(CONTENT[f]!, { level: 9 }).length, 0))
    expect(login.css.raw).toBe(Buffer.byteLength(CONTENT['assets/index-c3.css']!))
    const file = login.files.find((f) => f.file === 'assets/react-b2.js')!
    expect(file).toEqual({ file: 'assets/react-b2.js', kind: 'js', ...sizesOf(Buffer.from(CONTENT['assets/react-b2.js']!)) })
    expect(file.brotli).toBeLessThan(file.gzip + 20)
    expect(file.gzip).toBeLessThan(file.raw / 10)

    const dashboard = report.pages.find((p) => p.page === 'dashboard')!
    expect(dashboard.files.map((f) => f.file)).not.toContain('assets/pdf-j0.js')
    expect(dashboard.css.raw).toBe(
      ['assets/index-c3.css', 'assets/Shell-f6.css', 'assets/table-h8.css'].reduce((n, f) => n + Buffer.byteLength(CONTENT[f]!), 0),
    )
    expect(report.transfer).toBeUndefined()

    const text = formatReport(report)
    expect(text).toMatch(/login \(\/app\/login\/\): first load from the build/)
    expect(text).toMatch(/gzipped JS .* against the goal of at most 200\.0 kB: met/)
  })

  it('names each budget a report misses, and none when all are met', () => {
    const page = (name: string, gzip: number, files = 1) => ({
      page: name,
      path: `/${name}/`,
      files: Array.from({ length: files }, (_, i) => ({ file: `assets/${name}-${i}.js`, kind: 'js' as const, raw: 1, gzip: 1, brotli: 1 })),
      js: { raw: gzip * 4, gzip, brotli: gzip },
      css: { raw: 0, gzip: 0, brotli: 0 },
    })
    const report = (login: number, dashboard: number): BundleReport => ({ dist: '/dist', pages: [page('login', login), page('dashboard', dashboard)] })
    expect(budgetMisses(report(BUDGETS.gzipJs.login, BUDGETS.gzipJs.dashboard))).toEqual([])
    expect(budgetMisses(report(BUDGETS.gzipJs.login + 1, BUDGETS.gzipJs.dashboard))).toEqual([
      'login: gzipped first-load JS 200.0 kB, the goal is at most 200.0 kB',
    ])
    expect(budgetMisses(report(1, BUDGETS.gzipJs.dashboard + 500))).toEqual(['dashboard: gzipped first-load JS 250.5 kB, the goal is at most 250.0 kB'])
  })
})
