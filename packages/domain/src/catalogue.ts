import { DEFAULT_PLATFORM, type Platform } from './platforms.ts'

/**
 * The product catalogue: one record per product code of spec section 3. Every product fact the
 * server and the web act on (platform, title, kind, the config a license carries, pause, upgrade,
 * trial, group keys, what a basket sells and at what seeded price) is read from here; the lists
 * other modules use are derived from it, and no code decides by a product code's spelling.
 */

export const DAY_SECONDS = 86_400
export const MONTH_SECONDS = 2_592_000
export const YEAR_SECONDS = 31_104_000

export const OS_TYPES = { 0: 'Windows', 1: 'Linux', 2: 'Android' } as const
export type OsType = 0 | 1 | 2
const NUITRACK_OS_TYPES: readonly OsType[] = [0, 1, 2]

/** Section 9: the timings every online license carries. */
export const ONLINE_DEFAULTS = {
  offline_timeout: 86_400,
  update_timeout: 3_600,
  try_update_timeout: 300,
  auto_prolongation: false,
} as const

export const FACE_COMPONENTS = [
  'age_gender_estimator',
  'desktop_gpu_support',
  'depth_liveness_estimator',
  'liveness_2d_estimator',
  'detector',
  'emotions_estimator',
  'matcher',
  'processor',
  'video_client',
  'video_client_ext',
  'video_engine_light',
  'age_gender_emotions_estimator',
  'database',
] as const
export type FaceComponent = (typeof FACE_COMPONENTS)[number]

/**
 * - trial: free, once per client; subscription: renews every `term`; perpetual: never expires;
 *   term: a fixed period that does not renew.
 */
export type ProductKind = 'trial' | 'subscription' | 'perpetual' | 'term'

/** A row of the seeded price list (USD cents); GET /api/client/ shows it, the basket sells from it. */
export interface CataloguePrice {
  platform: Platform
  product: string
  license_type: string
  plan_id: number | null
  tier: number | null
  cost_cents: number
  old_price_cents: number | null
  discount: number | null
  deprecated: boolean
}

/** The config fields a product puts into every license of it (beyond product and os_type). */
export interface GrantedConfig {
  online?: { offline_timeout: number }
  offline_timeout?: number
  update_timeout?: number
  try_update_timeout?: number
  auto_prolongation?: boolean
  max_reactivation_count?: number
}

/** What one basket line sells: section 3's catalogue item (its price is a row of the seeded table). */
export interface SaleEntry {
  /** the basket's productsMap key: product_expiredelta, lowercase */
  id: string
  product: Product
  platform: Platform
  title: string
  license_type: string
  months: number | null
  price: CataloguePrice
  config: {
    product: Product
    plan_id: number | null
    license_content: Partial<Record<FaceComponent, number>>
    license_expire_delta: number | null
    max_reactivation_count: number | null
    online: { offline_timeout: number } | null
  }
}

/** A product code inside a record (the catalogue's test checks each names a record). */
type ProductRef = string

export interface ProductRecord {
  platform: Platform
  title: string
  kind: ProductKind
  /** how often a subscription renews when its license carries no license_expire_delta */
  term?: 'month' | 'year'
  /** made to a client's order by staff (the Face SDK "Custom" filter) */
  custom?: true
  /** an online license: validated by the device API, carries the online timings */
  online: boolean
  /** the os types its default groups come in (none: one group without an os) */
  os_types: readonly OsType[]
  /** the config every license of it carries (section 9) */
  grants: GrantedConfig
  /** device_bound: never for a catalogue product; a staff order of a custom product says (hardware lock) */
  device_bound: false | 'by_order'
  /** a cloud subscription the customer may pause and resume (Face Machine, Analytics) */
  pausable: boolean
  /** upgradeable.toAI: `self` through the upgrade checkout, `bySupport` through support */
  upgrade: { to: ProductRef; how: 'self' | 'bySupport'; sold_as: ProductRef } | null
  /** the free trial of this product: its tag (null: the product is the trial), days and plan */
  trial: { tag: string | null; days: number | null; plan_id: number | null; upgrades_to: ProductRef | null } | null
  /** group keys are split from its default groups: ordinary group keys or enterprise keys */
  group_keys: 'group' | 'enterprise' | null
  /** the staff custom-license form that makes it: which tab, online or offline */
  staff_form?: { variant: 'perpetual' | 'subscription'; online: boolean }
  /** the dashboard product filter (section 2) that names this product itself */
  filter?: string
  /** rows of the seeded price list */
  prices: readonly CataloguePrice[]
  /** what a basket can sell of it: a seeded price row, and the term in months for face all-in-one */
  sells: readonly { license_type: string; months: number | null; price: CataloguePrice }[]
}

