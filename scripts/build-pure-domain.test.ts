import { parseAst } from 'rollup/parseAst'
import { describe, expect, it } from 'vitest'
import { markPure } from '../apps/web/build-pure-domain.ts'

const parse = (code: string) => parseAst(code) as unknown as Parameters<typeof markPure>[1] extends (c: string) => infer R ? R : never

describe('markPure (apps/web/build-pure-domain.ts)', () => {
  it('wraps top-level initializers that compute something in a pure call, leaving plain values and functions alone', () => {
    const code = [
      "import { z } from 'zod'",
      "export const schema = z.object({ a: z.string() }).refine((v) => v.a !== '')",
      'const LIMITS = { a: 1 }',
      'export const name = "x"',
      'export const rule = (v) => v > 1',
      'export function f() { const inner = g(); return inner }',
      'export const two = a(), three = 3',
    ].join('\n')
    const out = markPure(code, parse)
    expect(out).toContain("export const schema = /* @__PURE__ */ (() => (z.object({ a: z.string() }).refine((v) => v.a !== '')))()")
    expect(out).toContain('const LIMITS = /* @__PURE__ */ (() => ({ a: 1 }))()')
    expect(out).toContain('export const name = "x"')
    expect(out).toContain('export const rule = (v) => v > 1')
    // only the top level: a function's own constants run when it runs
    expect(out).toContain('export function f() { const inner = g(); return inner }')
    expect(out).toContain('export const two = /* @__PURE__ */ (() => (a()))(), three = 3')
  })

  it('keeps what it wraps evaluating to the same value', () => {
    const code = 'export const total = [1, 2, 3].reduce((s, n) => s + n, 0)'
    const out = markPure(code, parse).replace('export ', '')
    expect(new Function(`${out}; return total`)()).toBe(6)
  })
})
