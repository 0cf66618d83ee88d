import type { Db } from '../db/db.ts'
import { migrate } from '../db/db.ts'
import { hashPassword, randomToken } from '../platform/crypto.ts'
import { findClientByEmail, insertClient, setPassword, setStaff } from '../modules/account/queries.ts'
import { seedCatalogue } from '../modules/catalogue/queries.ts'
import { markConfirmed } from '../modules/auth/queries.ts'
import { fulfil } from '../modules/licenses/fulfilment.ts'
import { addAvailable } from '../modules/groups/queries.ts'
import { insertBulkLicenses } from '../modules/licenses/queries.ts'
import { recordActivity, recordActivityForLicenses } from '../modules/activity/queries.ts'
import { ONLINE_DEFAULTS, PRODUCTS, productTitle } from '@portal/domain'
import { LICENSE_HELP, runKeyCommand } from './license-commands.ts'
import { PRICE_HELP, runPriceCommand } from './price-commands.ts'
import { PROMO_HELP, runPromoCommand } from './promo-commands.ts'
import { FEEDBACK_HELP, runFeedbackCommand } from './feedback-commands.ts'
import { CHANGELOG_HELP, runChangelogCommand } from './changelog-commands.ts'
import { JOBS_HELP, runJobCommand } from './job-commands.ts'
import { BALANCE_HELP, balanceAdjustCommand } from './balance-commands.ts'
import type { CommandResult } from './result.ts'
import { PAYMENTS_HELP, reconcileCommand, redeliverCommand, refundCommand, sandboxDisputeCommand, sandboxSettleCommand } from './payment-commands.ts'
import { SUBSCRIPTIONS_HELP, renewCommand } from './subscription-commands.ts'
import type { AppContext } from '../context.ts'
import type { SandboxWebhooks } from '../modules/payments/sandbox.ts'
import type { Keyring } from '../platform/signing.ts'

export const HELP = `Usage: npm run portal -- <command> [args]

Commands:
  migrate                 apply the checked-in SQL migrations and seed the catalogue
  staff:grant <email>     mark a client as staff (staff:revoke <email> takes it back)
  demo:seed               create a confirmed demo client and print its password once
  licenses:grant <email> <product> <count> [--os-type N]
                          put <count> licenses of <product> into the client's default group
  licenses:bulk <email> <count>
                          grant and generate <count> Nuitrack licenses at once (benchmarks, demos)
  help                    this text${PAYMENTS_HELP}${SUBSCRIPTIONS_HELP}
${LICENSE_HELP.slice(1)}${BALANCE_HELP}${PROMO_HELP}${PRICE_HELP}${FEEDBACK_HELP}${CHANGELOG_HELP}${JOBS_HELP}

Database: with DATABASE_URL set the CLI talks to PostgreSQL directly. Without it the portal
uses the embedded PGlite database in DATA_DIR (./data), which only one process may open:
while the portal runs, the CLI sends the command to the running portal over loopback
(it finds it through DATA_DIR/portal.json); when the portal is stopped it opens DATA_DIR itself.`

/** What a command may need beyond the database (the running portal hands its own). */
export interface CommandServices {
  /** the sandbox payment provider's webhook signer and address; undefined where the sandbox is off */
  sandboxWebhooks?: () => SandboxWebhooks | undefined
  /** the portal's context (payment providers, fulfilments, job queue): the running portal's own, or one the CLI builds */
  ctx?: () => Promise<AppContext>
  /** the license-signing keyring over the database: the running portal's own, or one the CLI opens */
  keyring?: () => Promise<Keyring>
}

