import { createInterface } from 'node:readline'
import { buildApp } from '../app.ts'
import { postgresDb } from '../db/db.ts'
import { loadConfig } from '../platform/config.ts'
import { TEST_MASTER_KEY } from './master-key.ts'
import { runRenewals } from '../modules/subscriptions/renewal.ts'

/**
 * A second portal process that runs the renewal job when told (the two-process renewal tests): the
 * real app on CHILD_DATABASE_URL, job loop off. It prints {"ready":true}, then for each line "renew"
 * on stdin runs one renewal run and prints its counts as one JSON line.
 */
const db = postgresDb(process.env.CHILD_DATABASE_URL!, 6)
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATA_DIR: process.env.CHILD_DATA_DIR!,
  SESSION_SECRET: 'test-secret-test-secret-test-secret-42',
  PORTAL_MASTER_KEY: TEST_MASTER_KEY,
  PUBLIC_URL: 'http://portal.test',
})
const app = await buildApp({ config, db, runJobs: false })
await app.ready()
process.stdout.write(JSON.stringify({ ready: true, pid: process.pid }) + '\n')
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'renew') continue
  try {
    process.stdout.write(JSON.stringify({ counts: await runRenewals(app.ctx) }) + '\n')
  } catch (err) {
    process.stdout.write(JSON.stringify({ error: String(err) }) + '\n')
  }
}
await app.close()
await db.close()
