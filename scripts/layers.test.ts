import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { columns } from '../apps/server/src/db/db.ts'
import { findCycles, moduleImports } from './module-graph.js'

const root = join(import.meta.dirname, '..')
const serverSrc = join(root, 'apps/server/src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return e.name === 'migrations' || e.name === 'test' ? [] : sourceFiles(path)
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : []
  })
}

// a statement, not the word: comments may say "update" or "select"
const SQL = /\b(SELECT\s+[\w*(]|INSERT\s+INTO\b|UPDATE\s+\w+(\s+\w+)?\s+SET\b|DELETE\s+FROM\b)/

describe('server layers', () => {
  it('holds SQL in queries.ts files only (migrations and test support aside)', () => {
    const offenders = sourceFiles(serverSrc)
      .filter((f) => !f.endsWith('/queries.ts'))
      .filter((f) => SQL.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f))
    expect(offenders).toEqual([])
  })

  it('sees SQL where it is (the check is not vacuous)', () => {
    const queries = sourceFiles(serverSrc).filter((f) => f.endsWith('/queries.ts'))
    expect(queries.length).toBeGreaterThan(5)
    for (const f of queries) expect(SQL.test(readFileSync(f, 'utf8')), relative(root, f)).toBe(true)
  })

  it('holds a column list to exactly the keys of its row type (typecheck) and renders it', () => {
    interface Row {
      a: number
      b: string | null
    }
    expect(columns<Row>()('a', 'b')()).toBe('a, b')
    expect(columns<Row>()('a', 'b')('x')).toBe('x.a, x.b')
    // @ts-expect-error b is missing: a row type promising a column the query does not select
    columns<Row>()('a')
    // @ts-expect-error c is not a key of Row: a selected column its type does not know
    columns<Row>()('a', 'b', 'c')
  })
})

const modulesDir = join(serverSrc, 'modules')
const crossModuleImports = () => moduleImports(modulesDir).map((i) => ({ ...i, file: relative(root, i.file) }))
const cycles = findCycles

// a module is used through its service.ts only: its queries (and its other files) are its own, so
// it can change them without reading every other module; and no module depends on itself through others
describe('server modules', () => {
  it("import another module only through that module's service.ts", () => {
    const through = crossModuleImports().filter((i) => !/^[\w-]+\/service\.ts$/.test(i.target))
    expect(through.map((i) => `${i.file} -> modules/${i.target}`)).toEqual([])
  })

  it('import each other without a cycle', () => {
    expect(cycles(crossModuleImports())).toEqual([])
  })

  it('sees imports and cycles where they are (the checks are not vacuous)', () => {
    const imports = crossModuleImports()
    expect(imports.length).toBeGreaterThan(30)
    expect(imports.some((i) => i.from === 'basket' && i.to === 'billing')).toBe(true)
    expect(cycles([...imports, { from: 'billing', to: 'basket' }])).toEqual([expect.arrayContaining(['basket', 'billing'])])
    expect(
      cycles([
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c' },
        { from: 'c', to: 'a' },
        { from: 'c', to: 'd' },
      ]),
    ).toEqual([['a', 'b', 'c']])
  })
})

const dirs = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)

describe('feature folders', () => {
  const webFeatures = join(root, 'apps/web/src/features')
  // features that live on one side only: the web's error screens, the server's plumbing
  const WEB_ONLY = ['errors']

  it('names a web feature as the server module that serves it', () => {
    const server = new Set(dirs(join(serverSrc, 'modules')))
    expect(dirs(webFeatures).filter((f) => !WEB_ONLY.includes(f) && !server.has(f))).toEqual([])
  })

  it('lays every web feature out as api/, components/, routes/ and nothing else', () => {
    for (const feature of dirs(webFeatures)) {
      expect(
        dirs(join(webFeatures, feature)).filter((d) => !['api', 'components', 'routes'].includes(d)),
        feature,
      ).toEqual([])
    }
  })

  it("mounts screens from the features' routes/ folders only", () => {
    const router = readFileSync(join(root, 'apps/web/src/app/router.tsx'), 'utf8')
    // static imports and the lazy routes' dynamic ones
    const imports = [...router.matchAll(/(?:from |import\()'\.\.\/features\/([^']+)'/g)].map((m) => m[1]!)
    expect(imports.length).toBeGreaterThan(10)
    expect(imports.filter((path) => !/^[\w-]+\/routes\//.test(path))).toEqual([])
  })
})
