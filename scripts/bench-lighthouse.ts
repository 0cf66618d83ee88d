/**
 * Lighthouse's runs for `npm run bench`, in a process of their own: Lighthouse leaves hundreds of MB of
 * garbage and compiled code behind it, and in the load generator's process that slowed the calls the
 * bench drives afterwards (docs/benchmarks.md, History). BENCH_LH_PAGES: the pages as JSON; BENCH_LH_OUT: where the figures go.
 */
import { writeFileSync } from 'node:fs'
import { installExitGuards, runLighthouse, stopAll } from './bench-tools.ts'

installExitGuards(Number(process.env.BENCH_TIMEOUT ?? 600))
const pages = JSON.parse(process.env.BENCH_LH_PAGES ?? '[]') as Parameters<typeof runLighthouse>[0]
try {
  writeFileSync(process.env.BENCH_LH_OUT!, JSON.stringify(await runLighthouse(pages)))
} finally {
  await stopAll()
}
