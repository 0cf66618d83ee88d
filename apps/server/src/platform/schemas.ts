import { z } from 'zod'

/** The error body every failure answers with. */
export const errorSchema = z.object({ error_code: z.string(), error: z.string(), field: z.string().optional() })
export const okSchema = z.object({ status: z.literal('ok') })

/** Response schemas for the statuses a route can fail with. */
export const errors = (...statuses: number[]) =>
  Object.fromEntries([...statuses, 403, 429, 500].map((s) => [s, errorSchema])) as Record<number, typeof errorSchema>
