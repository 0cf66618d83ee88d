import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ERRORS, isError } from '@portal/domain'

/**
 * The web names errors by their catalogue name (`isError(err, 'not_found')`, `handle: ['bad_title']`,
 * `ERRORS.email_not_confirmed.code`), never by the 8-hex code: a code in the source says nothing to
 * the reader and silently breaks when the catalogue changes.
 */
const src = join(import.meta.dirname, '..')
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name)
    if (e.isDirectory()) return e.name === 'test' ? [] : sourceFiles(p)
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : []
  })
}

const codes = new Set<string>(
  Object.values(ERRORS)
    .map((e) => e.code)
    .filter((c) => /^[0-9a-f]{8}$/.test(c)),
)
/** Quoted 8-hex literals, and any catalogue code written as a word (in a template or a comment). */
function hexCodesIn(text: string): string[] {
  const quoted = [...text.matchAll(/['"`]([0-9a-f]{8})['"`]/g)].map((m) => m[1]!)
  const words = [...text.matchAll(/\b([0-9a-f]{8})\b/g)].map((m) => m[1]!).filter((w) => codes.has(w))
  return [...new Set([...quoted, ...words])]
}

describe('error codes in the web', () => {
  it('no non-test source file names an error by its hex code', () => {
    const files = sourceFiles(src)
    expect(files.length).toBeGreaterThan(40)
    const found = files.flatMap((f) => hexCodesIn(readFileSync(f, 'utf8')).map((c) => `${relative(src, f)}: ${c}`))
    expect(found).toEqual([])
  })

  it('the check finds a code written either way', () => {
    expect(hexCodesIn(`if (err.code === '63f560db') return`)).toEqual(['63f560db'])
    expect(hexCodesIn('// answers d097efb8 for a bad title')).toEqual(['d097efb8'])
    expect(hexCodesIn(`isError(err, 'not_found')`)).toEqual([])
  })

  it('isError matches by name, on an ApiError-like value or an API body', () => {
    expect(isError({ code: ERRORS.not_found.code }, 'not_found')).toBe(true)
    expect(isError({ error_code: ERRORS.bad_title.code }, 'group_size', 'bad_title')).toBe(true)
    expect(isError({ code: ERRORS.bad_title.code }, 'not_found')).toBe(false)
    expect(isError(new Error('x'), 'not_found')).toBe(false)
    expect(isError(null, 'not_found')).toBe(false)
  })
})
