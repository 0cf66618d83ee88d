import type { GetManualChunk, ManualChunkMeta, ModuleInfo, OutputChunk } from 'rollup'
import type { Plugin } from 'vite'

/** What goes where: module paths as the build sees them (absolute). */
export interface FirstLoadGroups {
  /** the packages that change seldom (React and the router): the modules matching `test`, with what they need, in one chunk every page loads, kept in the cache across releases */
  vendor: { name: string; test: RegExp }
  /** the entry's chunk (the build's entries: index.html): their needs, and what the pages in `shares` need in common with a group's roots */
  entry: { name: string; shares: string[] }
  /** the groups, in order: each takes what its roots need beyond the entry's chunk and the groups before it, in one chunk of its name */
  groups: { name: string; roots: string[] }[]
}

/**
 * Rollup's `manualChunks` (with `onlyExplicitManualChunks`) for first loads in few files. Left to
 * itself the build split a dashboard's first load into 16 scripts, most of them a Mantine component
 * of 1 to 3 kB: those chunks hold side effects (a component's `displayName`), so
 * `experimentalMinChunkSize` may not merge them. Over http/1.1 a browser fetches six at a time, each
 * a round trip, and on a slow link the round trips decide when the dashboard draws.
 *
 * Three chunks then make a page's first load: the vendor chunk, the entry's (everything the entry
 * needs, with what a signed-out page shares with a group, so that neither first load pulls the
 * other's chunk), and the page's group (the signed-in shell with the dashboard; the login screen).
 * A group takes exactly what its roots need beyond the chunks before it. Everything else is chunked
 * as Rollup would. scripts/bundle-size.ts holds the first loads to a number of files.
 */
export function firstLoadChunks(spec: FirstLoadGroups): { manualChunks: GetManualChunk; plugin: Plugin } {
  // worked out once per module graph (a rebuild in watch mode has a graph of its own)
  const assigned = new WeakMap<ManualChunkMeta['getModuleInfo'], Map<string, string>>()
  const manualChunks: GetManualChunk = (id, meta) => {
    let chunks = assigned.get(meta.getModuleInfo)
    if (!chunks) assigned.set(meta.getModuleInfo, (chunks = assign(spec, meta)))
    return chunks.get(id)
  }
  return { manualChunks, plugin: firstLoadGuard(spec) }
}

/**
 * Fails the build when the chunks break what they are for. The analysis below follows Rollup's
 * tree-shaking closely, not exactly: a module it misses from the entry's needs would be put in a
 * group's chunk, and the entry (every page) would then load that chunk. So: the entry's chunk loads
 * no group's chunk, no group's chunk loads another's, and no chunk loads itself through others.
 */
function firstLoadGuard(spec: FirstLoadGroups): Plugin {
  return {
    name: 'portal-first-load-chunks-guard',
    apply: 'build',
    generateBundle(_options, bundle) {
      const problems = firstLoadProblems(
        Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk'),
        spec,
      )
      if (problems.length > 0) this.error(`first-load chunks (build-first-load-chunks.ts): ${problems.join('; ')}`)
    },
  }
}

/** What is wrong with a build's chunks (nothing: an empty list). */
export function firstLoadProblems(chunks: OutputChunk[], spec: Pick<FirstLoadGroups, 'groups'>): string[] {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]))
  const loads = (start: OutputChunk) => {
    const seen = new Set<OutputChunk>()
    const stack = start.imports.map((f) => byFile.get(f)).filter((c) => c !== undefined)
    while (stack.length > 0) {
      const c = stack.pop()!
      if (seen.has(c)) continue
      seen.add(c)
      for (const f of c.imports) if (byFile.has(f)) stack.push(byFile.get(f)!)
    }
    return seen
  }
  const groupNames = new Set(spec.groups.map((g) => g.name))
  const problems: string[] = []
  for (const chunk of chunks) {
    const loaded = loads(chunk)
    if (loaded.has(chunk)) problems.push(`${chunk.fileName} loads itself through the chunks it imports`)
    const isGroup = groupNames.has(chunk.name) && !chunk.isEntry
    if (!chunk.isEntry && !isGroup) continue
    for (const other of loaded)
      if (other !== chunk && groupNames.has(other.name) && !other.isEntry)
        problems.push(`${chunk.isEntry ? 'the entry' : `the ${chunk.name} chunk`} (${chunk.fileName}) loads the ${other.name} chunk (${other.fileName})`)
  }
  return problems
}

