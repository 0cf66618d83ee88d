/**
 * The arguments of a CLI command: positional words, and `--name value` options. An option named in
 * `multi` takes every word up to the next option (`--platform face nuitrack`) and may repeat.
 */
export interface ParsedArgs {
  positional: string[]
  options: Map<string, string[]>
  /** an option that is not among the known ones, or one missing its value */
  problem: string | null
}

export function parseArgs(args: readonly string[], known: readonly string[], multi: readonly string[] = []): ParsedArgs {
  const positional: string[] = []
  const options = new Map<string, string[]>()
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (!a.startsWith('--')) {
      positional.push(a)
      continue
    }
    const name = a.slice(2)
    if (!known.includes(name)) return { positional, options, problem: `Unknown option ${a}. Options: ${known.map((k) => `--${k}`).join(', ')}` }
    const values: string[] = []
    while (i + 1 < args.length && !args[i + 1]!.startsWith('--')) {
      values.push(args[++i]!)
      if (!multi.includes(name)) break
    }
    if (values.length === 0) return { positional, options, problem: `${a} needs a value` }
    if (!multi.includes(name) && options.has(name)) return { positional, options, problem: `${a} is given twice` }
    options.set(name, [...(options.get(name) ?? []), ...values])
  }
  return { positional, options, problem: null }
}

/** A row id given on the command line (digits only, at most 15 of them); null for anything else. */
export const parseId = (text: string | undefined): number | null => (text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : null)

/** An amount of US dollars as whole cents, from text only (never through a float): "12", "12.5", "12.50". */
export function parseUsdCents(text: string): number | null {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim())
  if (!m) return null
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
}
