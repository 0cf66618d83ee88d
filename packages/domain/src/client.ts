import { z } from './zod.ts'
import { roleSchema } from './orgs.ts'
import { companySchema, emailField, profileFields } from './fields.ts'
import { PLATFORMS, type Platform } from './platforms.ts'

/** Client info as GET /api/client/ answers it (spec section 3). */

export const OPTION_KEYS = [
  'balance_autofill',
  'bills_mail',
  'news_notification',
  'updates_notification',
  'corporate_member',
  'facesdk_allow_subscribe',
] as const
export type OptionKey = (typeof OPTION_KEYS)[number]
/** facesdk_allow_subscribe is set by staff, not by the client. */
export const CLIENT_EDITABLE_OPTIONS = OPTION_KEYS.filter((k) => k !== 'facesdk_allow_subscribe')

export const optionsSchema = z.object({
  balance_autofill: z.boolean(),
  bills_mail: z.boolean(),
  news_notification: z.boolean(),
  updates_notification: z.boolean(),
  corporate_member: z.boolean(),
  facesdk_allow_subscribe: z.boolean(),
})
export type ClientOptions = z.infer<typeof optionsSchema>

export const DEFAULT_OPTIONS: ClientOptions = {
  balance_autofill: false,
  bills_mail: true,
  // marketing mail is opt-in: nobody is on the company's news list until they tick it
  news_notification: false,
  updates_notification: true,
  corporate_member: false,
  facesdk_allow_subscribe: false,
}

export const clientInfoSchema = z.object({
  id: z.number(),
  /** USD, 2 decimals */
  balance: z.number(),
  /** USD, 2 decimals: a refunded top-up's credit that was already spent; purchases from the balance wait until a top-up pays it */
  owed: z.number().default(0),
  token: z.string(),
  options: optionsSchema,
  company: companySchema,
  email: z.string(),
  /** set while an e-mail change waits for confirmation */
  pending_email: z.string().nullable(),
  name: z.string(),
  last_name: z.string(),
  phone: z.string(),
  position: z.string(),
  is_staff: z.boolean(),
})
export type ClientInfo = z.infer<typeof clientInfoSchema>

export const priceEntrySchema = z.object({
  product: z.string(),
  license_type: z.string(),
  plan_id: z.number().nullable(),
  tier: z.number().nullable(),
  cost: z.number(),
  old_price: z.number().nullable(),
  discount: z.number().nullable(),
  deprecated: z.boolean(),
})
export type PriceEntry = z.infer<typeof priceEntrySchema>

export const profileResponseSchema = z.object({
  client_info: clientInfoSchema,
  prices: z.record(z.enum(PLATFORMS), z.array(priceEntrySchema)),
  payment_provider_key: z.string(),
  paypal_merchant_id: z.string(),
  paypal_client_id: z.string(),
  /** the products whose free trial the client has taken (one each per client): trialOffer reads it */
  trials_used: z.array(z.string()).default([]),
  /** the signed-in person's role in this account (orgs.ts `may`): what the web offers them */
  role: roleSchema.default('owner'),
  /** the signed-in person's e-mail while they act in an organisation that is not their own account */
  acting_person: z.string().nullable().default(null),
})
export type ProfileResponse = z.infer<typeof profileResponseSchema>
export type Prices = Record<Platform, PriceEntry[]>

/** POST /api/client/ : every field optional, only what is sent changes. */
export const updateClientBody = z.object({
  email: emailField.optional(),
  name: profileFields.name.optional(),
  last_name: profileFields.last_name.optional(),
  phone: profileFields.phone.optional(),
  position: profileFields.position.optional(),
  company: companySchema.partial().optional(),
  // strict: facesdk_allow_subscribe is staff's to set, and a request naming it is refused, not ignored
  options: optionsSchema.omit({ facesdk_allow_subscribe: true }).partial().strict().optional(),
})
export type UpdateClientBody = z.input<typeof updateClientBody>

/** Display name: the full name, else the e-mail. */
export function displayName(c: Pick<ClientInfo, 'name' | 'last_name' | 'email'>): string {
  const full = [c.name, c.last_name]
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' ')
  return full || c.email
}

export const isCorporate = (c: Pick<ClientInfo, 'options'>) => c.options.corporate_member