type Info = (id: string) => ModuleInfo | null

function assign(spec: FirstLoadGroups, { getModuleInfo: info, getModuleIds }: ManualChunkMeta): Map<string, string> {
  const needs = neededModules(info)
  const out = new Map<string, string>()
  const put = (ids: Iterable<string>, name: string) => {
    for (const id of ids) if (!out.has(id) && info(id)?.isIncluded !== false) out.set(id, name)
  }
  const ids = [...getModuleIds()]
  put(needs(ids.filter((id) => spec.vendor.test.test(id))), spec.vendor.name)
  put(needs(ids.filter((id) => info(id)?.isEntry)), spec.entry.name)
  const shared = needs(spec.entry.shares)
  const grouped = spec.groups.map((group) => ({ ...group, ids: needs(group.roots) }))
  // what a sharing page needs in common with another page's group
  const others = grouped.filter((group) => !group.roots.some((root) => spec.entry.shares.includes(root)))
  put(
    [...shared].filter((id) => others.some((group) => group.ids.has(id))),
    spec.entry.name,
  )
  for (const group of grouped) put(group.ids, group.name)
  return out
}

/**
 * The modules a set of roots needs, statically, close to what Rollup's tree-shaking keeps. A
 * package's index (`@mantine/core`) re-exports every component, and a module of ours exports
 * functions other screens use: following every import would take half the app. So a module asked
 * for some of its exports brings only the imports that the statements behind those exports refer to
 * (a name's statements are its declaration and the statements that mention it first, such as
 * `Button.displayName = ...`), a re-export is followed for the names asked for, and an import made
 * only for side effects is followed unless the module has none.
 */
function neededModules(info: Info) {
  const analyse = memo((id: string) => analysis(info(id)))
  /** whether `id` exports `name`, itself or through `export *` */
  const exportsName = (id: string, name: string, depth = 0): boolean => {
    const a = analyse(id)
    return a.exported.has(name) || a.reexports.has(name) || (depth < 20 && a.stars.some((star) => exportsName(star, name, depth + 1)))
  }

  return (roots: string[]) => {
    const found = new Set<string>()
    const doneNames = new Map<string, Set<string>>()
    const doneStatements = new Map<string, Set<number>>()
    const visit = (id: string, names: string[]) => {
      const module = info(id)
      if (!module || (names.length === 0 && module.moduleSideEffects === false)) return
      const a = analyse(id)
      const asked = get(doneNames, id, () => new Set<string>())
      const first = !found.has(id)
      found.add(id)
      const fresh = names.filter((n) => !asked.has(n) && !asked.has('*'))
      for (const n of fresh) asked.add(n)
      const all = fresh.includes('*') || (first && module.moduleSideEffects !== false && names.length === 0)
      // the statements now needed: every one for the whole module, else those behind the fresh names
      const statements = get(doneStatements, id, () => new Set<number>())
      const queue = all ? a.statements.map((_, i) => i) : [...(first ? a.always : []), ...fresh.flatMap((n) => a.byName.get(a.exported.get(n) ?? '') ?? [])]
      const imports = new Map<string, string[]>()
      for (const n of all ? [] : fresh) {
        // `import { a } from …; export { a }`
        const from = a.imports.get(a.exported.get(n) ?? '')
        if (from) get(imports, from.id, () => []).push(from.name)
      }
      while (queue.length > 0) {
        const i = queue.pop()!
        if (statements.has(i)) continue
        statements.add(i)
        for (const ref of a.statements[i]!.refs) {
          for (const j of a.byName.get(ref) ?? []) queue.push(j)
          const from = a.imports.get(ref)
          if (from) get(imports, from.id, () => []).push(from.name)
        }
      }
      if (first) for (const side of a.sideEffectImports) visit(side, [])
      for (const [source, taken] of imports) visit(source, taken)
      for (const n of all ? [...a.reexports.keys()] : fresh) {
        const via = a.reexports.get(n)
        if (via) visit(via.id, [via.name])
      }
      for (const star of a.stars) {
        const wanted = all ? ['*'] : fresh.filter((n) => !a.exported.has(n) && !a.reexports.has(n) && exportsName(star, n))
        if (wanted.length > 0) visit(star, wanted)
      }
    }
    for (const id of roots) {
      if (!info(id)) throw new Error(`first-load chunks: ${id} is not in the build`)
      visit(id, ['*'])
    }
    return found
  }
}

