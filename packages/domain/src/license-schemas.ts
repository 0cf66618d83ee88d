import { z } from './zod.ts'
import { PRODUCTS } from './catalogue.ts'
import { boundedInt, firstIssue, text, trimmedAtLeast } from './fields.ts'
import { LOCK_TAG_KEYS, PLATFORMS_PATTERN, UNACTIVATED_LICENSE_LIMIT, checkStaffValidity, lockOptionsOf, lockOptionsValid } from './licenses.ts'
import { LICENSE_TITLE_MAX } from './text-limits.ts'

/**
 * The schemas of licenses and groups (their bodies, config and the staff order), apart from
 * licenses.ts's rules: the browser's first load reads those rules without Zod.
 */

export const productSchema = z.enum(PRODUCTS)

export const licenseConfigSchema = z.object({
  product: z.string(),
  tag: z.string().nullable().optional(),
  upgraded: z.boolean().optional(),
  paused: z.boolean().optional(),
  license_expire_delta: z.number().int().nonnegative().nullable().optional(),
  os_type: z.number().int().min(0).max(2).nullable().optional(),
  license_content: z.record(z.string(), z.number()).optional(),
  device_bound: z.boolean().optional(),
  max_version: z.string().nullable().optional(),
  plan_id: z.number().int().nullable().optional(),
  custom_tags: z.record(z.string(), z.unknown()).optional(),
  paypal_subscription_id: z.string().nullable().optional(),
  online: z.object({ offline_timeout: z.number().int().nonnegative() }).nullable().optional(),
  max_reactivation_count: z.number().int().nonnegative().nullable().optional(),
  update_timeout: z.number().int().optional(),
  try_update_timeout: z.number().int().optional(),
  auto_prolongation: z.boolean().optional(),
  paid_channels: z.number().int().nonnegative().optional(),
  desktop_gpu_support: z.boolean().optional(),
  xml_config: z.string().optional(),
})
export type LicenseConfig = z.infer<typeof licenseConfigSchema>

/** checkTitle's rules as checks the OpenAPI document states: trimmed, not empty, at most LICENSE_TITLE_MAX. */
export const titleField = text()
  .regex(trimmedAtLeast(1), firstIssue('field_empty_error'))
  .trim()
  .min(1, firstIssue('field_empty_error'))
  .max(LICENSE_TITLE_MAX, firstIssue('license_title_max_length_error'))

/**
 * A group key's size: at least 2 (checkGroupSize's minimum, answered as group_size); at most what the
 * source group has free, which the server alone knows.
 */
export const splitBody = z.object({
  title: titleField,
  limit: boundedInt()
    .min(1, { message: 'group_size_is_zero', abort: true })
    .min(2, 'group_min_size_error')
    .optional()
    .describe("the new group key's licenses, 2 or more; at most what the source group has free (else group_limit)"),
})
export const resizeBody = z.object({
  limit: boundedInt()
    .min(1, 'group_keep_one_error')
    .describe('the licenses the group key keeps available, 1 or more; at most its own plus what its default group has free (else source_group_limit_reached)'),
})
export const titleBody = z.object({ title: titleField })

export const customTagsSchema = z.object({
  ios_app_id: text()
    .regex(trimmedAtLeast(1), { message: 'field_empty_error', abort: true })
    .trim()
    .min(1, 'field_empty_error')
    .max(256, 'max_length_error:256')
    .optional(),
  android_app_id: text()
    .regex(trimmedAtLeast(1), { message: 'field_empty_error', abort: true })
    .trim()
    .min(1, 'field_empty_error')
    .max(256, 'max_length_error:256')
    .optional(),
  hardware_key_serial: z.literal(true).optional(),
  allowed_platforms: text().max(200).regex(PLATFORMS_PATTERN, 'platforms_error').optional(),
})
export type CustomTags = z.infer<typeof customTagsSchema>

/**
 * The custom tags a staff order stores: custom_tags with custom_tags_extra over them. A lock tag in
 * custom_tags_extra (text: `"hardware_key_serial": "true"`) is read by the same rules as in
 * custom_tags, and the lock interlock holds on the merged tags, so no field can carry a second lock.
 */
