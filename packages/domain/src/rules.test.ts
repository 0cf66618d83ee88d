import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PRODUCTS } from './catalogue.ts'
import {
  canPause,
  canResume,
  canSplit,
  canUpgrade,
  checkGroupResize,
  checkSplit,
  checkStaffValidity,
  checkBulkGenerate,
  checkTitle,
  defaultGroupSize,
  generateAllCount,
  planGenerateAll,
  revokeProblem,
  staffNeedsValidity,
  upgradeToAI,
} from './licenses.ts'
import { newLicenseBody, splitBody, staffLicenseBody, titleBody } from './license-schemas.ts'

const ROOT = join(import.meta.dirname, '../../..')

function sources(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (name === 'node_modules' || name === 'dist' || name === 'test') continue
    if (statSync(path).isDirectory()) out.push(...sources(path))
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path)
  }
  return out
}

/** The names a tree of source files imports from @portal/domain. */
function domainImports(dir: string): Set<string> {
  const names = new Set<string>()
  for (const file of sources(join(ROOT, dir))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@portal\/domain'/g)) {
      for (const part of m[1]!.split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!
          .trim()
        if (name) names.add(name)
      }
    }
  }
  return names
}

/**
 * Every rule once, called by both sides. Each rule names the functions (or the
 * body schemas built on them) that the server and the web must import from the domain package.
 */
const RULES: { rule: string; server: string[]; web: string[] | null; why?: string }[] = [
  { rule: 'group size and default size', server: ['checkSplit', 'defaultGroupSize'], web: ['checkSplit', 'defaultGroupSize'] },
  { rule: 'can split (a default source group with a license left)', server: ['checkSplit'], web: ['canSplit', 'checkSplit'] },
  { rule: 'resize bounds, with the source-group rule', server: ['checkGroupResize'], web: ['checkGroupResize'] },
  { rule: 'can revoke', server: ['revokeProblem'], web: ['revokeProblem'] },
  { rule: 'can pause', server: ['canPause', 'canResume'], web: ['canPause'] },
  // checkStaffValidity is a rule of the staff order's body schema, which the route and the form both parse with
  { rule: 'staff subscription needs a validity', server: ['staffLicenseBody'], web: ['staffLicenseBody'] },
  // both sides take titles through the body schemas made of titleField, which is checkTitle
  { rule: 'title rules', server: ['titleBody', 'splitBody', 'newLicenseBody'], web: ['titleBody', 'splitBody', 'newLicenseBody'] },
  // the server answers upgradeable.toAI from upgradeToAI (canUpgrade); the web asks canUpgrade for a trial's Upgrade now
  { rule: 'can upgrade', server: ['upgradeToAI'], web: ['canUpgrade'] },
  // "Generate all": the web offers generateAllCount keys, the largest count checkBulkGenerate lets the server make
  { rule: 'generate all within the 10 unactivated licenses', server: ['checkBulkGenerate'], web: ['generateAllCount'] },
]

/** The names the call contracts import from the rest of the domain: the body schemas they declare. */
function contractSchemaImports(): Set<string> {
  const names = new Set<string>()
  for (const file of sources(join(ROOT, 'packages/domain/src/contracts'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'\.\.\/[\w-]+\.ts'/g)) {
      for (const part of m[1]!.split(',')) if (part.trim()) names.add(part.trim())
    }
  }
  return names
}

describe('every rule once, called by both sides', () => {
  // the server registers its routes from the call contracts, so the body schemas they declare are its own
  const fromDomain = domainImports('apps/server/src')
  const server = fromDomain.has('contracts') ? new Set([...fromDomain, ...contractSchemaImports()]) : fromDomain
  const web = domainImports('apps/web/src')

  for (const r of RULES) {
    it(`${r.rule}: the server imports ${r.server.join(', ')}${r.web ? `; the web imports ${r.web.join(', ')}` : ''}`, () => {
      for (const name of r.server) expect(server, `server imports ${name}`).toContain(name)
      for (const name of r.web ?? []) expect(web, `web imports ${name}`).toContain(name)
    })
  }

  // the web has upgrade actions: the rule table above makes it ask canUpgrade, and it reads the server's upgradeable.toAI
})