/** Commands that run against a database; the CLI and the running portal both call this. */
export async function runCommand(db: Db, argv: string[], services: CommandServices = {}): Promise<CommandResult> {
  const [command, ...args] = argv
  switch (command) {
    case 'migrate': {
      const applied = await migrate(db, { seed: seedCatalogue })
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
        await markConfirmed(db, existing.id)
      } else {
        await insertClient(db, { email, password_hash: passwordHash, is_corporate: false, segment: null, token: randomToken(16), confirmed: true })
      }
      return { code: 0, output: `Demo client ${email}\nPassword: ${password}\n(shown once; run demo:seed again for a new one)` }
    }
    case 'licenses:grant': {
      const [email, product, countText] = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--os-type')
      const osIndex = args.indexOf('--os-type')
      const osType = osIndex >= 0 ? Number(args[osIndex + 1]) : null
      const count = Number(countText)
      if (!email || !product || !Number.isInteger(count) || count < 1)
        return { code: 2, output: 'Usage: licenses:grant <email> <product> <count> [--os-type N]' }
      if (!(PRODUCTS as readonly string[]).includes(product)) return { code: 2, output: `Unknown product ${product}. Products: ${PRODUCTS.join(', ')}` }
      if (osType !== null && ![0, 1, 2].includes(osType)) return { code: 2, output: '--os-type is 0 (Windows), 1 (Linux) or 2 (Android)' }
      const client = await findClientByEmail(db, email)
      if (!client) return { code: 1, output: `No client with the e-mail ${email}.` }
      const group = await db.transaction(async (tx) => {
        const got = await fulfil(tx, { clientId: client.id, product, count, osType })
        await recordActivity(tx, {
          clientId: client.id,
          groupId: got.groupId,
          kind: 'created',
          details: { product, product_title: productTitle(product), count, origin: 'cli' },
        })
        return got
      })
      return { code: 0, output: `Granted ${count} × ${product} to ${email}: group #${group.groupId} now has ${group.available} available.` }
    }
    case 'licenses:bulk': {
      const [email, countText] = args
      const count = Number(countText)
      if (!email || !Number.isInteger(count) || count < 1 || count > 100_000) return { code: 2, output: 'Usage: licenses:bulk <email> <count>' }
      const client = await findClientByEmail(db, email)
      if (!client) return { code: 1, output: `No client with the e-mail ${email}.` }
      await db.transaction(async (tx) => {
        const { groupId } = await fulfil(tx, { clientId: client.id, product: 'nuitrack_online_subscription_monthly', count })
        // an online product's license carries its online config, as one generated from a group does
        const config = {
          product: 'nuitrack_online_subscription_monthly',
          license_expire_delta: 2592000,
          ...ONLINE_DEFAULTS,
          online: { offline_timeout: ONLINE_DEFAULTS.offline_timeout },
        }
        const ids = await insertBulkLicenses(tx, {
          clientId: client.id,
          groupId,
          type: 'nuitrack',
          product: 'nuitrack_online_subscription_monthly',
          count,
          config,
        })
        const details = { product: config.product, product_title: productTitle(config.product), origin: 'cli' }
        await recordActivityForLicenses(tx, ids, { clientId: client.id, groupId, kind: 'created', details })
        await addAvailable(tx, groupId, -count)
      })
      return { code: 0, output: `Created ${count} licenses for ${email}.` }
    }
    case 'balance:adjust':
      return balanceAdjustCommand(db, args)
    case 'payments:redeliver':
      return redeliverCommand(db, args, services.sandboxWebhooks)
    case 'payments:reconcile':
      return reconcileCommand(args, services.ctx)
    case 'payments:refund':
      return refundCommand(args, services.ctx)
    case 'sandbox:dispute':
      return sandboxDisputeCommand(args, services.ctx)
    case 'sandbox:settle':
      return sandboxSettleCommand(args, services.ctx, services.sandboxWebhooks)
    case 'subscriptions:renew':
      return renewCommand(args, services.ctx)
    case 'license:keys':
    case 'license:verify': {
      const { ctx } = services
      const keyring = services.keyring ?? (ctx && (async () => (await ctx()).keyring))
      if (!keyring) return { code: 1, output: 'The license keyring is not available to this command runner.' }
      return (await runKeyCommand(argv, keyring)) ?? { code: 2, output: `Usage:${LICENSE_HELP}` }
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      return { code: 0, output: HELP }
    default:
      return (
        (await runPromoCommand(db, argv)) ??
        (await runPriceCommand(db, argv)) ??
        (await runFeedbackCommand(db, argv)) ??
        (await runChangelogCommand(db, argv)) ??
        (await runJobCommand(db, argv)) ?? { code: 2, output: `Unknown command: ${command}\n\n${HELP}` }
      )
  }
}
