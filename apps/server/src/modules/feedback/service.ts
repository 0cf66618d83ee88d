import type { z } from 'zod'
import type { feedbackBody } from '@portal/domain'
import { RATE_LIMITS, type AppContext } from '../../context.ts'
import { hit } from '../../platform/rate-limit.ts'
import { insertFeedback } from './queries.ts'

/** POST /feedback/: stored with its sender; limited per client, the count and the row in one transaction. */
export async function sendFeedback(ctx: AppContext, clientId: number, body: z.output<typeof feedbackBody>): Promise<{ status: 'ok' }> {
  return ctx.db.transaction(async (tx) => {
    await hit(tx, [{ key: `feedback:client:${clientId}`, ...RATE_LIMITS.feedbackPerClient }])
    await insertFeedback(tx, { clientId, score: body.score, comment: body.comment.trim(), page: body.page ?? null })
    return { status: 'ok' as const }
  })
}
