import { PLATFORMS, formatCents } from '@portal/domain'
import type { Db } from '../db/db.ts'
import { listStoredPrices, updatePrice, type CataloguePriceRow, type PriceChange, type PriceKey } from '../modules/catalogue/queries.ts'
import { parseArgs, parseUsdCents } from './options.ts'
import type { CommandResult } from './result.ts'

export const PRICE_HELP = `
  prices:set <platform> <product> <license_type> <price USD> [--tier N] [--old-price USD|none]
             [--discount N|none] [--deprecated true|false]
                          change a price row (the seed never overwrites it again); GET /api/client/
                          and the basket show the new price at once
  prices:list [platform]  the price rows, in USD`

const SET_USAGE =
  'Usage: prices:set <platform> <product> <license_type> <price USD> [--tier N] [--old-price USD|none] [--discount N|none] [--deprecated true|false]'

const rowKey = (r: PriceKey) => `${r.platform} ${r.product} ${r.license_type}${r.tier === null ? '' : ` --tier ${r.tier}`}`

function describe(r: CataloguePriceRow): string {
  return [
    rowKey(r),
    formatCents(Number(r.cost_cents)),
    r.old_price_cents === null ? '' : `old ${formatCents(Number(r.old_price_cents))}`,
    r.discount === null ? '' : `discount ${Number(r.discount)}`,
    r.deprecated ? 'deprecated' : '',
  ]
    .filter(Boolean)
    .join('  ')
}

/** The price commands; null for any other command. */
export async function runPriceCommand(db: Db, argv: readonly string[]): Promise<CommandResult | null> {
  const [command, ...args] = argv
  switch (command) {
    case 'prices:set': {
      const parsed = parseArgs(args, ['tier', 'old-price', 'discount', 'deprecated'])
      if (parsed.problem) return { code: 2, output: `${parsed.problem}\n${SET_USAGE}` }
      const [platform, product, licenseType, priceText, ...extra] = parsed.positional
      if (!platform || !product || !licenseType || !priceText || extra.length) return { code: 2, output: SET_USAGE }
      if (!(PLATFORMS as readonly string[]).includes(platform)) return { code: 2, output: `Unknown platform ${platform}. Platforms: ${PLATFORMS.join(', ')}` }
      const cost = parseUsdCents(priceText)
      if (cost === null || cost === 0) return { code: 2, output: `The price is a USD amount above 0 with at most 2 decimals (12, 12.5, 12.50): ${priceText}` }
      const tierText = parsed.options.get('tier')?.[0]
      if (tierText !== undefined && !/^\d{1,9}$/.test(tierText)) return { code: 2, output: `--tier is a whole number: ${tierText}` }
      const change: PriceChange = { cost_cents: cost }
      const old = parsed.options.get('old-price')?.[0]
      if (old !== undefined) {
        const oldCents = old === 'none' ? null : parseUsdCents(old)
        if (old !== 'none' && (oldCents === null || oldCents === 0))
          return { code: 2, output: `--old-price is a USD amount above 0, or none to clear it: ${old}` }
        change.old_price_cents = oldCents
      }
      const discount = parsed.options.get('discount')?.[0]
      if (discount !== undefined) {
        const ok = discount === 'none' || (/^\d{1,3}(\.\d{1,2})?$/.test(discount) && Number(discount) <= 100)
        if (!ok) return { code: 2, output: `--discount is a number from 0 to 100 (2 decimals at most), or none to clear it: ${discount}` }
        change.discount = discount === 'none' ? null : Number(discount)
      }
      const deprecated = parsed.options.get('deprecated')?.[0]
      if (deprecated !== undefined) {
        if (deprecated !== 'true' && deprecated !== 'false') return { code: 2, output: `--deprecated is true or false: ${deprecated}` }
        change.deprecated = deprecated === 'true'
      }
      const key = { platform, product, license_type: licenseType, tier: tierText === undefined ? null : Number(tierText) }
      const row = await updatePrice(db, key, change)
      if (!row) {
        const near = (await listStoredPrices(db, platform)).filter((r) => r.product === product)
        const hint = near.length
          ? `Rows of ${product}:\n${near.map((r) => `  ${rowKey(r)}`).join('\n')}`
          : `No row of ${product} on ${platform}; prices:list ${platform} shows the rows.`
        return { code: 1, output: `No price row ${rowKey(key)}.\n${hint}` }
      }
      return { code: 0, output: `Price set: ${describe(row)}` }
    }
    case 'prices:list': {
      const [platform, ...extra] = args
      if (extra.length) return { code: 2, output: 'Usage: prices:list [platform]' }
      if (platform !== undefined && !(PLATFORMS as readonly string[]).includes(platform))
        return { code: 2, output: `Unknown platform ${platform}. Platforms: ${PLATFORMS.join(', ')}` }
      const rows = await listStoredPrices(db, platform)
      return { code: 0, output: rows.length ? rows.map(describe).join('\n') : 'No price rows (run migrate to seed the catalogue).' }
    }
    default:
      return null
  }
}
