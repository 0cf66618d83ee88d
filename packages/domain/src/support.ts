import { z } from 'zod'
import { LIMITS, emailField, text } from './validation.ts'

/**
 * The contact-sales form (spec sections 3, 5 and 9): a name of at most 30 characters, the sender's
 * e-mail, and details of 20 to 10000 characters, sent to a named recipient (sales by default; the
 * server maps names to addresses).
 */
export const SALES_LIMITS = {
  name: LIMITS.name,
  detailsMin: 20,
  detailsMax: 10_000,
  recipientMax: 64,
} as const

export const DEFAULT_SALES_RECIPIENT = 'sales'

/** Where an upgrade done by support (upgradeable.toAI bySupport) is asked for: the mailto link of the info screen. */
export const SUPPORT_EMAIL = 'support@3divi.com'

export const salesMessageBody = z.object({
  recipient: text()
    .trim()
    .min(1, 'sales_recipient_error')
    .max(SALES_LIMITS.recipientMax, 'sales_recipient_error')
    .regex(/^[a-z0-9_-]+$/, 'sales_recipient_error')
    .default(DEFAULT_SALES_RECIPIENT),
  name: text().trim().min(1, 'name_empty_error').max(SALES_LIMITS.name, `max_length_error:${SALES_LIMITS.name}`),
  email: emailField,
  message: text()
    .trim()
    .min(1, 'details_empty_error')
    .min(SALES_LIMITS.detailsMin, 'details_low_length_error')
    .max(SALES_LIMITS.detailsMax, 'details_alot_length_error'),
})
export type SalesMessageBody = z.input<typeof salesMessageBody>
