import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { ESLint } from 'eslint'
import { afterAll, describe, expect, it } from 'vitest'

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
