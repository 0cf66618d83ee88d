import { relative } from 'node:path'
import type { Plugin } from 'vite'

/** Where the build writes which chunk holds each source module (beside Vite's manifest). */
export const MODULE_CHUNKS_FILE = '.vite/module-chunks.json'

/**
 * Writes dist/.vite/module-chunks.json: the chunk each of the app's own modules ended up in. Vite's
 * manifest keys a chunk by its source only while the chunk is that one module's; once the build
 * merges small chunks (experimentalMinChunkSize) a route's module can sit in a chunk keyed by name,
 * and scripts/bundle-size.ts finds it here.
 */
export function moduleChunks(): Plugin {
  let root = process.cwd()
  return {
    name: 'portal-module-chunks',
    apply: 'build',
    configResolved(config) {
      root = config.root
    },
    generateBundle(_options, bundle) {
      const map: Record<string, string> = {}
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue
        for (const id of chunk.moduleIds) {
          const path = relative(root, id)
          if (path.startsWith('src/')) map[path] = chunk.fileName
        }
      }
      this.emitFile({ type: 'asset', fileName: MODULE_CHUNKS_FILE, source: `${JSON.stringify(map, null, 1)}\n` })
    },
  }
}
