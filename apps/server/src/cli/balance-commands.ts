import { ERRORS, formatCents, formatInvoiceNumber } from '@portal/domain'
import type { Db } from '../db/db.ts'
import { findClientByEmail } from '../modules/account/queries.ts'
import { adjustBalance, parseAdjustmentAmount } from '../modules/balance/adjust.ts'
import { AppError } from '../platform/errors.ts'
import type { CommandResult } from './result.ts'

export const BALANCE_HELP = `
  balance:adjust <email> <amount> --reason TEXT [--by STAFF_EMAIL]
                          credit (positive amount) or debit (negative) a client's balance in USD,
                          up to 2 decimals, with a ledger entry and a transaction; a debit never
                          takes the balance below zero`

const USAGE = 'Usage: balance:adjust <email> <amount> --reason TEXT [--by STAFF_EMAIL]   (amount in USD: 25, -10.50)'

/** --name VALUE or --name=VALUE; everything else is positional ("-10" is an amount, not an option) */
function parseArgs(args: string[]) {
  const options: Record<string, string> = {}
  const positional: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    const m = /^--(reason|by)(?:=(.*))?$/s.exec(arg)
    if (m) {
      const value = m[2] ?? args[++i]
      if (value === undefined) return null
      options[m[1]!] = value
    } else if (arg.startsWith('--')) return null
    else positional.push(arg)
  }
  return { options, positional }
}

export async function balanceAdjustCommand(db: Db, args: string[]): Promise<CommandResult> {
  const parsed = parseArgs(args)
  if (!parsed || parsed.positional.length !== 2) return { code: 2, output: USAGE }
  const [email, amountText] = parsed.positional as [string, string]
  const amountCents = parseAdjustmentAmount(amountText)
  if (amountCents === null) return { code: 2, output: `The amount must be a non-zero number of USD with at most 2 decimals, like 25 or -10.50.\n${USAGE}` }
  const reason = (parsed.options.reason ?? '').trim()
  if (!reason) return { code: 2, output: `A reason is required (--reason TEXT).\n${USAGE}` }

  let staffId: number | null = null
  if (parsed.options.by !== undefined) {
    const staff = await findClientByEmail(db, parsed.options.by)
    if (!staff?.is_staff) return { code: 1, output: `--by ${parsed.options.by}: no staff member with that e-mail.` }
    staffId = staff.id
  }

  try {
    const done = await adjustBalance({ db }, { email, amountCents, reason, staffId })
    const what = amountCents > 0 ? `Credited ${formatCents(amountCents)} to` : `Debited ${formatCents(-amountCents)} from`
    return {
      code: 0,
      output: `${what} ${email}: transaction #${done.transactionId}, invoice ${formatInvoiceNumber(done.invoiceNumber)}. Balance now ${formatCents(done.balanceCents)}.`,
    }
  } catch (err) {
    if (!(err instanceof AppError)) throw err
    if (err.body.error_code === ERRORS.insufficient_funds.code) {
      const client = await findClientByEmail(db, email)
      const balance = formatCents(client?.balance_cents === undefined ? 0 : Number(client.balance_cents))
      return {
        code: 1,
        output: `Refused (insufficient_funds): the balance of ${email} is ${balance}, less than the debit of ${formatCents(-amountCents)}. Nothing changed.`,
      }
    }
    if (err.body.error_code === ERRORS.client_not_found_by_email.code) return { code: 1, output: `No client with the e-mail ${email}.` }
    return { code: 1, output: `Refused: ${err.body.error}` }
  }
}
