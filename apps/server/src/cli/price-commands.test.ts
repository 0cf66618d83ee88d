import { describe, expect, it } from 'vitest'
import { seedCatalogue } from '../modules/catalogue/queries.ts'
import { signedInClient, useTestApp } from '../test/harness.ts'
import { runCommand } from './commands.ts'

const t = useTestApp()

interface Row {
  cost_cents: number
  old_price_cents: number | null
  discount: string | null
  deprecated: boolean
}
const row = async (platform: string, product: string, licenseType: string, tier: number | null = null) =>
  (
    await t.db.query<Row>(
      `SELECT cost_cents, old_price_cents, discount, deprecated FROM prices
        WHERE platform = $1 AND product = $2 AND license_type = $3 AND tier IS NOT DISTINCT FROM $4::int`,
      [platform, product, licenseType, tier],
    )
  )[0]

/** the seed's prices, put back after each test changes them (the harness keeps the prices table) */
async function restoreSeed() {
  await t.db.query('DELETE FROM prices')
  await seedCatalogue(t.db)
}

describe('prices:set and prices:list', () => {
  it('sets a price in integer cents; GET /api/client/ shows it; the seed does not overwrite it', async () => {
    try {
      const { agent } = await signedInClient(t)
      const r = await runCommand(t.db, ['prices:set', 'nuitrack', 'nuitrack_ai_perpetual', 'ai', '0.29'])
      expect(r).toEqual({ code: 0, output: 'Price set: nuitrack nuitrack_ai_perpetual ai  $0.29' })
      // 0.29 is 28.999999999999996 as a float times 100: parsed from text it is 29 cents
      expect(await row('nuitrack', 'nuitrack_ai_perpetual', 'ai')).toMatchObject({ cost_cents: 29 })
      await runCommand(t.db, [
        'prices:set',
        'nuitrack',
        'nuitrack_ai_perpetual',
        'ai',
        '349.99',
        '--old-price',
        '399',
        '--discount',
        '12.5',
        '--deprecated',
        'true',
      ])
      expect(await row('nuitrack', 'nuitrack_ai_perpetual', 'ai')).toEqual({ cost_cents: 34999, old_price_cents: 39900, discount: '12.5', deprecated: true })
      const price = (await agent.get('/api/client/')).json().prices.nuitrack.find((p: { product: string }) => p.product === 'nuitrack_ai_perpetual')
      expect(price).toMatchObject({ cost: 349.99, old_price: 399, discount: 12.5, deprecated: true })
      await seedCatalogue(t.db)
      expect(await row('nuitrack', 'nuitrack_ai_perpetual', 'ai')).toMatchObject({ cost_cents: 34999 })
      // only what is named changes; none clears
      await runCommand(t.db, ['prices:set', 'nuitrack', 'nuitrack_ai_perpetual', 'ai', '300', '--old-price', 'none', '--discount', 'none'])
      expect(await row('nuitrack', 'nuitrack_ai_perpetual', 'ai')).toEqual({ cost_cents: 30000, old_price_cents: null, discount: null, deprecated: true })
    } finally {
      await restoreSeed()
    }
  })

  it('sets a tiered row by its tier', async () => {
    try {
      const r = await runCommand(t.db, ['prices:set', 'nuitrack-analytics', 'na_subscribe', 'cloud', '25', '--tier', '4'])
      expect(r.code, r.output).toBe(0)
      expect(await row('nuitrack-analytics', 'na_subscribe', 'cloud', 4)).toMatchObject({ cost_cents: 2500 })
      expect(await row('nuitrack-analytics', 'na_subscribe', 'cloud', 3)).toMatchObject({ cost_cents: 4500 })
      // the custom Face subscription's matcher tiers are rows too, keyed by their database size
      const matcher = await runCommand(t.db, ['prices:set', 'face', 'face_online_custom_subscribe', 'matcher', '999.99', '--tier', '10000000'])
      expect(matcher).toEqual({ code: 0, output: 'Price set: face face_online_custom_subscribe matcher --tier 10000000  $999.99' })
    } finally {
      await restoreSeed()
    }
  })

  it('an unknown row is a clear error (exit 1) naming the rows there are; bad input is exit 2; nothing changes', async () => {
    const before = await t.db.query('SELECT * FROM prices ORDER BY id')
    const missing = await runCommand(t.db, ['prices:set', 'nuitrack-analytics', 'na_subscribe', 'cloud', '25'])
    expect(missing.code).toBe(1)
    expect(missing.output).toContain('No price row nuitrack-analytics na_subscribe cloud.')
    expect(missing.output).toContain('nuitrack-analytics na_subscribe cloud --tier 1')
    const unknownProduct = await runCommand(t.db, ['prices:set', 'face', 'face_nothing', 'x', '25'])
    expect(unknownProduct.code).toBe(1)
    expect(unknownProduct.output).toMatch(/No row of face_nothing on face; prices:list face shows the rows/)
    const bad: [string[], RegExp][] = [
      [['prices:set'], /^Usage: prices:set/],
      [['prices:set', 'nuitrack', 'nuitrack_ai_perpetual', 'ai'], /^Usage: prices:set/],
      [['prices:set', 'windows', 'nuitrack_ai_perpetual', 'ai', '10'], /Unknown platform windows/],
      [['prices:set', 'nuitrack', 'nuitrack_ai_perpetual', 'ai', '10.999'], /The price is a USD amount above 0/],
      [['prices:set', 'nuitrack', 'nuitrack_ai_perpetual', 'ai', '-10'], /Unknown option -10|The price is a USD amount/],
      [['prices:set', 'nuitrack', 'nuitrack_ai_perpetual', 'ai', '0'], /The price is a USD amount above 0/],
      [['prices:set', 'nuitrack', 'nuitrack_ai_perpetual', 'ai', '1e3'], /The price is a USD amount above 0/],
      [['prices:set', 'nuitrack', 'nuitrack_ai_perpetual', 'ai', '10', '--tier', 'x'], /--tier is a whole number/],
      [['prices:set', 'nuitrack', 'nuitrack_ai_perpetual', 'ai', '10', '--old-price', 'abc'], /--old-price is a USD amount/],
      [['prices:set', 'nuitrack', 'nuitrack_ai_perpetual', 'ai', '10', '--discount', '101'], /--discount is a number from 0 to 100/],
      [['prices:set', 'nuitrack', 'nuitrack_ai_perpetual', 'ai', '10', '--deprecated', 'yes'], /--deprecated is true or false/],
      [['prices:set', 'nuitrack', 'nuitrack_ai_perpetual', 'ai', '10', '--cost', '5'], /Unknown option --cost/],
    ]
    for (const [argv, message] of bad) {
      const r = await runCommand(t.db, argv)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.output, argv.join(' ')).toMatch(message)
    }
    expect(await t.db.query('SELECT * FROM prices ORDER BY id')).toEqual(before)
  })

  it('lists the rows of one platform or all, in USD', async () => {
    const face = await runCommand(t.db, ['prices:list', 'face'])
    expect(face.code).toBe(0)
    const lines = face.output.split('\n')
    expect(lines[0]).toBe('face face_online_all_in_one all-in-one  $50.00')
    expect(lines).toContain('face face_online_subscribe subscription  $30.00')
    expect(lines).toContain('face face_online_custom_subscribe matcher --tier 10000000  $1,000.00')
    expect(lines.every((l) => l.startsWith('face '))).toBe(true)
    const all = await runCommand(t.db, ['prices:list'])
    expect(all.output).toContain('nuitrack nuitrack_online_subscription_monthly pro  $3.28  old $4.99')
    expect(all.output).toContain('nuitrack nuitrack_online pro  $39.90  deprecated')
    expect((await runCommand(t.db, ['prices:list', 'mars'])).code).toBe(2)
  })
})