export function staffCustomTags(order: {
  config: { device_bound: boolean }
  custom_tags: Record<string, unknown>
  custom_tags_extra?: Record<string, unknown>
}): { ok: true; tags: Record<string, unknown> } | { ok: false; field: 'custom_tags' | 'custom_tags_extra' } {
  const extra = order.custom_tags_extra ?? {}
  const extraLocks: Record<string, unknown> = {}
  for (const key of LOCK_TAG_KEYS) {
    if (!(key in extra)) continue
    const value = extra[key]
    extraLocks[key] = key === 'hardware_key_serial' ? (value === 'true' || value === true ? true : value) : value
  }
  const hasExtraLocks = Object.keys(extraLocks).length > 0
  const field = hasExtraLocks ? 'custom_tags_extra' : 'custom_tags'
  const locks = customTagsSchema.safeParse({ ...order.custom_tags, ...extraLocks })
  if (!locks.success) return { ok: false, field }
  const merged = { ...order.custom_tags, ...extra, ...locks.data }
  const inBoth = hasExtraLocks && Object.keys(extraLocks).some((k) => k in order.custom_tags && order.custom_tags[k] !== locks.data[k as keyof CustomTags])
  // a lock tag given twice with different values is two locks, not an override
  if (inBoth || !lockOptionsValid(lockOptionsOf(order.config.device_bound, locks.data))) return { ok: false, field }
  return { ok: true, tags: merged }
}

/** How many licenses staff make in one go, at most (the form says it at its Count field). */
export const STAFF_LICENSE_COUNT_MAX = 1000

export const staffLicenseBody = z
  .object({
    title: titleField,
    count: boundedInt().min(1, 'count_min_error').max(STAFF_LICENSE_COUNT_MAX, 'count_max_error'),
    client_email: text().trim().min(1, 'email_empty_error').max(150, 'email_max_length_error').email('email_validation_error'),
    config: z
      .object({
        product: productSchema,
        license_expire_delta: boundedInt(1).nullable(),
        device_bound: z.boolean(),
        max_version: text()
          .trim()
          .max(32)
          .regex(/^(\d+(\.\d+){0,3})?$/, 'version_format_error')
          .nullable(),
        license_content: z.record(text().max(64), boundedInt(0)),
        online: z.boolean().optional(),
        desktop_gpu_support: z.boolean().optional(),
        xml_config: text().max(100_000).optional(),
      })
      // section 2: the subscription tab's licenses need a validity, said at the validity's own field
      .superRefine((config, ctx) => {
        if (checkStaffValidity(config)) ctx.addIssue({ code: 'custom', message: 'validity_required_error', path: ['license_expire_delta'] })
      }),
    custom_tags: customTagsSchema.default({}),
    custom_tags_extra: z.record(text().max(64), text().max(1000)).optional(),
  })
  .superRefine((b, ctx) => {
    // a lock's own field that is wrong (an empty app id, no platform chosen) has said so at that field
    if (!customTagsSchema.safeParse(b.custom_tags).success) return
    const tags = staffCustomTags(b)
    if (!tags.ok) ctx.addIssue({ code: 'custom', message: 'lock_options_error', path: [tags.field] })
  })
  .describe(
    'A subscription product needs config.license_expire_delta (else validity_required_error on it); a license has at most one lock (hardware, an iOS app, an Android app or a USB token; allowed_platforms with none), whichever of custom_tags and custom_tags_extra carries it (else lock_options_error)',
  )
export type StaffLicenseBody = z.input<typeof staffLicenseBody>

export const trialBody = z.object({
  title: text().max(256).optional(),
  /** a trial is one license: another count answers not_free, as the service did */
  count: boundedInt().min(1, 'trial_one_license_error').max(1, 'trial_one_license_error'),
  config: z.object({ product: text().max(64), tag: text().max(64).nullable().optional() }),
})

export const newLicenseBody = z.object({ title: titleField.optional() })
/** "Generate all": `count` licenses from one group, titled by default (each title editable later). */
export const newLicensesBody = z.object({ count: boundedInt(1, UNACTIVATED_LICENSE_LIMIT) })
