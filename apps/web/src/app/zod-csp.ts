import { z } from 'zod'

// Zod compiles object parsers with `new Function` when it can, and probes for that with an eval the
// portal's CSP (no 'unsafe-eval') refuses, which Chromium reports as a CSP issue on every page. The
// browser parses small forms: the interpreter is as fast for them. Imported first by main.tsx, before
// any schema of @portal/domain is built (the choice is read when a schema is made).
z.config({ jitless: true })
