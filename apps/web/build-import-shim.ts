import type { Plugin } from 'vite'

/** A Vite plugin that resolves `source`, when a module matching `importer` imports it, to the file `shim`; every other import of it is left alone. */
export function importShim(name: string, source: string, importer: RegExp, shim: string): Plugin {
  return {
    name,
    enforce: 'pre',
    resolveId(id, from) {
      return id === source && from && importer.test(from) ? shim : null
    },
  }
}
