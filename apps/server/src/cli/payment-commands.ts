import type { AppContext } from '../context.ts'
import type { Queryable } from '../db/db.ts'
import { redeliverSandboxEvent, type SandboxWebhooks } from '../modules/payments/sandbox.ts'
import { RECONCILE_DEFAULT_HOURS, reconcilePayments, settleSandboxCheckout } from '../modules/payments/service.ts'
import { AppError } from '../platform/errors.ts'
import type { CommandResult } from './result.ts'

export const PAYMENTS_HELP = `
  payments:redeliver <session_id> [--times N]
                          send a sandbox checkout's last webhook again (re-signed now), N times at
                          once (1-100, default 1), and print what the portal answered each time`

const MAX_TIMES = 100

/**
 * payments:redeliver: for operators after an outage (a webhook that never arrived) and for tests
 * (the same event N times in parallel must credit once). `webhooks` is the sandbox's signer and
 * address: the running portal's own in PGlite mode, else one built from the configuration.
 */
export async function redeliverCommand(db: Queryable, args: string[], webhooks: (() => SandboxWebhooks | undefined) | undefined): Promise<CommandResult> {
  const usage = { code: 2, output: 'Usage: payments:redeliver <session_id> [--times N]' }
  const timesAt = args.indexOf('--times')
  const times = timesAt >= 0 ? Number(args[timesAt + 1]) : 1
  const sessionId = args.find((a, i) => !a.startsWith('--') && (timesAt < 0 || i !== timesAt + 1))
  if (!sessionId || !Number.isInteger(times) || times < 1 || times > MAX_TIMES) return usage
  const sandbox = webhooks?.()
  if (!sandbox) return { code: 1, output: 'The sandbox payment provider is off here (NODE_ENV=production without PAYMENTS_SANDBOX=1).' }
  const { found, url, answers } = await redeliverSandboxEvent(db, sandbox, sessionId, times)
  if (!found) return { code: 1, output: `No sandbox checkout ${sessionId} with a webhook to send (is it still open?).` }
  const ok = answers.filter((a) => a.status !== null && a.status >= 200 && a.status < 300).length
  const lines = answers.map((a, i) => `  #${i + 1}: ${a.status ?? 'no answer'} ${a.text.slice(0, 200)}`)
  return {
    code: ok === answers.length ? 0 : 1,
    output: [`Sent the webhook of ${sessionId} ${times} time${times === 1 ? '' : 's'} to ${url}: ${ok} accepted.`, ...lines].join('\n'),
  }
}

/** "72h", "3d", "90m" or a number of hours; null for anything else */
export function parseSince(text: string | undefined): number | null {
  if (text === undefined) return RECONCILE_DEFAULT_HOURS
  const m = /^(\d{1,5})(m|h|d)?$/.exec(text.trim())
  if (!m) return null
  const n = Number(m[1])
  const hours = m[2] === 'd' ? n * 24 : m[2] === 'm' ? n / 60 : n
  return hours > 0 ? hours : null
}

/** payments:reconcile: the reconcile job on demand (after an outage, or to settle a held payment now). */
export async function reconcileCommand(args: string[], ctx: (() => Promise<AppContext>) | undefined): Promise<CommandResult> {
  const at = args.indexOf('--since')
  const hours = parseSince(at >= 0 ? args[at + 1] : undefined)
  if (hours === null || (at >= 0 && args.length !== 2) || (at < 0 && args.length !== 0)) return { code: 2, output: 'Usage: payments:reconcile [--since 72h]' }
  if (!ctx) return { code: 1, output: 'payments:reconcile needs the portal (its payment providers).' }
  const r = await reconcilePayments(await ctx(), hours)
  return {
    code: r.unavailable > 0 ? 1 : 0,
    output: `Reconciled the payments of the last ${hours} h: ${r.checked} read back, ${r.paid} paid now, ${r.closed} closed now, ${r.open} still open or held, ${r.unavailable} whose provider could not be asked.`,
  }
}

/** sandbox:settle: the sandbox's side of a payment held for review (Pay (held for review) on its checkout page). */
export async function sandboxSettleCommand(
  args: string[],
  ctx: (() => Promise<AppContext>) | undefined,
  webhooks: (() => SandboxWebhooks | undefined) | undefined,
): Promise<CommandResult> {
  const usage = { code: 2, output: 'Usage: sandbox:settle <session_id> --outcome paid|declined' }
  const at = args.indexOf('--outcome')
  const outcome = at >= 0 ? args[at + 1] : undefined
  const sessionId = args.find((a, i) => !a.startsWith('--') && i !== at + 1)
  if (!sessionId || (outcome !== 'paid' && outcome !== 'declined') || args.length !== 3) return usage
  const sandbox = webhooks?.()
  if (!sandbox || !ctx) return { code: 1, output: 'The sandbox payment provider is off here (NODE_ENV=production without PAYMENTS_SANDBOX=1).' }
  try {
    await settleSandboxCheckout(await ctx(), sandbox, sessionId, outcome)
  } catch (err) {
    if (err instanceof AppError) return { code: 1, output: `No sandbox checkout ${sessionId} held for review (${err.message}).` }
    throw err
  }
  return { code: 0, output: `Settled ${sessionId} as ${outcome}: its webhook is queued for the portal.` }
}
