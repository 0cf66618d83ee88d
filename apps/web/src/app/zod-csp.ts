// Zod compiles object parsers with `new Function` when it can, and probes for that with an eval the
// portal's CSP (no 'unsafe-eval') refuses, which Chromium reports as a CSP issue on every page. The
// browser parses small forms: the interpreter is as fast for them. Imported first by main.tsx. Zod
// keeps its settings in the object at globalThis.__zod_globalConfig, adopting one already there; the
// setting goes into that object (made here when Zod has not loaded yet), so the entry sets it without
// loading Zod, which comes with the screens whose forms use it.
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } }
;(holder.__zod_globalConfig ??= {}).jitless = true