/** One module as far as the chunking needs it. */
interface Analysis {
  /** its top-level statements other than imports and re-exports, with the names each mentions and whether it calls something as the module loads */
  statements: { refs: Set<string>; runs: boolean }[]
  /** a top-level name's statements: its declaration, and those that mention it first (`X.displayName = …`) */
  byName: Map<string, number[]>
  /** statements that mention no top-level name of the module: run whatever is asked for */
  always: number[]
  /** exported name → its local name */
  exported: Map<string, string>
  /** imported local name → the module and the name taken from it */
  imports: Map<string, { id: string; name: string }>
  /** exported name → the module and name it re-exports */
  reexports: Map<string, { id: string; name: string }>
  /** `export * from` modules */
  stars: string[]
  /** `import 'x'` modules */
  sideEffectImports: string[]
}

/**
 * A module's syntax tree read for `neededModules`. Rollup lists a module's `importedIds` in the order
 * its sources first appear, which maps each source to its module; a module whose imports the tree
 * does not show as Rollup counted them is taken whole.
 */
function analysis(module: ModuleInfo | null): Analysis {
  const a: Analysis = {
    statements: [],
    byName: new Map(),
    always: [],
    exported: new Map(),
    imports: new Map(),
    reexports: new Map(),
    stars: [],
    sideEffectImports: [],
  }
  if (!module) return a
  const ids = module.importedIds
  const body = (module.ast as { body?: Node[] } | null)?.body
  const sources = [...new Set((body ?? []).flatMap((n) => (typeof n.source?.value === 'string' ? [n.source.value] : [])))]
  if (!body || sources.length !== ids.length) {
    for (const id of ids) a.sideEffectImports.push(id)
    a.always.push(0)
    a.statements.push({ refs: new Set(ids.map((_, i) => `\0${i}`)), runs: true })
    ids.forEach((id, i) => a.imports.set(`\0${i}`, { id, name: '*' }))
    return a
  }
  const idOf = new Map(sources.map((source, i) => [source, ids[i]!]))
  const declared: string[][] = []
  for (const node of body) {
    const source = typeof node.source?.value === 'string' ? idOf.get(node.source.value)! : undefined
    if (node.type === 'ImportDeclaration' && source) {
      const specifiers = node.specifiers ?? []
      if (specifiers.length === 0) a.sideEffectImports.push(source)
      for (const s of specifiers) a.imports.set(s.local.name!, { id: source, name: importedName(s) })
    } else if (node.type === 'ExportAllDeclaration' && source) {
      if (node.exported) a.reexports.set(nameOf(node.exported), { id: source, name: '*' })
      else a.stars.push(source)
    } else if (node.type === 'ExportNamedDeclaration' && source) {
      for (const s of node.specifiers ?? []) a.reexports.set(nameOf(s.exported ?? s.local), { id: source, name: nameOf(s.local) })
    } else if (node.type === 'ExportNamedDeclaration' && !node.declaration) {
      for (const s of node.specifiers ?? []) a.exported.set(nameOf(s.exported ?? s.local), nameOf(s.local))
    } else {
      const inner = node.type === 'ExportNamedDeclaration' || node.type === 'ExportDefaultDeclaration' ? node.declaration! : node
      const names = declaredNames(inner)
      if (node.type === 'ExportNamedDeclaration') for (const n of names) a.exported.set(n, n)
      if (node.type === 'ExportDefaultDeclaration') {
        a.exported.set('default', names[0] ?? '\0default')
        if (names.length === 0) names.push('\0default')
      }
      declared.push(names)
      a.statements.push({ refs: references(inner), runs: runsOnLoad(inner) })
    }
  }
  const topLevel = new Set([...declared.flat(), ...a.imports.keys()])
  a.statements.forEach((statement, i) => {
    const own = declared[i]!
    // a statement without declarations runs with the module, or, in a module without side effects, belongs
    // to the first top-level name it mentions
    const owner =
      own.length > 0 || module.moduleSideEffects !== false ? own : [...statement.refs].filter((r) => topLevel.has(r) && !a.imports.has(r)).slice(0, 1)
    // in a module with side effects, a declaration that calls something (`const token = register()`)
    // runs whether or not its name is used, as Rollup keeps it
    if (owner.length === 0 || (module.moduleSideEffects !== false && statement.runs)) a.always.push(i)
    for (const n of owner) get(a.byName, n, () => []).push(i)
  })
  return a
}

