import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError, loadConfig } from '../platform/config.ts'
import { migrate, openDb } from '../db/db.ts'
import { HELP, runCommand } from './commands.ts'
import { runLicenseCommand } from './license-commands.ts'
import { terminalSafe } from './result.ts'
import { sandboxAllowed } from '../platform/payments/registry.ts'
import { sandboxWebhooks } from '../modules/payments/sandbox.ts'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../app.ts'
import { loadSecrets, masterKeyOf } from '../platform/secrets.ts'
import { dbKeyring, type Keyring } from '../platform/signing.ts'

/** A command's answer may quote customer text: it is printed as text, never as terminal escapes. */
const print = (output: string) => console.log(terminalSafe(output))

/** The commands that deliver the sandbox's webhooks, signed with the secret every instance shares. */
const SIGNS_SANDBOX_WEBHOOKS = new Set(['payments:redeliver', 'sandbox:settle'])

/** `npm run portal -- <command>`: see HELP in commands.ts. */
async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || ['help', '--help', '-h'].includes(argv[0]!)) {
    console.log(HELP)
    return 0
  }
  const config = loadConfig()
  const local = runLicenseCommand(argv)
  if (local) {
    print(local.output)
    return local.code
  }
  if (!config.DATABASE_URL) {
    const viaPortal = await sendToRunningPortal(config.DATA_DIR, argv)
    if (viaPortal) {
      print(viaPortal.output)
      return viaPortal.code
    }
  }
  const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: join(config.DATA_DIR, 'pglite') })
  try {
    if (argv[0] !== 'migrate') await migrate(db)
    // the commands that settle payments need the portal's context: an app built here, its job loop off
    let app: FastifyInstance | undefined
    const ctx = async () => (app ??= await buildApp({ config: { ...config, LOG_LEVEL: 'warn' }, db, runJobs: false })).ctx
    try {
      // the shared secrets and keys are read (or, on a new database, made) only for the commands that sign with them
      const webhooks =
        SIGNS_SANDBOX_WEBHOOKS.has(argv[0]!) && sandboxAllowed(config)
          ? sandboxWebhooks(config, (await loadSecrets(db, config)).sandboxWebhookSecret)
          : undefined
      let keyring: Keyring | undefined
      const openKeyring = async () =>
        (keyring ??= await dbKeyring({ db, masterKey: masterKeyOf(config), pinnedPem: config.LICENSE_SIGNING_KEY, dataDir: config.DATA_DIR, refreshMs: 0 }))
      const result = await runCommand(db, argv, { sandboxWebhooks: () => webhooks, ctx, keyring: openKeyring })
      print(result.output)
      return result.code
    } finally {
      await app?.close()
    }
  } finally {
    await db.close()
  }
}

async function sendToRunningPortal(dataDir: string, argv: string[]) {
  const file = join(dataDir, 'portal.json')
  if (!existsSync(file)) return null
  const { port, token, pid } = JSON.parse(readFileSync(file, 'utf8')) as { port: number; token: string; pid: number }
  try {
    process.kill(pid, 0)
  } catch {
    return null // the portal that wrote the file is gone
  }
  const res = await fetch(`http://127.0.0.1:${port}/api/admin/cli/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': token },
    body: JSON.stringify({ argv }),
  })
  if (!res.ok) throw new Error(`The running portal refused the command (${res.status}): ${await res.text()}`)
  return (await res.json()) as { code: number; output: string }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof ConfigError) console.error(err.problems.map((p) => `config: ${p}`).join('\n'))
    else console.error(err instanceof Error ? err.message : err)
    process.exit(1)
  },
)
