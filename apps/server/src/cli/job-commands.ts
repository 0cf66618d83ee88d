import type { Db } from '../db/db.ts'
import { cancelJob, listJobs, retryJob } from '../platform/queries.ts'
import { parseArgs, parseId } from './options.ts'
import { terminalSafe, type CommandResult } from './result.ts'

export const JOBS_HELP = `
  jobs:list [--failed] [--name NAME]
                          the job queue: waiting and running jobs, oldest first (with --failed, the
                          jobs that failed for good, newest first): id, name, state, attempts, when,
                          last error
  jobs:retry <id>         run a failed or cancelled job again now, its attempts counted afresh
  jobs:cancel <id>        cancel a waiting job that no process is running (it stays listed as cancelled)`

const LIST_USAGE = 'Usage: jobs:list [--failed] [--name NAME]'
const LIMIT = 200
const iso = (d: Date | null) => (d ? new Date(d).toISOString().slice(0, 19).replace('T', ' ') : '')
/** one line per job: an error's line breaks and tabs would break the columns, control characters the terminal */
const flat = (s: string) => terminalSafe(s, { oneLine: true })

/** The job queue's commands for an operator; null for any other command. */
export async function runJobCommand(db: Db, argv: readonly string[]): Promise<CommandResult | null> {
  const [command, ...args] = argv
  switch (command) {
    case 'jobs:list': {
      const failed = args.includes('--failed')
      const parsed = parseArgs(
        args.filter((a) => a !== '--failed'),
        ['name'],
      )
      if (parsed.problem || parsed.positional.length) return { code: 2, output: `${parsed.problem ?? 'No positional arguments.'}\n${LIST_USAGE}` }
      const name = parsed.options.get('name')?.[0] ?? null
      const rows = await listJobs(db, { failed, name, limit: LIMIT })
      const what = `${failed ? 'failed jobs' : 'waiting or running jobs'}${name ? ` named ${name}` : ''}`
      if (!rows.length) return { code: 0, output: `No ${what}.` }
      const now = Date.now()
      const lines = rows.map((r) => {
        const running = r.status === 'pending' && r.locked_until !== null && new Date(r.locked_until).getTime() >= now
        const state = running ? `running (${r.locked_by})` : r.status === 'pending' ? (new Date(r.run_at).getTime() <= now ? 'due' : 'waiting') : r.status
        const when = r.status === 'pending' ? iso(r.run_at) : iso(r.finished_at)
        return [r.id, r.name, state, `${r.attempts}/${r.max_attempts}`, when, flat(r.last_error ?? '')].join('\t')
      })
      const more = rows.length === LIMIT ? `\n(the first ${LIMIT} only: narrow with --name)` : ''
      return {
        code: 0,
        output: [`id\tname\tstate\tattempts\t${failed ? 'failed at' : 'runs at'} (UTC)\tlast error`, ...lines, `${rows.length} ${what}${more}`].join('\n'),
      }
    }
    case 'jobs:retry': {
      const id = parseId(args[0])
      if (id === null || args.length !== 1) return { code: 2, output: 'Usage: jobs:retry <id>' }
      try {
        const job = await retryJob(db, id)
        return job ? { code: 0, output: `Job ${id} (${job.name}) will run again now.` } : { code: 1, output: `No failed or cancelled job ${id}.` }
      } catch (err) {
        // the same work waits already under its key (a schedule's next run, say): nothing to do twice
        if ((err as { code?: string }).code === '23505') return { code: 1, output: `Job ${id} is not retried: the same job is waiting already.` }
        throw err
      }
    }
    case 'jobs:cancel': {
      const id = parseId(args[0])
      if (id === null || args.length !== 1) return { code: 2, output: 'Usage: jobs:cancel <id>' }
      const result = await cancelJob(db, id)
      if (result.cancelled) return { code: 0, output: `Job ${id} is cancelled.` }
      if (result.running) return { code: 1, output: `Job ${id} is running now: it cannot be cancelled halfway.` }
      return { code: 1, output: result.status ? `Job ${id} is ${result.status}: only a waiting job can be cancelled.` : `No job ${id}.` }
    }
    default:
      return null
  }
}
