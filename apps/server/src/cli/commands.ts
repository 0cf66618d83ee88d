import type { Db } from '../db/db.ts'
import { migrate } from '../db/db.ts'
import { hashPassword, randomToken } from '../platform/crypto.ts'
import { findClientByEmail, insertClient, setPassword, setStaff } from '../modules/client/queries.ts'
import { seedCatalogue } from '../modules/catalogue/queries.ts'

export interface CommandResult {
  code: number
  output: string
}

export const HELP = `Usage: npm run portal -- <command> [args]

Commands:
  migrate                 apply the checked-in SQL migrations and seed the catalogue
  staff:grant <email>     mark a client as staff (staff:revoke <email> takes it back)
  demo:seed               create a confirmed demo client and print its password once
  help                    this text

Database: with DATABASE_URL set the CLI talks to PostgreSQL directly. Without it the portal
uses the embedded PGlite database in DATA_DIR (./data), which only one process may open:
while the portal runs, the CLI sends the command to the running portal over loopback
(it finds it through DATA_DIR/portal.json); when the portal is stopped it opens DATA_DIR itself.`

/** Commands that run against a database; the CLI and the running portal both call this. */
export async function runCommand(db: Db, argv: string[]): Promise<CommandResult> {
  const [command, ...args] = argv
  switch (command) {
    case 'migrate': {
      const applied = await migrate(db)
      await seedCatalogue(db)
      return { code: 0, output: applied.length ? `Applied ${applied.join(', ')}; catalogue seeded.` : 'Database is up to date; catalogue seeded.' }
    }
    case 'staff:grant':
    case 'staff:revoke': {
      const email = args[0]
      if (!email) return { code: 2, output: `Usage: ${command} <email>` }
      const ok = await setStaff(db, email, command === 'staff:grant')
      return ok
        ? { code: 0, output: `${email} is ${command === 'staff:grant' ? 'now staff' : 'no longer staff'}.` }
        : { code: 1, output: `No client with the e-mail ${email}.` }
    }
    case 'demo:seed': {
      const email = args[0] ?? 'demo@portal.local'
      // a password that always satisfies the section-5 rule: upper, lower, digit
      const password = `Demo-${randomToken(9).replace(/[^A-Za-z0-9]/g, 'x')}7a`
      const passwordHash = await hashPassword(password)
      const existing = await findClientByEmail(db, email)
      if (existing) {
        await setPassword(db, existing.id, passwordHash)
        await db.query('UPDATE clients SET confirmed_at = COALESCE(confirmed_at, now()) WHERE id = $1', [existing.id])
      } else {
        await insertClient(db, { email, password_hash: passwordHash, is_corporate: false, segment: null, token: randomToken(16), confirmed: true })
      }
      return { code: 0, output: `Demo client ${email}\nPassword: ${password}\n(shown once; run demo:seed again for a new one)` }
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      return { code: 0, output: HELP }
    default:
      return { code: 2, output: `Unknown command: ${command}\n\n${HELP}` }
  }
}
