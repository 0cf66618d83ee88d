import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { ESLint } from 'eslint'
import { afterAll, describe, expect, it } from 'vitest'
import { moduleGraphPlugin } from './module-graph.js'

const root = join(import.meta.dirname, '..')
const made: string[] = []

/** Two modules importing each other, written inside the tree the repo's config governs. */
function cycleIn(dir: string, ext: 'ts' | 'tsx') {
  const at = mkdtempSync(join(root, dir, '.lint-cycle-'))
  made.push(at)
  writeFileSync(join(at, `a.${ext}`), `import { b } from './b.${ext}'\nexport const a = () => b() + 1\n`)
  writeFileSync(join(at, `b.${ext}`), `import { a } from './a.${ext}'\nexport const b = () => a() - 1\n`)
  return join(at, `a.${ext}`)
}

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})

// import-x/no-cycle once passed silently because it could not follow imports into .ts files;
// this holds the repo's own config to catching a cycle in the server and in the web app
describe('lint', () => {
  it('fails a dependency cycle with import-x/no-cycle', { timeout: 120_000 }, async () => {
    const files = [cycleIn('apps/server/src', 'ts'), cycleIn('apps/web/src', 'tsx')]
    const eslint = new ESLint({ cwd: root })
    const results = await eslint.lintFiles(files)
    for (const file of files) {
      const result = results.find((r) => r.filePath === file)
      expect(result, relative(root, file)).toBeDefined()
      expect(
        result!.messages.map((m) => m.ruleId),
        relative(root, file),
      ).toContain('import-x/no-cycle')
    }
  })
})

/** Server modules written in a folder of their own: each file's text by its path inside it. */
function modulesIn(files: Record<string, string>) {
  const at = mkdtempSync(join(root, 'apps/server/src', '.lint-modules-'))
  made.push(at)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(at, path, '..'), { recursive: true })
    writeFileSync(join(at, path), text)
  }
  return at
}

describe('the module graph rule', () => {
  it("fails an import of another module's queries.ts, and a module cycle no single file closes", { timeout: 120_000 }, async () => {
    const dir = modulesIn({
      'shop/service.ts': "import { price } from '../prices/queries.ts'\nexport const buy = () => price() * 2\n",
      'prices/queries.ts': 'export const price = () => 1\n',
      'prices/service.ts': "export { price } from './queries.ts'\n",
      'orders/routes.ts': "import { ship } from '../shipping/service.ts'\nexport const route = () => ship()\n",
      'orders/service.ts': 'export const order = () => 1\n',
      'shipping/service.ts': 'export const ship = () => 2\n',
      'shipping/routes.ts': "import { order } from '../orders/service.ts'\nexport const route = () => order()\n",
      'shipping/ok.ts': "import { price } from '../prices/service.ts'\nexport const cost = () => price()\n",
    })
    const eslint = new ESLint({
      cwd: root,
      overrideConfig: {
        files: ['apps/server/src/.lint-modules-*/**/*.ts'],
        plugins: { portal: moduleGraphPlugin },
        rules: { 'portal/module-graph': ['error', { modulesDir: relative(root, dir) }] },
      },
    })
    const results = await eslint.lintFiles([join(dir, '**/*.ts')])
    const found = Object.fromEntries(
      results.map((r) => [relative(dir, r.filePath), r.messages.filter((m) => m.ruleId === 'portal/module-graph').map((m) => m.messageId)]),
    )
    expect(found).toMatchObject({
      'shop/service.ts': ['notService'],
      'prices/service.ts': [],
      'orders/routes.ts': ['cycle'],
      'shipping/routes.ts': ['cycle'],
      'shipping/ok.ts': [],
    })
  })
})
