// The server's module graph: the folders under apps/server/src/modules and the imports between them.
// A module is used by another only through its service.ts (its queries and other files are its own),
// and the graph has no cycle. eslint.config.js enforces it with the rule below, scripts/layers.test.ts
// with moduleImports and findCycles; docs/architecture.md draws the graph.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

/** @param {string} dir */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(path)
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : []
  })
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/g

/**
 * Where a relative import of `file` lands, as module and path inside modulesDir; null outside it.
 * @param {string} modulesDir
 * @param {string} file
 * @param {string} specifier
 */
export function landing(modulesDir, file, specifier) {
  const rel = relative(modulesDir, resolve(dirname(file), specifier))
  if (rel.startsWith('..')) return null
  return { module: rel.split(sep)[0], path: rel.split(sep).join('/') }
}

/** The module a file belongs to, or null for a file outside modulesDir. @param {string} modulesDir @param {string} file */
export function moduleOf(modulesDir, file) {
  const rel = relative(modulesDir, file)
  return rel.startsWith('..') || !rel.includes(sep) ? null : rel.split(sep)[0]
}

/**
 * Every import and re-export of a module's own (non-test) files that lands in another module.
 * @param {string} modulesDir
 * @returns {{ from: string, to: string, file: string, target: string }[]}
 */
export function moduleImports(modulesDir) {
  const found = []
  for (const file of sourceFiles(modulesDir)) {
    const from = moduleOf(modulesDir, file)
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = landing(modulesDir, file, m[1])
      if (from && to && to.module !== from) found.push({ from, to: to.module, file, target: to.path })
    }
  }
  return found
}

/**
 * The graph's cycles: the modules of each strongly connected part (Tarjan), sorted.
 * @param {{ from: string, to: string }[]} edges
 * @returns {string[][]}
 */
export function findCycles(edges) {
  /** @type {Map<string, Set<string>>} */
  const next = new Map()
  for (const e of edges) next.set(e.from, (next.get(e.from) ?? new Set()).add(e.to))
  /** @type {Map<string, number>} */
  const index = new Map()
  /** @type {Map<string, number>} */
  const low = new Map()
  /** @type {string[]} */
  const stack = []
  /** @type {string[][]} */
  const parts = []
  /** @param {string} v */
  const visit = (v) => {
    index.set(v, index.size)
    low.set(v, index.get(v))
    stack.push(v)
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v), low.get(w)))
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v), index.get(w)))
    }
    if (low.get(v) === index.get(v)) {
      const part = []
      let w
      do {
        w = stack.pop()
        part.push(w)
      } while (w !== v)
      if (part.length > 1 || next.get(v)?.has(v)) parts.push(part.sort())
    }
  }
  for (const v of next.keys()) if (!index.has(v)) visit(v)
  return parts
}

/**
 * A path from `start` to `goal` in the graph, or null.
 * @param {{ from: string, to: string }[]} edges
 * @param {string} start
 * @param {string} goal
 */
function pathBetween(edges, start, goal) {
  /** @type {Map<string, string>} */
  const cameFrom = new Map([[start, start]])
  const queue = [start]
  while (queue.length) {
    const v = queue.shift()
    if (v === goal) {
      const path = [v]
      while (path[0] !== start) path.unshift(cameFrom.get(path[0]))
      return path
    }
    for (const e of edges) {
      if (e.from !== v || cameFrom.has(e.to)) continue
      cameFrom.set(e.to, v)
      queue.push(e.to)
    }
  }
  return null
}

/** The graph read from disk, once per modules folder and lint run. @type {Map<string, { from: string, to: string }[]>} */
const graphs = new Map()

/** @type {import('eslint').Rule.RuleModule} */
const moduleGraphRule = {
  meta: {
    type: 'problem',
    docs: { description: "a server module imports another only through that module's service.ts, and the module graph has no cycle" },
    schema: [{ type: 'object', properties: { modulesDir: { type: 'string' } }, required: ['modulesDir'], additionalProperties: false }],
    messages: {
      notService:
        'modules/{{from}} imports {{target}}: another module is used through its service.ts only (move what it needs there, or into the module that owns it)',
      cycle: 'modules/{{from}} imports modules/{{to}}, which already depends on it ({{path}}): the module graph has no cycle',
    },
  },
  create(context) {
    const modulesDir = resolve(context.cwd, context.options[0].modulesDir)
    const file = context.physicalFilename
    const from = moduleOf(modulesDir, file)
    if (!from || file.endsWith('.test.ts')) return {}
    /** @param {import('estree').Node & { source?: import('estree').Literal | null }} node */
    const check = (node) => {
      const specifier = node.source?.value
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return
      const to = landing(modulesDir, file, specifier)
      if (!to || to.module === from) return
      if (!to.path.endsWith('/service.ts') || to.path.split('/').length !== 2) {
        context.report({ node: node.source, messageId: 'notService', data: { from, target: `modules/${to.path}` } })
        return
      }
      if (!graphs.has(modulesDir)) graphs.set(modulesDir, moduleImports(modulesDir))
      const back = pathBetween(graphs.get(modulesDir), to.module, from)
      if (back) context.report({ node: node.source, messageId: 'cycle', data: { from, to: to.module, path: [from, ...back].join(' -> ') } })
    }
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check }
  },
}

export const moduleGraphPlugin = { rules: { 'module-graph': moduleGraphRule } }
