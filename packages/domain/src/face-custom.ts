import { z } from './zod.ts'
import {
  CUSTOM_FACE_COMPONENTS,
  CUSTOM_FACE_PRODUCT,
  DATABASE_SIZES,
  FACE_COMPONENTS,
  MATCHER_TIERS,
  MONTH_SECONDS,
  ONLINE_DEFAULTS,
  productTitle,
  type CustomFaceComponent,
  type FaceComponent,
  type SaleEntry,
} from './catalogue.ts'
import { groupDigits, type Cents } from './money.ts'

/**
 * The Face SDK custom subscription (spec sections 2, 3 and 9): the customer picks a face database
 * size and components in the builder; its monthly price is the sum of the components' prices, with
 * the matcher priced by the tier of the chosen database, and the video client extension at its own
 * price plus that tier's, each with or without the other. Prices are rows of the price table
 * (product face_online_custom_subscribe, license_type = the component; the matcher's rows carry the
 * tier).
 */

/** What the builder sends: license_content with 1 for each chosen component and the database size. */
export const customFaceContent = z
  .partialRecord(z.enum(FACE_COMPONENTS), z.number().int().min(0).max(10_000_000))
  .refine((c) => c.database === undefined || DATABASE_SIZES.includes(c.database), 'database_size_error')

export interface CustomFaceSelection {
  components: readonly CustomFaceComponent[]
  /** faces the matcher searches: one of DATABASE_SIZES */
  database: number
}

/** The components priced by the database's tier: the matcher, and the video client extension (section 9). */
export const TIERED_COMPONENTS: readonly CustomFaceComponent[] = ['matcher', 'video_client_ext']

/** Whether a selection's database size counts: a component priced by its tier is chosen. */
export const databaseCounts = (components: readonly CustomFaceComponent[]) => components.some((c) => TIERED_COMPONENTS.includes(c))

export const selectionOf = (content: Partial<Record<FaceComponent, number>>): CustomFaceSelection => ({
  components: CUSTOM_FACE_COMPONENTS.filter((c) => (content[c] ?? 0) > 0),
  database: content.database ?? 0,
})

export const contentOf = (s: CustomFaceSelection): Partial<Record<FaceComponent, number>> => ({
  ...Object.fromEntries(s.components.map((c) => [c, 1])),
  database: databaseCounts(s.components) ? s.database : 0,
})

/** A database size as the builder, the group title, the invoice and the renewal say it. */
export const databaseSizeLabel = (size: number) =>
  size === 0 ? 'no face database (1:1 verification)' : `up to ${groupDigits(size)} ${size === 1 ? 'face' : 'faces'}`

/**
 * The title a custom subscription is sold, grouped and renewed under: the product, with the database
 * tier when a component priced by it is chosen ("Face SDK custom subscription, up to 5,000 faces").
 */
export function customFaceTitle(content: Partial<Record<FaceComponent, number>>): string {
  const tier = customFaceTierNote(content)
  return tier ? `${productTitle(CUSTOM_FACE_PRODUCT)}, ${tier}` : productTitle(CUSTOM_FACE_PRODUCT)
}

/** The database tier a custom subscription's content is priced by, as words; null when none of its components is priced by it. */
export function customFaceTierNote(content: Partial<Record<FaceComponent, number>>): string | null {
  const s = selectionOf(content)
  return databaseCounts(s.components) ? databaseSizeLabel(s.database) : null
}

interface PriceRowLike {
  platform: string
  product: string
  license_type: string
  tier: number | null
  cost_cents: Cents
}

/** The tier of a database size: the smallest tier that holds it. */
const tierOf = (database: number) => MATCHER_TIERS.find((t) => database <= t.up_to) ?? null

/**
 * The monthly price of one custom license, from the price rows; null when a chosen component has
 * no row (not for sale) or the database is larger than the largest tier. Nothing chosen is 0 (the
 * spec's "a custom total must be above 0" refuses it).
 */
export function customFacePriceCents(s: CustomFaceSelection, rows: readonly PriceRowLike[]): Cents | null {
  const find = (license_type: string, tier: number | null = null) =>
    rows.find((r) => r.platform === 'face' && r.product === CUSTOM_FACE_PRODUCT && r.license_type === license_type && r.tier === tier)?.cost_cents ?? null
  const tier = tierOf(s.database)
  const tierCost = databaseCounts(s.components) ? (tier ? find('matcher', tier.up_to) : null) : 0
  if (tierCost === null) return null
  let total = 0
  for (const c of s.components) {
    if (c === 'matcher') {
      total += tierCost
      continue
    }
    const base = find(c)
    if (base === null) return null
    total += base + (c === 'video_client_ext' ? tierCost : 0)
  }
  return total
}

/** The basket entry of a custom subscription: one month of the chosen components, priced by the builder's rows. */
export function customSaleEntry(content: Partial<Record<FaceComponent, number>>, unitCents: Cents): SaleEntry {
  return {
    id: `${CUSTOM_FACE_PRODUCT}_${MONTH_SECONDS}`,
    product: CUSTOM_FACE_PRODUCT,
    platform: 'face',
    title: customFaceTitle(content),
    license_type: 'custom',
    months: null,
    price: {
      platform: 'face',
      product: CUSTOM_FACE_PRODUCT,
      license_type: 'custom',
      plan_id: null,
      tier: null,
      cost_cents: unitCents,
      old_price_cents: null,
      discount: null,
      deprecated: false,
    },
    config: {
      product: CUSTOM_FACE_PRODUCT,
      plan_id: null,
      license_content: content,
      license_expire_delta: MONTH_SECONDS,
      max_reactivation_count: null,
      online: { offline_timeout: ONLINE_DEFAULTS.offline_timeout },
    },
  }
}
