import type { Plugin } from 'vite'

/** The shared domain package's source files (its tests are never bundled). */
const DOMAIN = /[\\/]packages[\\/]domain[\\/]src[\\/].*(?<!\.test)\.ts$/

interface Node {
  type: string
  start: number
  end: number
  declaration?: Node | null
  declarations?: { init?: Node | null }[]
}

/** Initializers that are plain values already: nothing to mark. */
const PLAIN = new Set(['Literal', 'Identifier', 'ArrowFunctionExpression', 'FunctionExpression', 'ClassExpression', 'TemplateLiteral'])

/**
 * Marks every top-level constant of the domain package as free of side effects, so the build leaves
 * out the ones no screen uses. The package promises this (`"sideEffects": false`, and its rules are pure
 * functions), but the bundler cannot see it in a call like `z.object({...})`: it kept every schema of a
 * module the browser touches, and Zod with them. Each initializer `X` becomes `/* @__PURE__ *\/ (() => X)()`,
 * evaluated at the same point; a constant used anywhere stays exactly as it was.
 */
export function markPure(code: string, parse: (code: string) => { body: Node[] }): string {
  const spans: [number, number][] = []
  for (const node of parse(code).body) {
    const decl = node.type === 'ExportNamedDeclaration' ? node.declaration : node
    if (decl?.type !== 'VariableDeclaration') continue
    for (const d of decl.declarations ?? []) if (d.init && !PLAIN.has(d.init.type)) spans.push([d.init.start, d.init.end])
  }
  let out = code
  for (const [start, end] of spans.sort((a, b) => b[0] - a[0])) {
    out = `${out.slice(0, start)}/* @__PURE__ */ (() => (${out.slice(start, end)}))()${out.slice(end)}`
  }
  return out
}

/** The build step of markPure, on the domain package's files once they are JavaScript. */
export function pureDomainConstants(): Plugin {
  return {
    name: 'portal-pure-domain-constants',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (!DOMAIN.test(id)) return null
      return { code: markPure(code, (c) => this.parse(c) as unknown as { body: Node[] }), map: null }
    },
  }
}
