import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
import { importShim } from './build-import-shim.ts'

const SHIM = fileURLToPath(new URL('./src/lib/remove-scroll-class-names.ts', import.meta.url))
const APP_SHELL_BARS =
  /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]AppShell[\\/]AppShell(?:Header|Footer|Aside)[\\/]AppShell(?:Header|Footer|Aside)\.mjs$/

/**
 * Mantine's AppShell header, footer and aside import react-remove-scroll for two class names; that
 * import put the library (4.4 KB gzipped, a file of its own) into the first load of every signed-in
 * page, though only modals use it, and they load when opened. For those three modules only, the
 * import resolves to src/lib/remove-scroll-class-names.ts; Modal and Drawer still import the library.
 */
export const removeScrollForAppShell = (): Plugin => importShim('portal-remove-scroll-for-app-shell', 'react-remove-scroll', APP_SHELL_BARS, SHIM)
