import { z } from './zod.ts'
import { emailField, text, trimmedAtLeast } from './fields.ts'
import { DEFAULT_SALES_RECIPIENT, SALES_LIMITS } from './support.ts'

/** The contact-sales message's body (support.ts has its limits), apart so the browser's first load reads those without Zod. */
export const salesMessageBody = z.object({
  recipient: text()
    .trim()
    .min(1, 'sales_recipient_error')
    .max(SALES_LIMITS.recipientMax, 'sales_recipient_error')
    .regex(/^[a-z0-9_-]+$/, 'sales_recipient_error')
    .default(DEFAULT_SALES_RECIPIENT)
    .describe("one of the recipients the portal's configuration names (else sales_recipient_unknown)"),
  name: text()
    .regex(trimmedAtLeast(1), { message: 'name_empty_error', abort: true })
    .trim()
    .min(1, 'name_empty_error')
    .max(SALES_LIMITS.name, `max_length_error:${SALES_LIMITS.name}`),
  email: emailField,
  message: text()
    .regex(trimmedAtLeast(1), { message: 'details_empty_error', abort: true })
    .regex(trimmedAtLeast(SALES_LIMITS.detailsMin), { message: 'details_low_length_error', abort: true })
    .trim()
    .min(1, 'details_empty_error')
    .min(SALES_LIMITS.detailsMin, 'details_low_length_error')
    .max(SALES_LIMITS.detailsMax, 'details_alot_length_error'),
})
export type SalesMessageBody = z.input<typeof salesMessageBody>
