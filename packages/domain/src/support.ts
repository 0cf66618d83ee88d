import { LIMITS } from './validation.ts'

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
