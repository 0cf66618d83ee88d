import type { AppContext } from '../context.ts'
import { runRenewals } from '../modules/subscriptions/renewal.ts'
import { subscriptionOfLicense } from '../modules/subscriptions/queries.ts'
import { parseArgs, parseId } from './options.ts'
import type { CommandResult } from './result.ts'

export const SUBSCRIPTIONS_HELP = `
  subscriptions:renew [--at ISO-TIME] [--license ID]
                          run the renewal job once now: every subscription due is charged, retried,
                          sent to confirm its payment or stopped; --at runs it as at a later time
                          (only while the sandbox serves cards: renewals tried without waiting a month);
                          --license renews only that license's subscription`

const USAGE = 'Usage: subscriptions:renew [--at ISO-TIME] [--license ID]'

/**
 * subscriptions:renew: one run of the renewal job, for an operator after an outage, and (with --at)
 * for trying renewals on the sandbox. A run as at a later time would charge real cards early, so it
 * is refused unless the card source is the sandbox's. --license limits the run to one license's
 * subscription: one customer's renewal retried, or tried early, leaving every other one to its time.
 */
export async function renewCommand(args: string[], ctx: (() => Promise<AppContext>) | undefined): Promise<CommandResult> {
  const parsed = parseArgs(args, ['at', 'license'])
  if (parsed.problem || parsed.positional.length) return { code: 2, output: `${parsed.problem ?? 'No positional arguments.'}\n${USAGE}` }
  const atText = parsed.options.get('at')?.[0]
  const licenseText = parsed.options.get('license')?.[0]
  const when = atText === undefined ? null : new Date(atText)
  if (when && Number.isNaN(when.getTime())) return { code: 2, output: `--at: not a time: ${atText}\n${USAGE}` }
  const licenseId = parseId(licenseText)
  if (licenseText !== undefined && licenseId === null) return { code: 2, output: `--license: not a license id: ${licenseText}\n${USAGE}` }
  if (!ctx) return { code: 1, output: 'subscriptions:renew needs the portal (its payment providers).' }
  const c = await ctx()
  if (when) {
    let sandbox = false
    try {
      sandbox = c.payments.forSource('stripe').name === 'sandbox'
    } catch {
      sandbox = false
    }
    if (!sandbox) return { code: 1, output: '--at is for the sandbox only: the card source is a real provider here.' }
  }
  if (licenseId !== null && !(await subscriptionOfLicense(c.db, licenseId))) return { code: 1, output: `License ${licenseId} has no subscription.` }
  const now = when ?? c.clock.now()
  const counts = await runRenewals(c, now, { licenseId })
  const told = Object.entries(counts)
    .map(([outcome, n]) => `${outcome} ${n}`)
    .join(', ')
  const scope = licenseId === null ? '' : ` for license ${licenseId}`
  return { code: counts.error ? 1 : 0, output: `Renewal run${scope} as at ${now.toISOString()}: ${told || 'nothing due'}.` }
}
