import { readFileSync, readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The query cache is written in one place: mutation hooks in `api/` files put the entity the API
 * answers into the cache, or invalidate through another file's `queryOptions().queryKey`. Screens
 * call the hooks; they never refetch lists themselves, and no key is spelled as a literal there.
 */
const src = join(import.meta.dirname, '..')
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name)
    if (e.isDirectory()) return e.name === 'test' ? [] : sourceFiles(p)
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : []
  })
}
const files = sourceFiles(src).map((f) => ({ path: relative(src, f), text: readFileSync(f, 'utf8') }))
const inApi = (path: string) => path.split(sep).includes('api') || path.startsWith(`lib${sep}`)

describe('query cache writes', () => {
  it('only api/ files (and lib/) touch the cache', () => {
    const found = files.filter((f) => !inApi(f.path) && /\b(invalidateQueries|setQueryData|refetchQueries|removeQueries)\(/.test(f.text)).map((f) => f.path)
    expect(found).toEqual([])
  })

  it('invalidations name their key through queryOptions, never a literal', () => {
    const found = files.flatMap((f) => [...f.text.matchAll(/invalidateQueries\(\{\s*queryKey:\s*\[/g)].map(() => f.path))
    expect(found).toEqual([])
  })
})
