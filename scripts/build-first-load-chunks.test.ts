import { rollup, type OutputChunk, type Plugin } from 'rollup'
import { describe, expect, it } from 'vitest'
import { firstLoadChunks, firstLoadProblems } from '../apps/web/build-first-load-chunks.ts'

/**
 * A small app in memory: an entry, a sign-in page and a signed-in shell loaded lazily, another lazy
 * screen, a vendor module, and a package whose index re-exports its components (side-effect free,
 * as Mantine's are).
 */
const FILES: Record<string, string> = {
  '/main.js': [
    "import { r } from '/react.js'",
    "import { A } from '/pkg/index.js'",
    "import { x } from '/x.js'",
    'console.log(r, A(), x())',
    // no exports, as Vite's index.html entry has none (an entry with exports keeps a facade chunk)
    "globalThis.screens = [() => import('/login.js'), () => import('/shell.js'), () => import('/other.js')]",
  ].join('\n'),
  '/react.js': 'export const r = 1',
  '/pkg/index.js': ["export { A } from './a.js'", "export { B } from './b.js'", "export { C } from './c.js'", "export * from './d.js'"].join('\n'),
  '/pkg/a.js': "export function A() { return 'a' }\nA.displayName = 'A'",
  '/pkg/b.js': "import { helper } from './helper.js'\nexport const B = () => helper()\nB.displayName = 'B'",
  '/pkg/c.js': "export const C = () => 'c'",
  '/pkg/d.js': "export const D = () => 'd'",
  '/pkg/helper.js': "export const helper = () => 'h'",
  '/login.js': "import { B } from '/pkg/index.js'\nimport { shared } from '/shared.js'\nexport default () => B() + shared()",
  '/shell.js': [
    "import { B, C, D } from '/pkg/index.js'",
    "import { shared } from '/shared.js'",
    "import { big } from '/big.js'",
    "import { register } from '/reg.js'",
    "export default () => B() + C() + D() + shared() + big() + register('shell')",
  ].join('\n'),
  // shared.js's other export needs heavy.js, which only the other screen uses
  '/shared.js': "import { heavy } from '/heavy.js'\nexport const shared = () => 's'\nexport const unused = () => heavy()",
  '/big.js': "export const big = () => 'big'",
  // a module with side effects: its unused declaration calls register() as it loads, as Rollup keeps it
  '/x.js': "import { register } from '/reg.js'\nconst token = register('x')\nexport const x = () => 'x'",
  '/reg.js': 'export const register = (name) => (globalThis.registered = name)',
  '/heavy.js': "export const heavy = () => 'heavy'",
  '/other.js': "import { heavy } from '/heavy.js'\nimport { C } from '/pkg/index.js'\nexport default () => heavy() + C()",
}

const memory: Plugin = {
  name: 'memory',
  resolveId: (source, importer) => {
    const id = source.startsWith('.') && importer ? new URL(source, `file://${importer}`).pathname : source
    return id in FILES ? { id, moduleSideEffects: id.startsWith('/pkg/') ? false : true } : null
  },
  load: (id) => FILES[id] ?? null,
}

async function build() {
  const bundle = await rollup({ input: { index: '/main.js' }, plugins: [memory] })
  const { output } = await bundle.generate({
    onlyExplicitManualChunks: true,
    manualChunks: firstLoadChunks(SPEC).manualChunks,
    chunkFileNames: '[name].js',
    entryFileNames: '[name].js',
  })
  await bundle.close()
  const chunks = output.filter((o): o is OutputChunk => o.type === 'chunk')
  const byName = (name: string) => chunks.find((c) => c.name === name)!
  const holding = (id: string) => chunks.find((c) => c.moduleIds.includes(id))?.name
  return { chunks, byName, holding }
}

const SPEC = {
  vendor: { name: 'react', test: /\/react\.js$/ },
  entry: { name: 'index', shares: ['/login.js'] },
  groups: [
    { name: 'shell', roots: ['/shell.js'] },
    { name: 'login', roots: ['/login.js'] },
  ],
}

describe('firstLoadChunks (apps/web/build-first-load-chunks.ts)', () => {
  it('puts the entry, the shell and the sign-in page each in one chunk, with only what they need', async () => {
    const { holding } = await build()
    expect(holding('/main.js')).toBe('index')
    expect(holding('/react.js')).toBe('react')
    // the entry's own component stays with it
    expect(holding('/pkg/a.js')).toBe('index')
    // what the login shares with the shell joins the entry: neither first load pulls the other's chunk
    expect(holding('/shared.js')).toBe('index')
    expect(holding('/pkg/b.js')).toBe('index')
    expect(holding('/pkg/helper.js')).toBe('index')
    // what only the shell needs, in the shell, through the package's named and `export *` re-exports
    expect(holding('/shell.js')).toBe('shell')
    expect(holding('/big.js')).toBe('shell')
    expect(holding('/pkg/d.js')).toBe('shell')
    expect(holding('/pkg/c.js')).toBe('shell')
    expect(holding('/login.js')).toBe('login')
    // an export nobody on these pages uses brings nothing: heavy.js stays with the screen that uses it
    expect(holding('/heavy.js')).toBe(holding('/other.js'))
    expect(holding('/heavy.js')).not.toBe('shell')
    // what an entry module runs as it loads is the entry's, though only the shell names it otherwise
    expect(holding('/x.js')).toBe('index')
    expect(holding('/reg.js')).toBe('index')
  })

  it('leaves each first load its own files: the login never loads the shell, the shell never the login', async () => {
    const { byName } = await build()
    expect(byName('index').imports).toEqual(['react.js'])
    expect(byName('login').imports.sort()).toEqual(['index.js', 'react.js'])
    expect(byName('shell').imports).not.toContain('login.js')
    expect(byName('shell').imports).toContain('index.js')
  })

  it('keeps the code it moves working: every import names a chunk of the build, and the guard finds nothing wrong', async () => {
    const { chunks } = await build()
    const names = new Set(chunks.map((c) => c.fileName))
    for (const c of chunks) for (const i of [...c.imports, ...c.dynamicImports]) expect(names).toContain(i)
    expect(firstLoadProblems(chunks, SPEC)).toEqual([])
  })

  it('the guard fails a build whose entry loads a group, whose groups load each other, or whose chunks load themselves', () => {
    const chunk = (name: string, imports: string[], isEntry = false) => ({ name, fileName: `${name}.js`, imports, isEntry }) as unknown as OutputChunk
    expect(
      firstLoadProblems([chunk('index', ['react.js'], true), chunk('react', []), chunk('shell', ['index.js']), chunk('login', ['index.js'])], SPEC),
    ).toEqual([])
    expect(firstLoadProblems([chunk('index', ['shell.js'], true), chunk('shell', [])], SPEC)).toEqual(['the entry (index.js) loads the shell chunk (shell.js)'])
    expect(firstLoadProblems([chunk('index', [], true), chunk('shell', ['common.js']), chunk('common', ['login.js']), chunk('login', [])], SPEC)).toEqual([
      'the shell chunk (shell.js) loads the login chunk (login.js)',
    ])
    expect(firstLoadProblems([chunk('index', ['a.js'], true), chunk('a', ['index.js'])], SPEC)).toEqual([
      'index.js loads itself through the chunks it imports',
      'a.js loads itself through the chunks it imports',
    ])
  })
})
