import type { AppContext } from '../../context.ts'
import type { JobQueue } from '../../platform/jobs.ts'
import { PaymentUnavailable } from '../../platform/payments/port.ts'
import { applyPaymentEvent, type BillingCtx } from '../billing/service.ts'
import { listReconcilable, type TransactionRow } from '../transactions/service.ts'

/**
 * Reconciling: the pending and recently expired transactions are read back from their provider (a
 * PayPal order, a Stripe Checkout Session or PaymentIntent, a sandbox checkout) and what the
 * provider settled is applied, once, through the same payment event log as the webhooks and the
 * capture call; nothing is created at the provider.
 * The scheduled job runs it every few minutes across all processes; `payments:reconcile` on demand.
 */

export const PAYMENT_RECONCILE_JOB = 'payments.reconcile'
export const PAYMENT_RECONCILE_EVERY_SECONDS = 10 * 60
/** how far back the job looks: a capture a provider held (review, eCheck) settles within days */
export const RECONCILE_DEFAULT_HOURS = 72
const BATCH = 200

type Ctx = BillingCtx & Pick<AppContext, 'payments'>

export interface ReconcileReport {
  /** transactions read back from their provider */
  checked: number
  /** paid now (expired ones among them are logged for an operator) */
  paid: number
  /** declined or expired by the provider now */
  closed: number
  /** still open or held at the provider */
  open: number
  /** their provider could not be asked (down, or no way to read a checkout back): tried again next run */
  unavailable: number
}

async function reconcileOne(ctx: Ctx, t: TransactionRow, report: ReconcileReport) {
  const provider = t.provider ? ctx.payments.byName(t.provider as 'sandbox' | 'stripe' | 'paypal') : undefined
  if (!provider?.lookup || !t.provider_session_id) {
    report.unavailable++
    return
  }
  report.checked++
  let event
  try {
    event = await provider.lookup(t.provider_session_id)
  } catch (err) {
    if (!(err instanceof PaymentUnavailable)) throw err
    ctx.log.warn({ transaction: t.id, provider: t.provider, reason: err.message }, 'reconcile: the provider could not be asked; next run')
    report.unavailable++
    return
  }
  if (!event) {
    report.open++
    return
  }
  const result = await applyPaymentEvent(ctx, event)
  if (!result.applied) return
  if (result.status === 'ok') report.paid++
  else report.closed++
}

/** Reads back every transaction pending, or expired within `sinceHours`, from its provider; answers what it found. */
export async function reconcilePayments(ctx: Ctx, sinceHours = RECONCILE_DEFAULT_HOURS): Promise<ReconcileReport> {
  const since = new Date(ctx.clock.now().getTime() - sinceHours * 3600_000)
  const report: ReconcileReport = { checked: 0, paid: 0, closed: 0, open: 0, unavailable: 0 }
  let after = 0
  for (;;) {
    const batch = await listReconcilable(ctx.db, since, BATCH, after)
    for (const t of batch) await reconcileOne(ctx, t, report)
    if (batch.length < BATCH) break
    after = batch.at(-1)!.id
  }
  if (report.paid + report.closed > 0) ctx.log.info(report, 'payments reconciled')
  return report
}

/** Registers the reconcile on the job queue, every few minutes across all processes. */
export function schedulePaymentReconcile(jobs: JobQueue, ctx: Ctx) {
  jobs.register(PAYMENT_RECONCILE_JOB, async (job) => {
    const hours = Number(job.payload.since_hours)
    await reconcilePayments(ctx, Number.isFinite(hours) && hours > 0 ? hours : RECONCILE_DEFAULT_HOURS)
  })
  jobs.schedule(PAYMENT_RECONCILE_JOB, PAYMENT_RECONCILE_EVERY_SECONDS)
}
