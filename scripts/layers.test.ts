import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { columns } from '../apps/server/src/db/db.ts'

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

/** Every import (and re-export) of a server module's own files that lands in another module: [from, to] as module folder and file. */
function crossModuleImports(): { from: string; to: string; file: string; target: string }[] {
  const found: { from: string; to: string; file: string; target: string }[] = []
  for (const file of sourceFiles(modulesDir)) {
    const from = relative(modulesDir, file).split(sep)[0]!
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/g)) {
      const target = resolve(dirname(file), m[1]!)
      const rel = relative(modulesDir, target)
      if (rel.startsWith('..')) continue
      const to = rel.split(sep)[0]!
      if (to !== from) found.push({ from, to, file: relative(root, file), target: rel })
    }
  }
  return found
}

/** The module graph's cycles, as the path of one per strongly connected part (Tarjan). */
function cycles(edges: { from: string; to: string }[]): string[][] {
  const next = new Map<string, Set<string>>()
  for (const e of edges) next.set(e.from, (next.get(e.from) ?? new Set()).add(e.to))
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const parts: string[][] = []
  const visit = (v: string) => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = []
      let w: string
      do {
        w = stack.pop()!
        part.push(w)
      } while (w !== v)
      if (part.length > 1 || next.get(v)?.has(v)) parts.push(part.sort())
    }
  }
  for (const v of next.keys()) if (!index.has(v)) visit(v)
  return parts
}

// a module is used through its service.ts only: its queries (and its other files) are its own, so
// it can change them without reading every other module; and no module depends on itself through others
describe('server modules', () => {
  it("import another module only through that module's service.ts", () => {
    const through = crossModuleImports().filter((i) => !i.target.endsWith(`${sep}service.ts`))
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