interface Node {
  type: string
  [key: string]: unknown
  source?: { value?: unknown } | null
  exported?: Node | null
  declaration?: Node | null
  specifiers?: { type: string; imported?: Node; local: Node; exported?: Node }[]
  name?: string
  value?: unknown
}

/** The top-level names a statement declares. */
function declaredNames(node: Node): string[] {
  if (node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') return node.id ? [(node.id as Node).name!] : []
  if (node.type === 'VariableDeclaration') return (node.declarations as { id: Node }[]).flatMap((d) => patternNames(d.id))
  return []
}

function patternNames(node: Node | null | undefined): string[] {
  if (!node) return []
  if (node.type === 'Identifier') return [node.name!]
  if (node.type === 'ObjectPattern') return (node.properties as Node[]).flatMap((p) => patternNames((p.type === 'RestElement' ? p.argument : p.value) as Node))
  if (node.type === 'ArrayPattern') return (node.elements as (Node | null)[]).flatMap((e) => patternNames(e))
  if (node.type === 'RestElement') return patternNames(node.argument as Node)
  if (node.type === 'AssignmentPattern') return patternNames(node.left as Node)
  return []
}

/**
 * Whether a top-level statement calls something as the module loads: a call, `new` or tagged template
 * outside a function's body, other than one marked `/* @__PURE__ *\/` (its arguments still count).
 * A declaration of a function or a plain value does not.
 */
function runsOnLoad(node: Node): boolean {
  if (node.type === 'FunctionDeclaration') return false
  const walk = (n: unknown): boolean => {
    if (Array.isArray(n)) return n.some(walk)
    if (!n || typeof n !== 'object') return false
    const node = n as Node
    if (node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression') return false
    const pure = (node._rollupAnnotations as { type: string }[] | undefined)?.some((x) => x.type === 'pure')
    if ((node.type === 'CallExpression' || node.type === 'NewExpression') && pure) return walk(node.arguments)
    if (node.type === 'CallExpression' || node.type === 'NewExpression' || node.type === 'TaggedTemplateExpression') return true
    if (node.type === 'AssignmentExpression' || node.type === 'UpdateExpression' || node.type === 'AwaitExpression') return true
    return Object.entries(node).some(([key, value]) => key !== 'type' && walk(value))
  }
  // a class runs its `static` parts and its `extends` expression as it is declared
  if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression')
    return (
      walk(node.superClass) ||
      ((node.body as { body?: Node[] } | undefined)?.body ?? []).some((m) => (m.static === true || m.type === 'StaticBlock' ? walk(m) : false))
    )
  return walk(node.type === 'ExpressionStatement' ? node.expression : node)
}

/** Every identifier a statement mentions (a property's name after a dot, or as an object key, is not a mention). */
function references(node: Node): Set<string> {
  const out = new Set<string>()
  const walk = (n: unknown, skipKey?: string) => {
    if (Array.isArray(n)) return n.forEach((c) => walk(c))
    if (!n || typeof n !== 'object') return
    const node = n as Node
    if (node.type === 'Identifier' || node.type === 'JSXIdentifier') out.add(node.name!)
    for (const [key, value] of Object.entries(node)) {
      if (key === skipKey || key === 'type' || key === 'start' || key === 'end' || key === 'loc') continue
      const plainKey =
        (node.type === 'MemberExpression' && key === 'property' && !node.computed) ||
        (node.type === 'Property' && key === 'key' && !node.computed && !node.shorthand)
      if (plainKey) continue
      walk(value)
    }
  }
  walk(node)
  return out
}

const nameOf = (n: Node | undefined) => (n?.type === 'Literal' ? String(n.value) : (n?.name ?? 'default'))
const importedName = (s: { type: string; imported?: Node }) =>
  s.type === 'ImportDefaultSpecifier' ? 'default' : s.type === 'ImportNamespaceSpecifier' ? '*' : nameOf(s.imported)

const get = <K, V>(map: Map<K, V>, key: K, make: () => V): V => {
  let value = map.get(key)
  if (value === undefined) map.set(key, (value = make()))
  return value
}

const memo = <T>(f: (id: string) => T) => {
  const cache = new Map<string, T>()
  return (id: string) => get(cache, id, () => f(id))
}
