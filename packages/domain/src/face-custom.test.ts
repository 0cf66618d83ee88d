import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { priceOrder } from './basket.ts'
import { type PriceRow } from './prices.ts'
import { CATALOGUE_PRICES, CUSTOM_FACE_COMPONENTS, DATABASE_SIZES, MATCHER_TIERS, MONTH_SECONDS } from './catalogue.ts'
import { contentOf, customFaceContent, customFacePriceCents, customFaceTitle, databaseSizeLabel, selectionOf } from './face-custom.ts'

const ROWS: PriceRow[] = CATALOGUE_PRICES.map((p) => ({ ...p }))

describe('the custom Face SDK subscription price (section 9)', () => {
  it('prices the matcher by the tier of its database', () => {
    for (const t of MATCHER_TIERS) expect(customFacePriceCents({ components: ['matcher'], database: t.up_to }, ROWS), String(t.up_to)).toBe(t.usd * 100)
    expect(customFacePriceCents({ components: ['matcher'], database: 10_000_001 }, ROWS)).toBeNull()
  })

  it('prices the video client extension at its base plus the chosen tier, with or without the matcher', () => {
    expect(customFacePriceCents({ components: ['video_client_ext'], database: 0 }, ROWS)).toBe(1000 + 100)
    for (const t of MATCHER_TIERS) {
      const tier = t.usd * 100
      expect(customFacePriceCents({ components: ['video_client_ext'], database: t.up_to }, ROWS), String(t.up_to)).toBe(1000 + tier)
      expect(customFacePriceCents({ components: ['matcher', 'video_client_ext'], database: t.up_to }, ROWS), String(t.up_to)).toBe(tier + 1000 + tier)
    }
    // a tier the staff repriced prices both
    const repriced = ROWS.map((r) => (r.license_type === 'matcher' && r.tier === 5_000 ? { ...r, cost_cents: 9_900 } : r))
    expect(customFacePriceCents({ components: ['matcher', 'video_client_ext'], database: 5_000 }, repriced)).toBe(9_900 + 1000 + 9_900)
    // the size does not count without a component it prices
    expect(customFacePriceCents({ components: ['detector'], database: 10_000_000 }, ROWS)).toBe(500)
  })

  it('offers every tier of section 9, from no database to 10M faces', () => {
    expect(MATCHER_TIERS.map((t) => [t.up_to, t.usd])).toEqual([
      [0, 1],
      [100, 2],
      [500, 8],
      [1_000, 14],
      [5_000, 34],
      [10_000, 50],
      [50_000, 110],
      [100_000, 160],
      [500_000, 300],
      [1_000_000, 400],
      [5_000_000, 730],
      [10_000_000, 1000],
    ])
    for (const size of [1, 99, 101, 123, 10_000_001, -1]) expect(customFaceContent.safeParse({ matcher: 1, database: size }).success, String(size)).toBe(false)
  })

  it('names the tier in the title it is sold, grouped and renewed under', () => {
    expect(customFaceTitle({ matcher: 1, database: 5_000 })).toBe('Face SDK custom subscription, up to 5,000 faces')
    expect(customFaceTitle({ video_client_ext: 1, database: 10_000_000 })).toBe('Face SDK custom subscription, up to 10,000,000 faces')
    expect(customFaceTitle({ matcher: 1, database: 0 })).toBe('Face SDK custom subscription, no face database (1:1 verification)')
    expect(customFaceTitle({ detector: 1, database: 0 })).toBe('Face SDK custom subscription')
    expect(databaseSizeLabel(100)).toBe('up to 100 faces')
  })

  it('is the sum of the components and 0 for nothing, and takes staff-changed rows', () => {
    expect(customFacePriceCents({ components: ['detector', 'processor'], database: 0 }, ROWS)).toBe(1000)
    expect(customFacePriceCents({ components: [], database: 0 }, ROWS)).toBe(0)
    const changed = ROWS.map((r) => (r.license_type === 'detector' ? { ...r, cost_cents: 777 } : r))
    expect(customFacePriceCents({ components: ['detector'], database: 0 }, changed)).toBe(777)
    expect(
      customFacePriceCents(
        { components: ['detector'], database: 0 },
        ROWS.filter((r) => r.license_type !== 'detector'),
      ),
    ).toBeNull()
  })

  it('grows with every component added (property)', () => {
    fc.assert(
      fc.property(fc.subarray([...CUSTOM_FACE_COMPONENTS]), fc.constantFrom(...DATABASE_SIZES), (components, database) => {
        const price = customFacePriceCents({ components, database }, ROWS)!
        expect(Number.isSafeInteger(price)).toBe(true)
        for (const extra of CUSTOM_FACE_COMPONENTS.filter((c) => !components.includes(c))) {
          expect(customFacePriceCents({ components: [...components, extra], database }, ROWS)!).toBeGreaterThan(price)
        }
      }),
    )
  })

  it('reads and writes the builder content; the database counts only with the matcher or the extension', () => {
    expect(contentOf({ components: ['detector', 'matcher'], database: 500 })).toEqual({ detector: 1, matcher: 1, database: 500 })
    expect(contentOf({ components: ['video_client_ext'], database: 500 })).toEqual({ video_client_ext: 1, database: 500 })
    expect(contentOf({ components: ['detector'], database: 500 })).toEqual({ detector: 1, database: 0 })
    expect(selectionOf({ detector: 1, matcher: 0, database: 100 })).toEqual({ components: ['detector'], database: 100 })
    expect(customFaceContent.safeParse({ matcher: 1, database: 123 }).success).toBe(false)
    expect(customFaceContent.safeParse({ unknown_component: 1 }).success).toBe(false)
  })

  it('sells through the basket as a monthly line priced from the rows; an empty one is not for sale', () => {
    const order = priceOrder(
      [{ config: { product: 'face_online_custom_subscribe', license_content: { matcher: 1, database: 1_000, detector: 1 } }, count: 2 }],
      ROWS,
    )
    if (!('lines' in order)) throw new Error('priced')
    expect(order.lines[0]).toMatchObject({ unit_cents: 1400 + 500, amount_cents: 3800, os_type: null })
    expect(order.lines[0]!.entry.config).toMatchObject({ license_expire_delta: MONTH_SECONDS, license_content: { matcher: 1, detector: 1, database: 1_000 } })
    expect(order.lines[0]!.entry.title).toBe('Face SDK custom subscription, up to 1,000 faces')
    expect(priceOrder([{ config: { product: 'face_online_custom_subscribe', license_content: { matcher: 1, database: 2_000 } }, count: 1 }], ROWS)).toEqual({
      problem: 'not_for_sale',
      index: 0,
    })
    expect(priceOrder([{ config: { product: 'face_online_custom_subscribe', license_content: {} }, count: 1 }], ROWS)).toEqual({
      problem: 'not_for_sale',
      index: 0,
    })
  })
})
