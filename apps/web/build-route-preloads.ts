import { relative } from 'node:path'
import type { OutputBundle, OutputChunk } from 'rollup'
import type { Plugin } from 'vite'

/** Where the build writes the preloads of the pages it knows (the server reads it: platform/web-app.ts). */
export const ROUTE_PRELOADS_FILE = '.vite/route-preloads.json'

/** A page the server should answer with its screen's files announced: its path, and the route modules it draws. */
export interface RoutePreloadSpec {
  /** a regular expression for the page's path, e.g. `^/app/login/$` */
  pattern: string
  /** the lazy route modules the page matches, as paths under apps/web */
  modules: string[]
  /** a signed-in page: announced only to a visitor the session cookie says is signed in (else the guard sends them to the login) */
  signedIn?: boolean
  /** the API addresses the page asks for as it opens (same-origin paths), announced as `preload` links */
  fetch?: string[]
}

/** What the server adds to index.html for a page matching `pattern`: the scripts and styles its screen loads. */
export interface RoutePreload {
  pattern: string
  signedIn: boolean
  js: string[]
  css: string[]
  fetch: string[]
}

type Meta = { viteMetadata?: { importedCss: Set<string> } }

/**
 * Computes, for each page given, the chunks its route modules load beyond the entry (their static
 * imports, recursively) and their styles, and writes them to dist/.vite/route-preloads.json. The
 * server lists them in the page's index.html as modulepreload and preload links, so the browser
 * fetches the screen's code with the entry instead of after the entry has run and the router has
 * matched: one round trip less before a dashboard or the login screen can draw.
 */
export function routePreloads(pages: RoutePreloadSpec[]): Plugin {
  let root = process.cwd()
  let base = '/'
  return {
    name: 'portal-route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root
      base = config.base
    },
    generateBundle(_options, bundle: OutputBundle) {
      const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk')
      const entry = chunks.find((c) => c.isEntry)
      if (!entry) return
      const byModule = new Map<string, OutputChunk>()
      for (const c of chunks) for (const id of c.moduleIds) byModule.set(relative(root, id), c)
      const byFile = new Map(chunks.map((c) => [c.fileName, c]))
      const loaded = (start: OutputChunk, into: Set<OutputChunk>) => {
        if (into.has(start)) return
        into.add(start)
        for (const file of start.imports) {
          const next = byFile.get(file)
          if (next) loaded(next, into)
        }
      }
      const withEntry = new Set<OutputChunk>()
      loaded(entry, withEntry)
      const out: RoutePreload[] = pages.map((page) => {
        const set = new Set<OutputChunk>()
        for (const m of page.modules) {
          const chunk = byModule.get(m)
          if (!chunk) throw new Error(`route-preloads: ${m} is in no chunk of the build`)
          loaded(chunk, set)
        }
        const own = [...set].filter((c) => !withEntry.has(c))
        const css = new Set<string>()
        for (const c of own) for (const f of (c as OutputChunk & Meta).viteMetadata?.importedCss ?? []) css.add(f)
        return {
          pattern: page.pattern,
          signedIn: page.signedIn ?? false,
          js: own.map((c) => `${base}${c.fileName}`),
          css: [...css].map((f) => `${base}${f}`),
          fetch: page.fetch ?? [],
        }
      })
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: `${JSON.stringify(out, null, 1)}\n` })
    },
  }
}
