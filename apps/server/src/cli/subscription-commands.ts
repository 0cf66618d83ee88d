import type { AppContext } from '../context.ts'
import { runRenewals } from '../modules/subscriptions/renewal.ts'
import type { CommandResult } from './result.ts'

export const SUBSCRIPTIONS_HELP = `
  subscriptions:renew [--at ISO-TIME]
                          run the renewal job once now: every subscription due is charged, retried,
                          sent to confirm its payment or stopped; --at runs it as at a later time
                          (only while the sandbox serves cards: renewals tried without waiting a month)`

/**
 * subscriptions:renew: one run of the renewal job, for an operator after an outage, and (with --at)
 * for trying renewals on the sandbox. A run as at a later time would charge real cards early, so it
 * is refused unless the card source is the sandbox's.
 */
export async function renewCommand(args: string[], ctx: (() => Promise<AppContext>) | undefined): Promise<CommandResult> {
  const usage = { code: 2, output: 'Usage: subscriptions:renew [--at ISO-TIME]' }
  const at = args.indexOf('--at')
  if ((at < 0 && args.length !== 0) || (at >= 0 && (at !== 0 || args.length !== 2))) return usage
  if (!ctx) return { code: 1, output: 'subscriptions:renew needs the portal (its payment providers).' }
  const c = await ctx()
  let now = c.clock.now()
  if (at >= 0) {
    const when = new Date(args[1]!)
    if (Number.isNaN(when.getTime())) return usage
    let sandbox = false
    try {
      sandbox = c.payments.forSource('stripe').name === 'sandbox'
    } catch {
      sandbox = false
    }
    if (!sandbox) return { code: 1, output: '--at is for the sandbox only: the card source is a real provider here.' }
    now = when
  }
  const counts = await runRenewals(c, now)
  const told = Object.entries(counts)
    .map(([outcome, n]) => `${outcome} ${n}`)
    .join(', ')
  return { code: counts.error ? 1 : 0, output: `Renewal run as at ${now.toISOString()}: ${told || 'nothing due'}.` }
}
