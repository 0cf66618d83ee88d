import { buildApp } from '../app.ts'
import { postgresDb } from '../db/db.ts'
import { loadConfig } from '../platform/config.ts'

/**
 * A second portal process for the tests that need one (kill -9, two processes on one database):
 * the real app on CHILD_DATABASE_URL with the given DATA_DIR, on a free loopback port, which it
 * prints as one JSON line. CHILD_RUN_JOBS=1 runs its job loop.
 */
const db = postgresDb(process.env.CHILD_DATABASE_URL!, 4)
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATA_DIR: process.env.CHILD_DATA_DIR!,
  SESSION_SECRET: 'test-secret-test-secret-test-secret-42',
  PUBLIC_URL: 'http://portal.test',
})
const app = await buildApp({ config, db, runJobs: process.env.CHILD_RUN_JOBS === '1' })
await app.listen({ port: 0, host: '127.0.0.1' })
const address = app.server.address()
process.stdout.write(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0, pid: process.pid }) + '\n')
