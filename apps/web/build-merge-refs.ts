import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
import { importShim } from './build-import-shim.ts'

const SHIM = fileURLToPath(new URL('./src/lib/merge-refs.ts', import.meta.url))
const SCROLL_AREA = /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/

/**
 * Mantine's ScrollArea (and through it every Table) imports one hook, useMergeRefs, from
 * @floating-ui/react; that import alone puts the library's whole module into the chunk of every
 * screen with a table. For ScrollArea only, the import resolves to src/lib/merge-refs.ts, a copy of
 * the hook; popovers, selects and tooltips still import the library itself.
 */
export const mergeRefsForScrollArea = (): Plugin => importShim('portal-merge-refs-for-scroll-area', '@floating-ui/react', SCROLL_AREA, SHIM)
