import { describe, expect, it } from 'vitest'
import {
  CATALOGUE_PRICES,
  FACE_ALL_IN_ONE_MONTHS,
  ONLINE_DEFAULTS,
  ONLINE_PRODUCTS,
  PAUSABLE_PRODUCTS,
  PRODUCTS,
  PRODUCT_CATALOGUE,
  PRODUCT_FACTS,
  PRODUCT_TITLES,
  SALE_ENTRIES,
  SOURCE_GROUP_PRODUCTS,
  SUBSCRIPTION_PRODUCTS,
  TRIALS,
  grantedConfig,
  isProduct,
  platformHasPausable,
  platformOfProduct,
  productTitle,
  staffFormProduct,
  trialOfPlatform,
  upgradeableToAI,
  trialOffer,
} from './catalogue.ts'
import { PLATFORMS } from './platforms.ts'

/** Spec section 3, "Product codes", verbatim. */
const SPEC_PRODUCT_CODES = [
  'nuitrack_trial',
  'nuitrack_online',
  'nuitrack_online_per_year',
  'nuitrack_online_subscription_monthly',
  'nuitrack_online_subscription_yearly',
  'nuitrack_ai_subscription_monthly',
  'nuitrack_ai_subscription_yearly',
  'nuitrack_ai_perpetual',
  'old',
  'nuitrack_unlimited',
  'nuitrack_subscribe',
  'upgrade_nuitrack_pro',
  'tvico',
  'real_dance',
  'face_online_all_in_one',
  'face_online_subscribe',
  'face_online_custom_subscribe',
  'face_online_custom',
  'face_offline_custom',
  'face_offline_perpetual',
  'fmc_subscribe',
  'na_subscribe',
  'facemachine_server',
]