/**
 * No product decision by a code's spelling outside the catalogue. These are the
 * forms the code used (before: 24 places): comparing a product to a literal, testing a prefix or
 * substring, a hand-kept set or table of codes, and a platform test standing in for a product fact.
 */
const PRODUCT_DECISIONS: RegExp[] = [
  /\b(product|p)\s*[!=]==?\s*'/,
  /'\s*[!=]==?\s*[\w.]*\bproduct\b/,
  /\.(startsWith|endsWith|includes)\(\s*['"`](nuitrack|face|fmc|na_)/,
  // a product's facts are its record's fields (PRODUCTS.includes only asks whether a code is a product)
  /\b(ONLINE_PRODUCTS|SOURCE_GROUP_PRODUCTS|SUBSCRIPTION_PRODUCTS|PAUSABLE_PRODUCTS)\s*(as [^)]*\))?\.includes\(/,
  /new Set\(\[\s*'(nuitrack|face|fmc|na)_/,
  /platform === 'face-machine' \|\| platform === 'nuitrack-analytics'/,
  /\b(online|offline):\s*'(face|nuitrack)_[a-z_]+'/,
  /product:\s*'[a-z_]+',\s*tag:/,
  /\/\^?\(?(nuitrack|face|fmc|na)_[a-z_|()]*\/[a-z]*\.test\(/,
]

describe('no product decision by string', () => {
  it('apps/ and packages/ decide by the catalogue, never by a product code’s spelling', () => {
    const files = [...sources(join(ROOT, 'apps/server/src')), ...sources(join(ROOT, 'apps/web/src')), ...sources(join(ROOT, 'packages/domain/src'))]
    const found: string[] = []
    for (const file of files) {
      if (file.endsWith('catalogue.ts')) continue
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (PRODUCT_DECISIONS.some((re) => re.test(line))) found.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`)
        })
    }
    expect(found).toEqual([])
  })

  it('the patterns catch the forms the code used before', () => {
    for (const line of [
      "const PAUSABLE = new Set(['fmc_subscribe', 'na_subscribe'])",
      "plan_id: trial.product === 'fmc_subscribe' ? 3 : 4",
      "if (product.startsWith('face_')) return 'face'",
      'const online = ONLINE_PRODUCTS.includes(group.product)',
      "const cloud = platform === 'face-machine' || platform === 'nuitrack-analytics'",
      "perpetual: { online: 'face_online_custom', offline: 'face_offline_perpetual' },",
      "nuitrack: { product: 'nuitrack_trial', tag: null, label: 'Start the free Nuitrack trial' },",
      "const isEnterprise = (g: GroupView) => g.product === 'nuitrack_unlimited'",
      'if (/^face_/.test(product)) return true',
    ]) {
      expect(
        PRODUCT_DECISIONS.some((re) => re.test(line)),
        line,
      ).toBe(true)
    }
  })
})

const group = (product: string, more: Partial<{ is_default: boolean; os_type: number | null; source_group_id: number | null; limit: number }> = {}) => ({
  product,
  is_default: true,
  os_type: 1,
  source_group_id: null,
  limit: 5,
  ...more,
})

describe('the rules', () => {
  it('checkSplit: a key comes from a splittable source with a license left, of 2 up to what the source has', () => {
    expect(checkSplit(group('nuitrack_online'), 2)).toBe('not_splittable')
    expect(checkSplit(group('nuitrack_subscribe', { is_default: false }), 2)).toBe('not_splittable')
    expect(checkSplit(group('nuitrack_subscribe', { limit: 0 }), 2)).toBe('source_empty')
    expect(checkSplit(group('nuitrack_subscribe'), 0)).toBe('group_size_is_zero')
    expect(checkSplit(group('nuitrack_unlimited'), 1)).toBe('group_min_size_error')
    expect(checkSplit(group('nuitrack_unlimited'), 6)).toBe('license_in_group_limit_error')
    expect(checkSplit(group('nuitrack_unlimited'), 5)).toBeNull()
    expect(defaultGroupSize(5)).toBe(2)
  })

  it('canSplit is exactly checkSplit saying nothing about the source', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PRODUCTS), fc.boolean(), fc.integer({ min: -1, max: 4 }), (product, is_default, limit) => {
        const g = group(product, { is_default, limit })
        const problem = checkSplit(g, 2)
        expect(canSplit(g)).toBe(problem !== 'not_splittable' && problem !== 'source_empty')
      }),
    )
  })

  it('checkGroupResize: 1 to own plus source, only against the source of its product and os_type', () => {
    const key = group('nuitrack_subscribe', { is_default: false, source_group_id: 1, limit: 3 })
    const source = group('nuitrack_subscribe', { limit: 4 })
    expect(checkGroupResize(7, key, source)).toEqual({ problem: null, min: 1, max: 7 })
    expect(checkGroupResize(8, key, source).problem).toBe('above_max')
    expect(checkGroupResize(0, key, source).problem).toBe('below_min')
    expect(checkGroupResize(1.5, key, source).problem).toBe('below_min')
    expect(checkGroupResize(2, key, null).problem).toBe('no_source')
    expect(checkGroupResize(2, { ...key, source_group_id: null }, source).problem).toBe('no_source')
    expect(checkGroupResize(2, key, { ...source, os_type: 2 }).problem).toBe('no_source')
    expect(checkGroupResize(2, key, group('nuitrack_online')).problem).toBe('no_source')
  })

  it('revokeProblem: grouped and never activated; released devices and a used group key count as activation', () => {
    expect(revokeProblem({ group_id: null, activation_date: null, has_devices: false })).toBe('not_grouped')
    expect(revokeProblem({ group_id: 1, activation_date: null, has_devices: false })).toBeNull()
    expect(revokeProblem({ group_id: 1, activation_date: '2026-01-01', has_devices: false })).toBe('activated')
    expect(revokeProblem({ group_id: 1, activation_date: null, has_devices: true })).toBe('activated')
    expect(revokeProblem({ group_id: 1, activation_date: null, has_devices: false, group_key_used: true })).toBe('activated')
    expect(revokeProblem({ group_id: 1, activation_date: null, has_devices: false, suspended_reason: 'payment refunded (CN-000001): x' })).toBe(
      'payment_taken_back',
    )
    expect(revokeProblem({ group_id: 1, activation_date: null, has_devices: false, suspended_reason: null })).toBeNull()
  })

  it('canPause and canResume: cloud subscriptions only; an ended one does not resume', () => {
    const now = new Date('2026-11-22T12:00:00Z')
    expect(PRODUCTS.filter(canPause)).toEqual(['fmc_subscribe', 'na_subscribe'])
    expect(canResume({ product: 'fmc_subscribe', expire_date: '2026-12-01T00:00:00Z' }, now)).toBe(true)
    expect(canResume({ product: 'fmc_subscribe', expire_date: '2026-11-01T00:00:00Z' }, now)).toBe(false)
    expect(canResume({ product: 'nuitrack_subscribe', expire_date: null }, now)).toBe(false)
  })

  it('canUpgrade: trial to paid, Pro to AI, nothing on hold', () => {
    const now = new Date('2026-11-22T12:00:00Z')
    const l = (product: string, config: Record<string, unknown> = {}, held_until: string | null = null) => ({
      product,
      config: { product, ...config },
      held_until,
    })
    expect(canUpgrade(l('fmc_subscribe', { tag: 'FMC Trial', upgraded: false }), now)).toEqual({
      kind: 'trial',
      to: 'fmc_subscribe',
      how: 'self',
      sold_as: 'fmc_subscribe',
    })
    expect(canUpgrade(l('fmc_subscribe', { tag: 'FMC Trial', upgraded: true }), now)).toBeNull()
    expect(canUpgrade(l('old'), now)).toEqual({ kind: 'ai', to: 'nuitrack_ai_perpetual', how: 'self', sold_as: 'upgrade_nuitrack_pro' })
    // a Pro license of a staff (custom) group has a custom price: support upgrades it
    expect(canUpgrade({ ...l('old'), custom: true }, now)).toMatchObject({ kind: 'ai', how: 'bySupport' })
    expect(upgradeToAI({ ...l('nuitrack_online'), custom: true }, now)).toBe('bySupport')
    expect(canUpgrade(l('old', {}, '2026-11-22T12:10:00Z'), now)).toBeNull()
    expect(upgradeToAI(l('nuitrack_online'), now)).toBe('self')
    expect(upgradeToAI(l('na_subscribe', { tag: 'NA Trial' }), now)).toBeNull()
    expect(upgradeToAI(l('nuitrack_online', {}, '2026-11-22T12:10:00Z'), now)).toBeNull()
  })

  it('checkStaffValidity: the subscription tab’s products need a validity, the perpetual tab’s do not', () => {
    expect(PRODUCTS.filter(staffNeedsValidity).sort()).toEqual(['face_offline_custom', 'face_online_custom_subscribe'])
    expect(checkStaffValidity({ product: 'face_online_custom_subscribe', license_expire_delta: null })).toBe('validity_required')
    expect(checkStaffValidity({ product: 'face_offline_custom', license_expire_delta: 2_592_000 })).toBeNull()
    expect(checkStaffValidity({ product: 'face_offline_perpetual', license_expire_delta: null })).toBeNull()
  })

  it('the staff order’s body schema carries checkStaffValidity, at the validity’s field, beside the other fields’ problems', () => {
    const order = (product: string, license_expire_delta: number | null, client_email = 'ann@example.com') => ({
      title: 'Kiosks',
      count: 1,
      client_email,
      config: { product, license_expire_delta, device_bound: false, max_version: null, license_content: {} },
      custom_tags: {},
    })
    const issues = (body: unknown) => staffLicenseBody.safeParse(body).error?.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
    expect(issues(order('face_online_custom_subscribe', null))).toEqual([{ path: 'config.license_expire_delta', message: 'validity_required_error' }])
    // a form shows every problem at once: a bad e-mail does not hide the missing validity
    expect(issues(order('face_offline_custom', null, 'not-an-email'))).toEqual([
      { path: 'client_email', message: 'email_validation_error' },
      { path: 'config.license_expire_delta', message: 'validity_required_error' },
    ])
    expect(issues(order('face_offline_custom', 2_592_000))).toBeUndefined()
    expect(issues(order('face_offline_perpetual', null))).toBeUndefined()
  })

  it('the server’s title schemas refuse exactly what checkTitle refuses', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.constant(' '.repeat(3)), fc.constant('x'.repeat(257))), (title) => {
        const ok = checkTitle(title) === null
        expect(titleBody.safeParse({ title }).success).toBe(ok)
        expect(splitBody.safeParse({ title, limit: 2 }).success).toBe(ok)
        expect(newLicenseBody.safeParse({ title }).success).toBe(ok)
      }),
    )
  })
})

describe('generate all', () => {
  it('offers the largest count the server accepts, and nothing past the 10 unactivated licenses', () => {
    expect(generateAllCount(12, 0)).toBe(10)
    expect(generateAllCount(3, 0)).toBe(3)
    expect(generateAllCount(12, 8)).toBe(2)
    expect(generateAllCount(5, 12)).toBe(0)
    expect(checkBulkGenerate(4, 3, 0)).toBe('not_enough_licenses')
    expect(checkBulkGenerate(3, 9, 8)).toBe('unactivated_limit')
    fc.assert(
      fc.property(fc.nat(40), fc.nat(15), (free, unactivated) => {
        const n = generateAllCount(free, unactivated)
        if (n > 0) expect(checkBulkGenerate(n, free, unactivated)).toBeNull()
        expect(checkBulkGenerate(n + 1, free, unactivated)).not.toBeNull()
      }),
    )
  })

  it('plans several groups within one room of 10', () => {
    const groups = [{ free: 4 }, { free: 0 }, { free: 5 }, { free: 3 }]
    expect(planGenerateAll(groups, 0).map((p) => p.count)).toEqual([4, 5, 1])
    expect(planGenerateAll(groups, 0).map((p) => p.group)).toEqual([groups[0], groups[2], groups[3]])
    expect(planGenerateAll(groups, 7).map((p) => p.count)).toEqual([3])
    expect(planGenerateAll(groups, 10)).toEqual([])
  })
})
