import type { Db } from '../db/db.ts'
import { insertChangelogEntry } from '../modules/changelog/queries.ts'
import type { CommandResult } from './result.ts'

export const CHANGELOG_HELP = `
  changelog:add <version> [--date YYYY-MM-DD] --change TEXT [--change TEXT ...]
                          a release in the release notes (what's new): its version (1.2.0), its day
                          (default today, UTC) and one --change per line; customers see it at once
                          and the what's-new dialog opens by itself once for each of them`

const USAGE = 'Usage: changelog:add <version> [--date YYYY-MM-DD] --change TEXT [--change TEXT ...]'
export const CHANGE_MAX = 500

/** The changelog commands; null for any other command. */
export async function runChangelogCommand(db: Db, argv: readonly string[]): Promise<CommandResult | null> {
  const [command, ...args] = argv
  if (command !== 'changelog:add') return null
  // --change repeats and takes one argument each (quote a sentence)
  const changes: string[] = []
  const positional: string[] = []
  let date: string | undefined
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (a === '--change' || a === '--date') {
      const value = args[++i]
      if (value === undefined || value.startsWith('--')) return { code: 2, output: `${a} needs a value\n${USAGE}` }
      if (a === '--change') changes.push(value.trim())
      else if (date !== undefined) return { code: 2, output: `--date is given twice\n${USAGE}` }
      else date = value
    } else if (a.startsWith('--')) return { code: 2, output: `Unknown option ${a}. Options: --date, --change\n${USAGE}` }
    else positional.push(a)
  }
  const [version, ...extra] = positional
  if (!version || extra.length || changes.length === 0) return { code: 2, output: USAGE }
  if (!/^\d{1,4}(\.\d{1,4}){1,3}([-+][0-9A-Za-z.-]{1,32})?$/.test(version)) return { code: 2, output: `The version is like 1.2.0 (got ${version}).` }
  const day = date ?? new Date().toISOString().slice(0, 10)
  const parsedDay = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00:00Z`) : null
  if (!parsedDay || Number.isNaN(parsedDay.getTime()) || parsedDay.toISOString().slice(0, 10) !== day)
    return { code: 2, output: `--date is a day like 2026-11-23 (got ${day}).` }
  const bad = changes.find((c) => c.length === 0 || c.length > CHANGE_MAX)
  if (bad !== undefined) return { code: 2, output: `Each --change is 1 to ${CHANGE_MAX} characters.` }
  if (!(await insertChangelogEntry(db, { version, date: day, changes }))) return { code: 1, output: `Version ${version} is in the release notes already.` }
  return { code: 0, output: `Added version ${version} (${day}) with ${changes.length} change${changes.length === 1 ? '' : 's'} to the release notes.` }
}