describe('the product catalogue', () => {
  it('has one record per product code of spec section 3, each with a platform and a title', () => {
    expect(PRODUCTS).toEqual(SPEC_PRODUCT_CODES)
    for (const code of SPEC_PRODUCT_CODES) {
      const r = PRODUCT_CATALOGUE[code as keyof typeof PRODUCT_CATALOGUE]
      expect(r, code).toBeDefined()
      expect(PLATFORMS).toContain(r.platform)
      expect(r.title.length).toBeGreaterThan(0)
      expect(['trial', 'subscription', 'perpetual', 'term']).toContain(r.kind)
      if (r.kind === 'subscription') expect(r.term).toMatch(/^(month|year)$/)
    }
    expect(PRODUCT_CATALOGUE.tvico.platform).toBe('nuitrack')
    expect(PRODUCT_CATALOGUE.real_dance.platform).toBe('nuitrack')
  })

  it('names only its own products inside records', () => {
    for (const p of PRODUCTS) {
      const r = PRODUCT_CATALOGUE[p]
      for (const ref of [r.upgrade?.to, r.upgrade?.sold_as, r.trial?.upgrades_to]) if (ref) expect(isProduct(ref), `${p} → ${ref}`).toBe(true)
      for (const price of r.prices) expect(price).toMatchObject({ product: p, platform: r.platform })
    }
  })

  it('derives the lists the code used to keep by hand, with what they held', () => {
    expect(PRODUCT_TITLES).toEqual({
      nuitrack_trial: 'Nuitrack Trial',
      nuitrack_online: 'Nuitrack Pro',
      nuitrack_online_per_year: 'Nuitrack Pro (annual)',
      nuitrack_online_subscription_monthly: 'Nuitrack Pro subscription',
      nuitrack_online_subscription_yearly: 'Nuitrack Pro annual subscription',
      nuitrack_ai_subscription_monthly: 'Nuitrack AI subscription',
      nuitrack_ai_subscription_yearly: 'Nuitrack AI annual subscription',
      nuitrack_ai_perpetual: 'Nuitrack AI perpetual',
      old: 'Nuitrack Pro perpetual',
      nuitrack_unlimited: 'Nuitrack Unlimited',
      nuitrack_subscribe: 'Nuitrack subscription',
      upgrade_nuitrack_pro: 'Nuitrack Pro to AI upgrade',
      tvico: 'Nuitrack TVico',
      real_dance: 'Nuitrack Real Dance',
      face_online_all_in_one: 'Face SDK all-in-one',
      face_online_subscribe: 'Face SDK subscription',
      face_online_custom_subscribe: 'Face SDK custom subscription',
      face_online_custom: 'Face SDK custom online',
      face_offline_custom: 'Face SDK custom offline',
      face_offline_perpetual: 'Face SDK perpetual',
      fmc_subscribe: 'Face Machine',
      na_subscribe: 'Nuitrack Analytics',
      facemachine_server: 'Face Machine server',
    })
    expect([...ONLINE_PRODUCTS].sort()).toEqual(
      [
        'nuitrack_online',
        'nuitrack_online_per_year',
        'nuitrack_online_subscription_monthly',
        'nuitrack_online_subscription_yearly',
        'nuitrack_ai_subscription_monthly',
        'nuitrack_ai_subscription_yearly',
        'nuitrack_subscribe',
        'face_online_all_in_one',
        'face_online_subscribe',
        'face_online_custom_subscribe',
        'face_online_custom',
        'fmc_subscribe',
        'na_subscribe',
      ].sort(),
    )
    expect([...SOURCE_GROUP_PRODUCTS].sort()).toEqual(['nuitrack_subscribe', 'nuitrack_unlimited'])
    expect([...PAUSABLE_PRODUCTS].sort()).toEqual(['fmc_subscribe', 'na_subscribe'])
    expect([...SUBSCRIPTION_PRODUCTS].sort()).toEqual(
      [
        'nuitrack_online_subscription_monthly',
        'nuitrack_online_subscription_yearly',
        'nuitrack_ai_subscription_monthly',
        'nuitrack_ai_subscription_yearly',
        'nuitrack_subscribe',
        'face_online_all_in_one',
        'face_online_subscribe',
        'face_online_custom_subscribe',
        'fmc_subscribe',
        'na_subscribe',
      ].sort(),
    )
    expect(PRODUCT_FACTS.face_offline_custom).toEqual({ kind: 'term', custom: true })
    expect(PRODUCT_FACTS.nuitrack_ai_subscription_yearly).toEqual({ kind: 'subscription', term: 'year' })
    expect(TRIALS).toEqual({
      nuitrack_trial: { product: 'nuitrack_trial', tag: null, days: null, plan_id: null },
      fmc_subscribe: { product: 'fmc_subscribe', tag: 'FMC Trial', days: 30, plan_id: 3 },
      na_subscribe: { product: 'na_subscribe', tag: 'NA Trial', days: 7, plan_id: 4 },
    })
    // the seeded price table, row for row as it was written out before the catalogue
    const row = (platform: string, product: string, license_type: string, cost_cents: number, extra = {}) => ({
      platform,
      product,
      license_type,
      plan_id: null,
      tier: null,
      old_price_cents: null,
      discount: null,
      deprecated: false,
      cost_cents,
      ...extra,
    })
    // the fixed entries' 14 rows, and the custom Face SDK builder's: 11 components and 12 matcher tiers
    expect(CATALOGUE_PRICES.filter((p) => p.product !== 'face_online_custom_subscribe')).toHaveLength(14)
    expect(CATALOGUE_PRICES.filter((p) => p.product === 'face_online_custom_subscribe')).toHaveLength(23)
    expect(CATALOGUE_PRICES).toEqual(
      expect.arrayContaining([
        row('nuitrack', 'nuitrack_online_subscription_monthly', 'pro', 328, { old_price_cents: 499 }),
        row('nuitrack', 'nuitrack_online_subscription_yearly', 'pro', 3990),
        row('nuitrack', 'nuitrack_ai_subscription_monthly', 'ai', 999),
        row('nuitrack', 'nuitrack_ai_subscription_yearly', 'ai', 9990),
        row('nuitrack', 'nuitrack_ai_perpetual', 'ai', 29990),
        row('nuitrack', 'nuitrack_online', 'pro', 3990, { deprecated: true }),
        row('nuitrack', 'upgrade_nuitrack_pro', 'ai', 9990),
        row('face', 'face_online_all_in_one', 'all-in-one', 5000, { plan_id: 1 }),
        row('face', 'face_online_subscribe', 'subscription', 3000),
        row('face-machine', 'fmc_subscribe', 'cloud', 4900, { plan_id: 3 }),
        row('nuitrack-analytics', 'na_subscribe', 'cloud', 1500, { plan_id: 4, tier: 1 }),
        row('nuitrack-analytics', 'na_subscribe', 'cloud', 3000, { plan_id: 4, tier: 2 }),
        row('nuitrack-analytics', 'na_subscribe', 'cloud', 4500, { plan_id: 4, tier: 3 }),
        row('nuitrack-analytics', 'na_subscribe', 'cloud', 2000, { plan_id: 4, tier: 4 }),
      ]),
    )
  })

  it('answers the product facts the old functions did, without reading a code’s spelling', () => {
    expect(platformOfProduct('fmc_subscribe')).toBe('face-machine')
    expect(platformOfProduct('facemachine_server')).toBe('face-machine')
    expect(platformOfProduct('na_subscribe')).toBe('nuitrack-analytics')
    for (const p of PRODUCTS.filter((p) => p.startsWith('face_'))) expect(platformOfProduct(p)).toBe('face')
    expect(platformOfProduct('not_a_product')).toBe('nuitrack')
    expect(productTitle('not_a_product')).toBe('not_a_product')
    expect(PRODUCTS.filter((p) => upgradeableToAI(p) !== null).sort()).toEqual(['nuitrack_online', 'old'])
    expect(trialOfPlatform('face')).toBeNull()
    expect(trialOfPlatform('face-machine')?.product).toBe('fmc_subscribe')
    expect(PLATFORMS.filter(platformHasPausable)).toEqual(['face-machine', 'nuitrack-analytics'])
    expect(staffFormProduct('perpetual', true)).toBe('face_online_custom')
    expect(staffFormProduct('perpetual', false)).toBe('face_offline_perpetual')
    expect(staffFormProduct('subscription', true)).toBe('face_online_custom_subscribe')
    expect(staffFormProduct('subscription', false)).toBe('face_offline_custom')
    // only a staff order binds a license to a device (the hardware lock), and only of a custom product
    expect(PRODUCTS.filter((p) => PRODUCT_CATALOGUE[p].device_bound === 'by_order')).toEqual(PRODUCTS.filter((p) => PRODUCT_CATALOGUE[p].staff_form))
  })

  it('grants the section 9 config: online timings to online products, 10 devices to old Nuitrack Pro perpetual', () => {
    for (const p of ONLINE_PRODUCTS) {
      expect(grantedConfig(p)).toEqual({ ...ONLINE_DEFAULTS, online: { offline_timeout: 86_400 } })
    }
    expect(ONLINE_DEFAULTS).toEqual({ offline_timeout: 86_400, update_timeout: 3_600, try_update_timeout: 300, auto_prolongation: false })
    expect(grantedConfig('old')).toEqual({ max_reactivation_count: 10 })
    expect(grantedConfig('face_offline_perpetual')).toEqual({})
    // a copy: a caller that changes it changes no other license
    const g = grantedConfig('fmc_subscribe')
    g.online!.offline_timeout = 1
    expect(grantedConfig('fmc_subscribe').online!.offline_timeout).toBe(86_400)
  })

  it('sells face all-in-one for 1, 3, 6 and 12 months: one device, a 1000-face database, the section 9 components', () => {
    const terms = SALE_ENTRIES.filter((e) => e.product === 'face_online_all_in_one')
    expect(terms.map((e) => e.months)).toEqual([...FACE_ALL_IN_ONE_MONTHS])
    expect(terms.map((e) => e.config.license_expire_delta)).toEqual([2_592_000, 7_776_000, 15_552_000, 31_104_000])
    for (const e of terms) {
      expect(e.config).toMatchObject({ max_reactivation_count: 1, plan_id: 1, online: { offline_timeout: 86_400 } })
      expect(e.config.license_content).toEqual({
        age_gender_emotions_estimator: 1,
        liveness_2d_estimator: 1,
        depth_liveness_estimator: 1,
        matcher: 1,
        processor: 1,
        video_client: 1,
        video_client_ext: 1,
        database: 1000,
      })
    }
  })

  it('sells the order products of section 9, each at a seeded price, with keys the basket can use', () => {
    const sold = new Set(SALE_ENTRIES.map((e) => e.product))
    expect([...sold].sort()).toEqual(
      [
        'nuitrack_ai_perpetual',
        'nuitrack_ai_subscription_monthly',
        'nuitrack_ai_subscription_yearly',
        'nuitrack_online_subscription_monthly',
        'nuitrack_online_subscription_yearly',
        'upgrade_nuitrack_pro',
        'face_online_subscribe',
        'face_online_all_in_one',
        'fmc_subscribe',
        'na_subscribe',
      ].sort(),
    )
    for (const e of SALE_ENTRIES) expect(CATALOGUE_PRICES).toContain(e.price)
    expect(new Set(SALE_ENTRIES.map((e) => e.id)).size).toBe(SALE_ENTRIES.length)
    expect(SALE_ENTRIES.find((e) => e.product === 'na_subscribe')!.price).toMatchObject({ tier: 4, cost_cents: 2000, plan_id: 4 })
    expect(SALE_ENTRIES.find((e) => e.product === 'fmc_subscribe')!.config.plan_id).toBe(3)
    expect(SALE_ENTRIES.find((e) => e.product === 'nuitrack_ai_subscription_yearly')!).toMatchObject({ id: 'nuitrack_ai_subscription_yearly_31104000' })
    expect(SALE_ENTRIES.find((e) => e.product === 'nuitrack_ai_perpetual')!.config).toMatchObject({ license_expire_delta: null, online: null })
  })
})

describe('trialOffer', () => {
  it('offers a platform its trial only while the client has not taken it', () => {
    expect(trialOffer('nuitrack-analytics', [])).toMatchObject({ product: 'na_subscribe', tag: 'NA Trial' })
    expect(trialOffer('nuitrack-analytics', ['na_subscribe'])).toBeNull()
    expect(trialOffer('nuitrack-analytics', ['fmc_subscribe'])).not.toBeNull()
    expect(trialOffer('nuitrack', ['nuitrack_trial'])).toBeNull()
    expect(trialOffer('face', [])).toBeNull()
  })
})
