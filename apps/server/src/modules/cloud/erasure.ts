import { ERASE_AFTER_DAYS, ERASE_WARNING_DAYS, PAUSABLE_PRODUCTS, dataEraseDate, isOnHold, platformOfProduct, productTitle } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import type { JobQueue } from '../../platform/jobs.ts'
import { escapeHtml, type Mail } from '../../platform/mailer.ts'
import { recordActivity } from '../activity/service.ts'
import { eraseWorkspace, listPausedTrials, lockPausedTrial, markEraseWarned, type ErasureRow } from './queries.ts'

export const ERASURE_JOB = 'cloud.erase-paused-trials'
export const ERASURE_EVERY_SECONDS = 3600
const BATCH = 200
const DAY_MS = 86_400_000

const day = (d: Date) => d.toISOString().slice(0, 10)

/** The warning before a paused trial's workspace is erased. */
export function erasureWarningMail(publicUrl: string, l: ErasureRow, eraseOn: Date): Mail {
  const name = l.title ?? `${productTitle(l.product)} #${l.id}`
  const url = `${publicUrl}/app/${platformOfProduct(l.product)}/dashboard/${l.id}/info/`
  const text = [
    `Your paused trial workspace "${name}" will be erased on ${day(eraseOn)}: its data and activated devices are deleted for good.`,
    '',
    `To keep it, resume the workspace before then: ${url}`,
    '',
  ].join('\n')
  const html = `<p>Your paused trial workspace “${escapeHtml(name)}” will be erased on ${day(eraseOn)}: its data and activated devices are deleted for good.</p><p><a href="${escapeHtml(url)}">Resume the workspace</a> before then to keep it.</p>`
  return { to: l.email, subject: `Your paused workspace will be erased on ${day(eraseOn)}`, text, html }
}

/**
 * The erasure sweep: a paused cloud trial not resumed within ERASE_AFTER_DAYS of its pause has its
 * workspace data erased (the license file, its devices), once per pause; the warning mail goes
 * ERASE_WARNING_DAYS before, once, while the erasure is still ahead. Each license is settled in its
 * own transaction under its row lock, re-checked there, so a resume racing the sweep wins or loses
 * whole, and a run repeated (or on two processes) changes nothing more. Licenses on hold wait.
 */
export async function sweepPausedTrials(ctx: Pick<AppContext, 'db' | 'mailer' | 'config' | 'log'>, now: Date) {
  const warnFrom = new Date(now.getTime() + ERASE_WARNING_DAYS * DAY_MS)
  // paused long enough that the warning (ERASE_WARNING_DAYS before the erasure) is due
  const candidates = await listPausedTrials(ctx.db, PAUSABLE_PRODUCTS, new Date(warnFrom.getTime() - ERASE_AFTER_DAYS * DAY_MS), BATCH)
  let warned = 0
  let erased = 0
  for (const c of candidates) {
    const outcome = await ctx.db.transaction(async (tx) => {
      const l = await lockPausedTrial(tx, c.id)
      const eraseOn = l && dataEraseDate(l)
      if (!l || !eraseOn || isOnHold(l, now)) return null
      if (eraseOn <= now) {
        await eraseWorkspace(tx, l.id, now)
        await recordActivity(tx, { clientId: l.client_id, licenseId: l.id, kind: 'released', details: { by: 'erasure' }, at: now })
        return 'erased' as const
      }
      if (l.erase_warned_at === null && eraseOn <= warnFrom) {
        await markEraseWarned(tx, l.id, now)
        await ctx.mailer.enqueue(tx, erasureWarningMail(ctx.config.PUBLIC_URL, l, eraseOn))
        return 'warned' as const
      }
      return null
    })
    if (outcome === 'erased') erased++
    if (outcome === 'warned') warned++
  }
  if (warned || erased) ctx.log.info({ warned, erased }, 'paused trial workspaces swept')
  return { warned, erased }
}

/** Runs the sweep on the job queue every hour, across all processes. */
export function scheduleErasureSweep(jobs: JobQueue, ctx: Pick<AppContext, 'db' | 'mailer' | 'config' | 'log' | 'clock'>) {
  jobs.register(ERASURE_JOB, async () => {
    await sweepPausedTrials(ctx, ctx.clock.now())
  })
  jobs.schedule(ERASURE_JOB, ERASURE_EVERY_SECONDS)
}
