import type { AppContext } from '../context.ts'
import type { Queryable } from '../db/db.ts'
import { redeliverSandboxEvent, type SandboxWebhooks } from '../modules/payments/sandbox.ts'
import {
  RECONCILE_DEFAULT_HOURS,
  RefundRefused,
  disputeSandboxTransaction,
  reconcilePayments,
  refundTransaction,
  settleSandboxCheckout,
} from '../modules/payments/service.ts'
import { PaymentUnavailable } from '../platform/payments/port.ts'
import { formatCents, formatCreditNoteNumber } from '@portal/domain'
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

const flag = (args: string[], name: string) => {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : undefined
}

/** payments:refund: a staff refund through the provider. */
export async function refundCommand(args: string[], ctx: (() => Promise<AppContext>) | undefined): Promise<CommandResult> {
  const usage = { code: 2, output: 'Usage: payments:refund <transaction_id> [--amount USD] --reason TEXT' }
  const id = Number(args[0])
  const reason = flag(args, '--reason')?.trim()
  const amountText = flag(args, '--amount')
  if (!Number.isSafeInteger(id) || id <= 0 || !reason) return usage
  let amountCents: number | undefined
  if (amountText !== undefined) {
    const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(amountText)
    if (!m) return usage
    amountCents = Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'))
  }
  if (!ctx) return { code: 1, output: 'payments:refund needs the portal (its payment providers).' }
  try {
    const r = await refundTransaction(await ctx(), { transactionId: id, reason, ...(amountCents !== undefined ? { amountCents } : {}) })
    if (!r.applied || !r.creditNote) return { code: 1, output: `Transaction ${id} was refunded at the provider before: nothing more to do.` }
    const owed = r.owedCents > 0 ? ` The balance was spent: ${formatCents(r.owedCents)} is owed.` : ''
    return {
      code: 0,
      output: `Refunded ${formatCents(r.creditNote.amount_cents)} of transaction ${id}: credit note ${formatCreditNoteNumber(r.creditNote.number)}, ${r.suspended.length} license(s) suspended, ${r.capacityTaken} ungenerated license(s) taken out of their groups, the customer is mailed.${owed}`,
    }
  } catch (err) {
    if (err instanceof RefundRefused) return { code: 1, output: err.message }
    if (err instanceof PaymentUnavailable) return { code: 1, output: `The provider did not refund: ${err.message}. Nothing changed; try again.` }
    throw err
  }
}

/** sandbox:dispute: a sandbox chargeback, lost or won. */
export async function sandboxDisputeCommand(args: string[], ctx: (() => Promise<AppContext>) | undefined): Promise<CommandResult> {
  const usage = { code: 2, output: 'Usage: sandbox:dispute <transaction_id> [--outcome lost|won]' }
  const id = Number(args[0])
  const outcome = flag(args, '--outcome') ?? 'lost'
  if (!Number.isSafeInteger(id) || id <= 0 || (outcome !== 'lost' && outcome !== 'won')) return usage
  if (!ctx) return { code: 1, output: 'sandbox:dispute needs the portal.' }
  try {
    return { code: 0, output: await disputeSandboxTransaction(await ctx(), id, outcome) }
  } catch (err) {
    if (err instanceof RefundRefused) return { code: 1, output: err.message }
    throw err
  }
}
