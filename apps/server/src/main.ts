import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildApp } from './app.ts'
import { ConfigError, loadConfig, productionWarnings } from './platform/config.ts'
import { DataDirInUse, migrate, openDb } from './db/db.ts'
import { seedCatalogue } from './modules/catalogue/queries.ts'
import { randomToken } from './platform/crypto.ts'
import { stopGracefully } from './platform/lifecycle.ts'
import { MasterKeyMismatch } from './platform/secrets.ts'

async function main() {
  const started = Date.now()
  const config = loadConfig()
  mkdirSync(config.DATA_DIR, { recursive: true })
  const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: join(config.DATA_DIR, 'pglite') })
  await migrate(db, { seed: seedCatalogue })
  const adminToken = config.databaseKind === 'pglite' ? randomToken(32) : undefined
  const app = await buildApp({ config, db, adminToken })
  // last safety net: every background task catches its own failures, but a slip must not take the
  // portal down with every request in flight; it is logged as the bug it is
  process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled promise rejection (a bug: the task should catch it)'))
  const address = await app.listen({ port: config.PORT, host: config.HOST })
  const portalFile = join(config.DATA_DIR, 'portal.json')
  if (adminToken) writeFileSync(portalFile, JSON.stringify({ port: config.PORT, token: adminToken, pid: process.pid }), { mode: 0o600 })

  app.log.info({ address, database: db.kind, ms: Date.now() - started }, 'portal started')
  console.log(`\nPortal:      ${config.PUBLIC_URL}/app/`)
  console.log(`Node.js:     ${process.version}`)
  console.log(`API docs:    ${config.PUBLIC_URL}/api/docs/`)
  if (config.NODE_ENV !== 'production') {
    console.log(
      app.mailer.mode === 'dev'
        ? `Dev mailbox: ${config.PUBLIC_URL}/dev/mailbox (no SMTP_URL set: mails stay there)`
        : `Mail goes over SMTP (${new URL(config.SMTP_URL!).host})`,
    )
  }
  const providers = app.ctx.payments.describe()
  console.log(
    `Payments:    card by ${providers.stripe}, PayPal by ${providers.paypal}${Object.values(providers).includes('sandbox') ? ` (sandbox checkout: no real money)` : ''}`,
  )
  console.log(
    `Database:    ${db.kind === 'pglite' ? `PGlite in ${join(config.DATA_DIR, 'pglite')}` : 'PostgreSQL (DATABASE_URL)'}; started in ${Date.now() - started} ms\n`,
  )
  const warnings = productionWarnings(config)
  for (const warning of warnings) app.log.warn({ setting: warning.split(' ')[0] }, warning)
  if (warnings.length > 0) console.log(`Not ready for customers (docs/deploy.md):\n${warnings.map((w) => `  - ${w}`).join('\n')}\n`)

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    // past the drain and the time given to what is in flight, the process ends anyway
    const force = setTimeout(() => process.exit(1), (config.SHUTDOWN_DELAY_SECONDS + config.SHUTDOWN_TIMEOUT_SECONDS) * 1000)
    force.unref()
    try {
      await stopGracefully(app, db, { delaySeconds: config.SHUTDOWN_DELAY_SECONDS, log: app.log })
      if (adminToken) rmSync(portalFile, { force: true })
      process.exit(0)
    } catch (err) {
      app.log.error({ err }, 'shutdown failed')
      process.exit(1)
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    for (const p of err.problems) console.error(`config: ${p}`)
  } else if (err instanceof MasterKeyMismatch) {
    // one line, no stack: the key is wrong, not the code, and a restart with the same key fails the same way
    console.error(`config: ${err.message}`)
  } else if (err instanceof DataDirInUse) {
    console.error(err.message)
  } else {
    console.error(err)
  }
  process.exit(1)
})
