import { FEEDBACK_EMOTIONS } from '@portal/domain'
import type { Db } from '../db/db.ts'
import { listFeedback } from '../modules/feedback/queries.ts'
import { parseArgs } from './options.ts'
import { terminalSafe, type CommandResult } from './result.ts'

export const FEEDBACK_HELP = `
  feedback:list [--since YYYY-MM-DD]
                          what customers sent through the feedback widget, oldest first (since the
                          start of that day, UTC): time, e-mail, score and emotion, page, comment`

const USAGE = 'Usage: feedback:list [--since YYYY-MM-DD]'
const emotion = (score: number) => FEEDBACK_EMOTIONS.find((e) => e.score === score)?.name ?? '?'
/** one row per entry, and customer text printed as text: no tab, line break or escape of its own */
const cell = (s: string) => terminalSafe(s, { oneLine: true })

/** The feedback commands; null for any other command. */
export async function runFeedbackCommand(db: Db, argv: readonly string[]): Promise<CommandResult | null> {
  const [command, ...args] = argv
  if (command !== 'feedback:list') return null
  const parsed = parseArgs(args, ['since'])
  if (parsed.problem || parsed.positional.length) return { code: 2, output: `${parsed.problem ?? 'No positional arguments.'}\n${USAGE}` }
  const sinceText = parsed.options.get('since')?.[0]
  let since: Date | null = null
  if (sinceText !== undefined) {
    since = /^\d{4}-\d{2}-\d{2}$/.test(sinceText) ? new Date(`${sinceText}T00:00:00Z`) : null
    if (!since || Number.isNaN(since.getTime()) || since.toISOString().slice(0, 10) !== sinceText)
      return { code: 2, output: `--since is a date like 2026-11-01.\n${USAGE}` }
  }
  const rows = await listFeedback(db, since)
  if (!rows.length) return { code: 0, output: since ? `No feedback since ${sinceText}.` : 'No feedback yet.' }
  const lines = rows.map((r) =>
    [
      new Date(r.created_at).toISOString().slice(0, 16).replace('T', ' '),
      cell(r.email ?? '(deleted account)'),
      `${r.score} ${emotion(r.score)}`,
      cell(r.page ?? ''),
      cell(r.comment),
    ].join('\t'),
  )
  const average = rows.reduce((s, r) => s + r.score, 0) / rows.length
  return { code: 0, output: [`time (UTC)\te-mail\tscore\tpage\tcomment`, ...lines, `${rows.length} entries, average score ${average.toFixed(2)}`].join('\n') }
}