const price = (platform: Platform, product: string, license_type: string, cost_cents: number, extra: Partial<CataloguePrice> = {}): CataloguePrice => ({
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

const ONLINE: GrantedConfig = { ...ONLINE_DEFAULTS, online: { offline_timeout: ONLINE_DEFAULTS.offline_timeout } }

/** Section 9: face all-in-one terms of 1, 3, 6 and 12 months, one device each, a 1000-face database. */
export const FACE_ALL_IN_ONE_MONTHS = [1, 3, 6, 12] as const
export const FACE_ALL_IN_ONE_DEFAULT_MONTHS = 12
export const FACE_ALL_IN_ONE_DATABASE = 1000
export const FACE_ALL_IN_ONE_COMPONENTS: readonly FaceComponent[] = [
  'age_gender_emotions_estimator',
  'liveness_2d_estimator',
  'depth_liveness_estimator',
  'matcher',
  'processor',
  'video_client',
  'video_client_ext',
]
export const FACE_MACHINE_PLAN_ID = 3
export const ANALYTICS_PLAN_ID = 4
/**
 * Section 3's Face Machine plan: each limit a number, or null or 'infinite' for unlimited; video
 * processing in minutes, events retention in seconds (faceMachinePlanSchema in subscriptions.ts
 * checks these records; GET /face-machine/rates/ answers them).
 */
export interface FaceMachinePlanRecord {
  plan_id: number
  title: string
  transactions: { per_second: number | 'infinite' | null; per_month: number | 'infinite' | null }
  samples: { per_workspace: number | 'infinite' | null }
  streaming_video_processing_minutes: number | 'infinite' | null
  archived_video_processing_minutes: number | 'infinite' | null
  events_retention_period_seconds: number | 'infinite' | null
}

/** The Face Machine plans; plan 3 is the one Face Machine subscriptions and trials carry (section 9). */
export const FACE_MACHINE_PLANS: readonly FaceMachinePlanRecord[] = [
  {
    plan_id: 1,
    title: 'Face Machine Starter',
    transactions: { per_second: 1, per_month: 100_000 },
    samples: { per_workspace: 1_000 },
    streaming_video_processing_minutes: 0,
    archived_video_processing_minutes: 600,
    events_retention_period_seconds: 43_200,
  },
  {
    plan_id: 2,
    title: 'Face Machine Business',
    transactions: { per_second: 5, per_month: 1_000_000 },
    samples: { per_workspace: 50_000 },
    streaming_video_processing_minutes: 43_200,
    archived_video_processing_minutes: 6_000,
    events_retention_period_seconds: 7 * 86_400,
  },
  {
    plan_id: 3,
    title: 'Face Machine',
    transactions: { per_second: 1, per_month: null },
    samples: { per_workspace: 10_000 },
    streaming_video_processing_minutes: 'infinite',
    archived_video_processing_minutes: 'infinite',
    events_retention_period_seconds: 3 * 2_592_000,
  },
]

/**
 * Section 9: what the Face Machine info screen shows when the license's plan is missing from the
 * rates: an online key, 1 request per second, 10000 faces, unlimited channels and processing
 * functions, streaming and archived video.
 */
export const DEFAULT_FACE_MACHINE_CONFIGURATION = {
  key: 'online',
  requests_per_second: 1,
  face_storage: 10_000,
  channels: 'infinite',
  processing_functions: 'infinite',
  streaming_video: true,
  archived_video: true,
} as const

/** Section 9: old Nuitrack Pro perpetual licenses move between 10 devices. */
export const OLD_PRO_REACTIVATIONS = 10

type Sale = ProductRecord['sells'][number]
const sale = (p: CataloguePrice, months: number | null = null): Sale => ({ license_type: p.license_type, months, price: p })

const nuitrack = (title: string, kind: ProductKind, more: Partial<ProductRecord> = {}): ProductRecord => ({
  platform: 'nuitrack',
  title,
  kind,
  online: false,
  os_types: NUITRACK_OS_TYPES,
  grants: {},
  device_bound: false,
  pausable: false,
  upgrade: null,
  trial: null,
  group_keys: null,
  prices: [],
  sells: [],
  ...more,
})
const record = (platform: Platform, title: string, kind: ProductKind, more: Partial<ProductRecord> = {}): ProductRecord => ({
  ...nuitrack(title, kind),
  platform,
  os_types: [],
  ...more,
})
const online = (more: Partial<ProductRecord> = {}): Partial<ProductRecord> => ({ online: true, grants: ONLINE, ...more })

const P = {
  proMonthly: price('nuitrack', 'nuitrack_online_subscription_monthly', 'pro', 328, { old_price_cents: 499 }),
  proYearly: price('nuitrack', 'nuitrack_online_subscription_yearly', 'pro', 3990),
  aiMonthly: price('nuitrack', 'nuitrack_ai_subscription_monthly', 'ai', 999),
  aiYearly: price('nuitrack', 'nuitrack_ai_subscription_yearly', 'ai', 9990),
  aiPerpetual: price('nuitrack', 'nuitrack_ai_perpetual', 'ai', 29990),
  oldPro: price('nuitrack', 'nuitrack_online', 'pro', 3990, { deprecated: true }),
  upgradePro: price('nuitrack', 'upgrade_nuitrack_pro', 'ai', 9990),
  faceAllInOne: price('face', 'face_online_all_in_one', 'all-in-one', 5000, { plan_id: 1 }),
  faceSubscribe: price('face', 'face_online_subscribe', 'subscription', 3000),
  faceMachine: price('face-machine', 'fmc_subscribe', 'cloud', 4900, { plan_id: FACE_MACHINE_PLAN_ID }),
  analytics: [1500, 3000, 4500, 2000].map((cost, i) => price('nuitrack-analytics', 'na_subscribe', 'cloud', cost, { plan_id: ANALYTICS_PLAN_ID, tier: i + 1 })),
}

/** Section 9 and the custom Face SDK subscription builder (face-custom.ts prices it from these rows). */
export const CUSTOM_FACE_PRODUCT = 'face_online_custom_subscribe'

/** Section 9: USD per month of the matcher by database size (faces, up to); 0 is "none". */
export const MATCHER_TIERS = [
  { up_to: 0, usd: 1 },
  { up_to: 100, usd: 2 },
  { up_to: 500, usd: 8 },
  { up_to: 1_000, usd: 14 },
  { up_to: 5_000, usd: 34 },
  { up_to: 10_000, usd: 50 },
  { up_to: 50_000, usd: 110 },
  { up_to: 100_000, usd: 160 },
  { up_to: 500_000, usd: 300 },
  { up_to: 1_000_000, usd: 400 },
  { up_to: 5_000_000, usd: 730 },
  { up_to: 10_000_000, usd: 1000 },
] as const
export const DATABASE_SIZES: readonly number[] = MATCHER_TIERS.map((t) => t.up_to)

/** The components the builder offers with a price of their own (the database is a size, not a component to buy). */
export const CUSTOM_FACE_COMPONENTS = FACE_COMPONENTS.filter((c) => c !== 'database')
export type CustomFaceComponent = Exclude<FaceComponent, 'database'>

/** Monthly USD of each component (our list prices; staff change them with prices:set). The matcher's are its tiers. */
const COMPONENT_USD: Record<Exclude<CustomFaceComponent, 'matcher'>, number> = {
  detector: 5,
  processor: 5,
  age_gender_estimator: 10,
  emotions_estimator: 10,
  age_gender_emotions_estimator: 15,
  liveness_2d_estimator: 20,
  depth_liveness_estimator: 20,
  video_client: 10,
  video_client_ext: 10,
  video_engine_light: 10,
  desktop_gpu_support: 10,
}

const customRow = (license_type: string, usd: number, tier: number | null = null) => price('face', CUSTOM_FACE_PRODUCT, license_type, usd * 100, { tier })

/** The seeded rows that price the builder. */
export const CUSTOM_FACE_PRICES: readonly CataloguePrice[] = [
  ...Object.entries(COMPONENT_USD).map(([c, usd]) => customRow(c, usd)),
  ...MATCHER_TIERS.map((t) => customRow('matcher', t.usd, t.up_to)),
]

const PRO_TO_AI = { to: 'nuitrack_ai_perpetual', how: 'self', sold_as: 'upgrade_nuitrack_pro' } as const

const TABLE = {
  nuitrack_trial: nuitrack('Nuitrack Trial', 'trial', { os_types: [], trial: { tag: null, days: null, plan_id: null, upgrades_to: null } }),
  nuitrack_online: nuitrack('Nuitrack Pro', 'term', online({ upgrade: PRO_TO_AI, prices: [P.oldPro] })),
  nuitrack_online_per_year: nuitrack('Nuitrack Pro (annual)', 'term', online()),
  nuitrack_online_subscription_monthly: nuitrack(
    'Nuitrack Pro subscription',
    'subscription',
    online({ term: 'month', prices: [P.proMonthly], sells: [sale(P.proMonthly)] }),
  ),
  nuitrack_online_subscription_yearly: nuitrack(
    'Nuitrack Pro annual subscription',
    'subscription',
    online({ term: 'year', prices: [P.proYearly], sells: [sale(P.proYearly)] }),
  ),
  nuitrack_ai_subscription_monthly: nuitrack(
    'Nuitrack AI subscription',
    'subscription',
    online({ term: 'month', prices: [P.aiMonthly], sells: [sale(P.aiMonthly)] }),
  ),
  nuitrack_ai_subscription_yearly: nuitrack(
    'Nuitrack AI annual subscription',
    'subscription',
    online({ term: 'year', prices: [P.aiYearly], sells: [sale(P.aiYearly)] }),
  ),
  nuitrack_ai_perpetual: nuitrack('Nuitrack AI perpetual', 'perpetual', { prices: [P.aiPerpetual], sells: [sale(P.aiPerpetual)] }),
  old: nuitrack('Nuitrack Pro perpetual', 'perpetual', { grants: { max_reactivation_count: OLD_PRO_REACTIVATIONS }, upgrade: PRO_TO_AI }),
  nuitrack_unlimited: nuitrack('Nuitrack Unlimited', 'perpetual', { group_keys: 'enterprise' }),
  nuitrack_subscribe: nuitrack('Nuitrack subscription', 'subscription', online({ term: 'month', group_keys: 'group' })),
  upgrade_nuitrack_pro: nuitrack('Nuitrack Pro to AI upgrade', 'perpetual', { prices: [P.upgradePro], sells: [sale(P.upgradePro)] }),
  tvico: nuitrack('Nuitrack TVico', 'perpetual'),
  real_dance: nuitrack('Nuitrack Real Dance', 'perpetual'),
  face_online_all_in_one: record(
    'face',
    'Face SDK all-in-one',
    'subscription',
    online({
      term: 'month',
      filter: 'face_online_all_in_one',
      prices: [P.faceAllInOne],
      sells: FACE_ALL_IN_ONE_MONTHS.map((months) => sale(P.faceAllInOne, months)),
    }),
  ),
  face_online_subscribe: record(
    'face',
    'Face SDK subscription',
    'subscription',
    online({ term: 'month', filter: 'face_online_sub', prices: [P.faceSubscribe], sells: [sale(P.faceSubscribe)] }),
  ),
  face_online_custom_subscribe: record(
    'face',
    'Face SDK custom subscription',
    'subscription',
    online({
      term: 'month',
      custom: true,
      device_bound: 'by_order',
      staff_form: { variant: 'subscription', online: true },
      // the builder's components and matcher tiers; not a fixed basket entry
      prices: CUSTOM_FACE_PRICES,
    }),
  ),
  face_online_custom: record(
    'face',
    'Face SDK custom online',
    'term',
    online({ custom: true, device_bound: 'by_order', staff_form: { variant: 'perpetual', online: true } }),
  ),
  face_offline_custom: record('face', 'Face SDK custom offline', 'term', {
    custom: true,
    device_bound: 'by_order',
    staff_form: { variant: 'subscription', online: false },
  }),
  face_offline_perpetual: record('face', 'Face SDK perpetual', 'perpetual', {
    custom: true,
    device_bound: 'by_order',
    staff_form: { variant: 'perpetual', online: false },
  }),
  fmc_subscribe: record(
    'face-machine',
    'Face Machine',
    'subscription',
    online({
      term: 'month',
      pausable: true,
      trial: { tag: 'FMC Trial', days: 30, plan_id: FACE_MACHINE_PLAN_ID, upgrades_to: 'fmc_subscribe' },
      prices: [P.faceMachine],
      sells: [sale(P.faceMachine)],
    }),
  ),
  na_subscribe: record(
    'nuitrack-analytics',
    'Nuitrack Analytics',
    'subscription',
    online({
      term: 'month',
      pausable: true,
      trial: { tag: 'NA Trial', days: 7, plan_id: ANALYTICS_PLAN_ID, upgrades_to: 'na_subscribe' },
      prices: P.analytics,
      // section 3: the analytics cloud price is read from tier 4
      sells: [sale(P.analytics[3]!)],
    }),
  ),
  facemachine_server: record('face-machine', 'Face Machine server', 'perpetual'),
} satisfies Record<string, ProductRecord>

export type Product = keyof typeof TABLE
/** One record per product code of spec section 3. */
export const PRODUCT_CATALOGUE: Readonly<Record<Product, ProductRecord>> = TABLE
/** Every product code, in the order of spec section 3. */
export const PRODUCTS = Object.keys(TABLE) as [Product, ...Product[]]

export const isProduct = (code: string): code is Product => Object.hasOwn(TABLE, code)
/** The record of a stored product code; null for a code the catalogue does not know (none is stored today). */
export const productRecord = (code: string): ProductRecord | null => (isProduct(code) ? TABLE[code] : null)

const productsWhere = (test: (r: ProductRecord, p: Product) => boolean): readonly Product[] => PRODUCTS.filter((p) => test(TABLE[p], p))

/** Which platform (license `type`) a product belongs to. */
export const platformOfProduct = (code: string): Platform => productRecord(code)?.platform ?? DEFAULT_PLATFORM
export const productTitle = (code: string) => productRecord(code)?.title ?? code
export const PRODUCT_TITLES = Object.fromEntries(PRODUCTS.map((p) => [p, TABLE[p].title])) as Record<Product, string>

export interface ProductFacts {
  kind: ProductKind
  term?: 'month' | 'year'
  custom?: true
}
export const PRODUCT_FACTS = Object.fromEntries(
  PRODUCTS.map((p) => {
    const { kind, term, custom } = TABLE[p] as ProductRecord
    return [p, { kind, ...(term ? { term } : {}), ...(custom ? { custom } : {}) }]
  }),
) as Record<Product, ProductFacts>
/** The facts of a product code; an unknown code counts as a fixed term. */
export const productFacts = (code: string): ProductFacts => (isProduct(code) ? PRODUCT_FACTS[code] : { kind: 'term' })
export const productKind = (code: string): ProductKind => productFacts(code).kind
export const isCustomProduct = (code: string) => productFacts(code).custom === true
export const isOnlineProduct = (code: string) => productRecord(code)?.online === true

export const SUBSCRIPTION_PRODUCTS: readonly string[] = productsWhere((r) => r.kind === 'subscription')
/** Products sold as online licenses (config.online with offline_timeout); a staff order says so itself. */
export const ONLINE_PRODUCTS: readonly string[] = productsWhere((r) => r.online)
/** Products whose default groups give group keys (section 5: a source group of the same os_type). */
export const SOURCE_GROUP_PRODUCTS: readonly string[] = productsWhere((r) => r.group_keys !== null)
export const PAUSABLE_PRODUCTS: readonly string[] = productsWhere((r) => r.pausable)

/** Free trials a client may take once each (POST /resource/create/), keyed by product. */
export const TRIALS = Object.fromEntries(
  productsWhere((r) => r.trial !== null).map((p) => {
    const t = TABLE[p].trial!
    return [p, { product: p, tag: t.tag, days: t.days, plan_id: t.plan_id }]
  }),
) as Record<string, { product: Product; tag: string | null; days: number | null; plan_id: number | null }>
export const trialOf = (code: string) => (isProduct(code) ? (TRIALS[code] ?? null) : null)
/** The free trial a platform's first steps offer, if it has one. */
export const trialOfPlatform = (platform: Platform) => Object.values(TRIALS).find((t) => TABLE[t.product].platform === platform) ?? null

/**
 * The free trial a platform offers a client: its trial while the client has not taken it (one each
 * per client, revoked ones count); null once taken, or where the platform has none.
 */
export const trialOffer = (platform: Platform, trialsUsed: readonly string[]) => {
  const trial = trialOfPlatform(platform)
  return trial && !trialsUsed.includes(trial.product) ? trial : null
}

/** Whether a platform sells anything a customer can pause (its dashboard has a Paused tab). */
export const platformHasPausable = (platform: Platform) => PRODUCTS.some((p) => TABLE[p].platform === platform && TABLE[p].pausable)

/** upgradeable.toAI of a license or group of this product: self-service, by support, or none. */
export const upgradeableToAI = (code: string): 'self' | 'bySupport' | null => productRecord(code)?.upgrade?.how ?? null

/** The product the staff form makes for its tab and license type. */
export function staffFormProduct(variant: 'perpetual' | 'subscription', online: boolean): Product {
  return productsWhere((r) => r.staff_form?.variant === variant && r.staff_form.online === online)[0]!
}

/** The config every license of a product carries, before its group's and order's own. */
export const grantedConfig = (code: string): GrantedConfig => {
  const g = productRecord(code)?.grants ?? {}
  return { ...g, ...(g.online ? { online: { ...g.online } } : {}) }
}

/** The seeded price list, derived from the records (seedCatalogue writes it). */
export const CATALOGUE_PRICES: CataloguePrice[] = PRODUCTS.flatMap((p) => [...TABLE[p].prices])

/** Everything a basket can sell: one entry per product and term, with the config the sale grants. */
export const SALE_ENTRIES: readonly SaleEntry[] = PRODUCTS.flatMap((product) => {
  const r: ProductRecord = TABLE[product]
  return r.sells.map((s) => {
    const allInOne = s.months !== null
    const delta = allInOne ? s.months! * MONTH_SECONDS : r.term === 'year' ? YEAR_SECONDS : r.term === 'month' ? MONTH_SECONDS : null
    const content: SaleEntry['config']['license_content'] = allInOne
      ? { ...Object.fromEntries(FACE_ALL_IN_ONE_COMPONENTS.map((c) => [c, 1])), database: FACE_ALL_IN_ONE_DATABASE }
      : {}
    return {
      id: `${product}_${delta ?? 0}`.toLowerCase(),
      product,
      platform: r.platform,
      title: allInOne ? `${r.title}, ${s.months} month${s.months === 1 ? '' : 's'}` : r.title,
      license_type: s.license_type,
      months: s.months,
      price: s.price,
      config: {
        product,
        plan_id: s.price.plan_id,
        license_content: content,
        license_expire_delta: delta,
        max_reactivation_count: allInOne ? 1 : (r.grants.max_reactivation_count ?? null),
        online: r.online ? { offline_timeout: ONLINE_DEFAULTS.offline_timeout } : null,
      },
    }
  })
})

export interface ChangelogEntry {
  version: string
  date: string
  changes: string[]
}

export const saleEntriesOf = (platform: Platform): SaleEntry[] => SALE_ENTRIES.filter((e) => e.platform === platform)

/**
 * The platforms with a basket (/app/{platform}/basket/ and the dashboard's Buy tile): those the
 * catalogue sells on (nuitrack, face, nuitrack-analytics); Face Machine is bought by its own upgrade.
 */
export const platformHasBasket = (platform: Platform) => platform !== 'face-machine' && saleEntriesOf(platform).length > 0
