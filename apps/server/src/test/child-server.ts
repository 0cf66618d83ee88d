import { buildApp } from '../app.ts'
import { postgresDb } from '../db/db.ts'
import { loadConfig } from '../platform/config.ts'
import { TEST_MASTER_KEY } from './master-key.ts'
import { stopGracefully } from '../platform/lifecycle.ts'

/**
 * A second portal process for the tests that need one (kill -9, SIGTERM, two processes on one
 * database): the real app on CHILD_DATABASE_URL with the given DATA_DIR, on a free loopback port,
 * which it prints as one JSON line. CHILD_RUN_JOBS=1 runs its job loop. SIGTERM stops it as the
 * server's main does (CHILD_SHUTDOWN_DELAY_SECONDS of draining first).
 */
const db = postgresDb(process.env.CHILD_DATABASE_URL!, 4)
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATA_DIR: process.env.CHILD_DATA_DIR!,
  SESSION_SECRET: 'test-secret-test-secret-test-secret-42',
  PORTAL_MASTER_KEY: TEST_MASTER_KEY,
  PUBLIC_URL: 'http://portal.test',
})
const app = await buildApp({ config, db, runJobs: process.env.CHILD_RUN_JOBS === '1' })
await app.listen({ port: 0, host: '127.0.0.1' })
const address = app.server.address()
process.stdout.write(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0, pid: process.pid }) + '\n')
process.once('SIGTERM', () => {
  stopGracefully(app, db, { delaySeconds: Number(process.env.CHILD_SHUTDOWN_DELAY_SECONDS ?? 0), log: { info: () => undefined } }).then(
    () => process.exit(0),
    () => process.exit(1),
  )
})
