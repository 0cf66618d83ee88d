import { RATE_LIMITS, type AppContext } from '../context.ts'
import type { Queryable } from '../db/db.ts'
import { hit } from './rate-limit.ts'

/**
 * Every mail a caller can make the portal send goes through here, under the per-recipient and
 * per-address limits. Counted in the caller's transaction: a refused mail rolls its own count back,
 * the limit still holds.
 */
export async function sendMailLimited(ctx: AppContext, tx: Queryable, ip: string, mail: Parameters<AppContext['mailer']['enqueue']>[1]) {
  await hit(tx, [
    { key: `mail:to:${mail.to.toLowerCase()}`, ...RATE_LIMITS.mailPerAddress },
    { key: `mail:ip:${ip}`, ...RATE_LIMITS.mailPerIp },
  ])
  await ctx.mailer.enqueue(tx, mail)
}
