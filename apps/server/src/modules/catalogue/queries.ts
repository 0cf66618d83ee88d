import { CATALOGUE_PRICES, centsToUsd, type CataloguePrice, type PriceEntry, type PriceRow as BasketPriceRow } from '@portal/domain'
import { columns, type Queryable } from '../../db/db.ts'
import { CHANGELOG, FACE_SDK_VERSIONS } from './changelog.ts'

/** A price row as the database answers it: the catalogue's row, with the platform as text and the numeric discount as a string. */
type PriceRow = Omit<CataloguePrice, 'platform' | 'discount'> & { platform: string; discount: string | null }

const PRICE_COLUMNS = columns<PriceRow>()('platform', 'product', 'license_type', 'plan_id', 'tier', 'cost_cents', 'old_price_cents', 'discount', 'deprecated')

/** The price table in cents, as the basket prices orders from it. */
export async function listPriceRows(db: Queryable): Promise<BasketPriceRow[]> {
  const rows = await db.query<PriceRow>(`SELECT ${PRICE_COLUMNS()} FROM prices`)
  return rows.map((r) => ({
    platform: r.platform,
    product: r.product,
    license_type: r.license_type,
    tier: r.tier,
    cost_cents: Number(r.cost_cents),
    deprecated: r.deprecated,
  }))
}

export async function listPrices(db: Queryable): Promise<(PriceEntry & { platform: string })[]> {
  const rows = await db.query<PriceRow>(`SELECT ${PRICE_COLUMNS()} FROM prices ORDER BY platform, product, tier NULLS FIRST`)
  return rows.map((r) => ({
    platform: r.platform,
    product: r.product,
    license_type: r.license_type,
    plan_id: r.plan_id,
    tier: r.tier,
    cost: centsToUsd(r.cost_cents),
    old_price: r.old_price_cents === null ? null : centsToUsd(r.old_price_cents),
    discount: r.discount === null ? null : Number(r.discount),
    deprecated: r.deprecated,
  }))
}

export async function listFaceSdkVersions(db: Queryable) {
  return db.query<{ version: string; is_default: boolean }>('SELECT version, is_default FROM face_sdk_versions ORDER BY released DESC')
}

/** Seeds the catalogue; idempotent, and never overwrites a price staff may have changed. */
export async function seedCatalogue(db: Queryable) {
  for (const p of CATALOGUE_PRICES) {
    await db.query(
      `INSERT INTO prices (platform, product, license_type, plan_id, tier, cost_cents, old_price_cents, discount, deprecated)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9
        WHERE NOT EXISTS (SELECT 1 FROM prices WHERE platform = $1 AND product = $2 AND license_type = $3
                            AND tier IS NOT DISTINCT FROM $5::int)`,
      [p.platform, p.product, p.license_type, p.plan_id, p.tier, p.cost_cents, p.old_price_cents, p.discount, p.deprecated],
    )
  }
  for (const v of FACE_SDK_VERSIONS) {
    await db.query(`INSERT INTO face_sdk_versions (version, is_default, released) VALUES ($1, $2, $3) ON CONFLICT (version) DO NOTHING`, [
      v.version,
      v.is_default,
      v.released,
    ])
  }
  for (const e of CHANGELOG) {
    await db.query(`INSERT INTO changelog (version, released, changes) VALUES ($1, $2, $3) ON CONFLICT (version) DO NOTHING`, [
      e.version,
      e.date,
      JSON.stringify(e.changes),
    ])
  }
}

/** The key of a price row: a platform's product and license type, and its tier (null for an untiered row). */
export interface PriceKey {
  platform: string
  product: string
  license_type: string
  tier: number | null
}

/** What staff may change in a price row; an absent field stays as it is, null clears a nullable one. */
export interface PriceChange {
  cost_cents: number
  old_price_cents?: number | null
  discount?: number | null
  deprecated?: boolean
}

/** Updates one price row (prices:set); null when no row has the key. The seed never overwrites it after. */
export async function updatePrice(db: Queryable, key: PriceKey, change: PriceChange): Promise<CataloguePriceRow | null> {
  const rows = await db.query<PriceRow>(
    `UPDATE prices SET cost_cents = $5,
            old_price_cents = CASE WHEN $6::boolean THEN $7::bigint ELSE old_price_cents END,
            discount = CASE WHEN $8::boolean THEN $9::numeric ELSE discount END,
            deprecated = coalesce($10::boolean, deprecated)
      WHERE platform = $1 AND product = $2 AND license_type = $3 AND tier IS NOT DISTINCT FROM $4::int
      RETURNING ${PRICE_COLUMNS()}`,
    [
      key.platform,
      key.product,
      key.license_type,
      key.tier,
      change.cost_cents,
      change.old_price_cents !== undefined,
      change.old_price_cents ?? null,
      change.discount !== undefined,
      change.discount ?? null,
      change.deprecated ?? null,
    ],
  )
  return rows[0] ?? null
}

/** A price row as stored (cents), for the staff's price list. */
export type CataloguePriceRow = PriceRow

/** The stored price rows, of one platform or all, in the order the price list shows them. */
export async function listStoredPrices(db: Queryable, platform?: string): Promise<CataloguePriceRow[]> {
  return db.query<PriceRow>(
    `SELECT ${PRICE_COLUMNS()} FROM prices WHERE ($1::text IS NULL OR platform = $1) ORDER BY platform, product, license_type, tier NULLS FIRST`,
    [platform ?? null],
  )
}
