import { TRANSACTION_STATUS } from '@portal/domain'
import type { JobQueue } from '../../platform/jobs.ts'
import { closeUnpaid, type BillingCtx } from '../billing/service.ts'
import { listExpiredPending, lockTransaction } from '../transactions/service.ts'
import { expireSandboxSession, findSandboxSession } from './queries.ts'

export const PAYMENT_EXPIRY_JOB = 'payments.expire'
export const PAYMENT_EXPIRY_EVERY_SECONDS = 5 * 60
/** checkouts looked at per run; the next run takes the rest */
const BATCH = 500

/**
 * One pending transaction past its time → expired (status 3), with its sandbox checkout, in one
 * database transaction. A sandbox checkout the customer already paid, declined or cancelled in
 * time is left alone: its webhook is on its way (the job queue retries it) and settles the
 * transaction. Answers whether it expired it; running it again changes nothing.
 */
async function expireOne(ctx: BillingCtx, id: number, now: Date): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const t = await lockTransaction(tx, id)
    if (!t || t.status !== TRANSACTION_STATUS.pending || !t.expires_at || t.expires_at > now) return false
    if (t.provider === 'sandbox' && t.provider_session_id) {
      const session = await findSandboxSession(tx, t.provider_session_id, true)
      if (session && session.status !== 'open' && session.status !== 'expired') return false
      if (session) await expireSandboxSession(tx, session.id)
    }
    // its promo code is free again, what the kind reserved ends with it (an upgrade's hold)
    await closeUnpaid(ctx, tx, t, TRANSACTION_STATUS.expired)
    return true
  })
}

/** Expires the pending payments whose checkout ran out of time; answers how many it expired. */
export async function expirePendingPayments(ctx: BillingCtx, now = ctx.clock.now()): Promise<number> {
  let expired = 0
  for (const t of await listExpiredPending(ctx.db, now, BATCH)) if (await expireOne(ctx, t.id, now)) expired++
  if (expired > 0) ctx.log.info({ expired }, 'pending payments expired')
  return expired
}

/** Registers the expiry on the job queue, every few minutes across all processes. */
export function schedulePaymentExpiry(jobs: JobQueue, ctx: BillingCtx) {
  jobs.register(PAYMENT_EXPIRY_JOB, async () => {
    await expirePendingPayments(ctx)
  })
  jobs.schedule(PAYMENT_EXPIRY_JOB, PAYMENT_EXPIRY_EVERY_SECONDS)
}
