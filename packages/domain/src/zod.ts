import { z } from 'zod'

/**
 * Zod as the domain makes its schemas with it. In a browser the portal runs under a CSP without
 * 'unsafe-eval': there Zod parses without compiling parsers, and without its probe for eval, which
 * the browser reports as a CSP violation even though Zod catches it. Zod reads the setting as each
 * schema is made, so every module of the domain takes `z` from here: the setting holds before the
 * first schema (package.json lists this module under `sideEffects`, so a bundler keeps the setting).
 * The server keeps Zod's compiled parsers.
 */
if ('window' in globalThis) z.config({ jitless: true })

export { z }
