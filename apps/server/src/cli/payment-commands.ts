import type { Queryable } from '../db/db.ts'
import { redeliverSandboxEvent, type SandboxWebhooks } from '../modules/payments/sandbox.ts'
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
