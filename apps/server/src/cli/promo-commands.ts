import type { Db } from '../db/db.ts'
import { createPromo, disablePromoCode, listPromoCodes } from '../modules/promo/service.ts'
import { parseArgs } from './options.ts'
import type { CommandResult } from './result.ts'

export const PROMO_HELP = `
  promo:create <CODE> --discount <10%|15> [--platform P ...] [--max-activations N] [--expires YYYY-MM-DD]
                          a promo code: a percent off (10%) or a fixed USD amount off (15); for the
                          platforms named (default all), usable N times (default unlimited), through
                          the expiry day (UTC; default never). Codes are compared without regard to case.
  promo:list              every code with its discount, platforms, activations and state
  promo:disable <CODE>    the code stops working (validate answers that it does not exist)`

const CREATE_USAGE = 'Usage: promo:create <CODE> --discount <10%|15> [--platform P ...] [--max-activations N] [--expires YYYY-MM-DD]'

const day = (d: Date) => d.toISOString().slice(0, 10)

/** The promo commands; null for any other command. */
export async function runPromoCommand(db: Db, argv: readonly string[]): Promise<CommandResult | null> {
  const [command, ...args] = argv
  switch (command) {
    case 'promo:create': {
      const parsed = parseArgs(args, ['discount', 'platform', 'max-activations', 'expires'], ['platform'])
      if (parsed.problem) return { code: 2, output: `${parsed.problem}\n${CREATE_USAGE}` }
      const [code, ...extra] = parsed.positional
      const discount = parsed.options.get('discount')?.[0]
      if (!code || extra.length || !discount) return { code: 2, output: CREATE_USAGE }
      const maxText = parsed.options.get('max-activations')?.[0]
      if (maxText !== undefined && !/^\d{1,10}$/.test(maxText)) return { code: 2, output: '--max-activations is a whole number of at least 1' }
      const result = await createPromo(db, {
        code,
        discount,
        platforms: parsed.options.get('platform') ?? [],
        expires: parsed.options.get('expires')?.[0] ?? null,
        maxActivations: maxText === undefined ? null : Number(maxText),
      })
      if (!result.ok) return { code: result.problem.includes('exists already') ? 1 : 2, output: result.problem }
      const p = result.promo
      return {
        code: 0,
        output:
          `Promo code ${p.code}: ${p.discount} off, ${p.platforms.length ? p.platforms.join(', ') : 'all platforms'}, ` +
          `${p.max_activations === null ? 'unlimited activations' : `${p.max_activations} activations`}, ` +
          `${p.expires_at ? `valid through ${day(new Date(new Date(p.expires_at).getTime() - 86_400_000))} (UTC)` : 'no expiry'}.`,
      }
    }
    case 'promo:list': {
      if (args.length) return { code: 2, output: 'Usage: promo:list' }
      const promos = await listPromoCodes(db)
      if (!promos.length) return { code: 0, output: 'No promo codes. Make one with promo:create.' }
      const lines = promos.map((p) =>
        [
          p.code,
          p.discount,
          p.platforms.length ? p.platforms.join(',') : 'all',
          `${p.activations_used}/${p.max_activations ?? '∞'}`,
          p.expires_at ? `until ${day(new Date(new Date(p.expires_at).getTime() - 86_400_000))}` : 'no expiry',
          p.disabled ? 'disabled' : p.expired ? 'expired' : p.max_activations !== null && p.activations_used >= p.max_activations ? 'used up' : 'active',
        ].join('\t'),
      )
      return { code: 0, output: ['code\tdiscount\tplatforms\tused/max\texpiry\tstate', ...lines].join('\n') }
    }
    case 'promo:disable': {
      const [code, ...extra] = args
      if (!code || extra.length) return { code: 2, output: 'Usage: promo:disable <CODE>' }
      return (await disablePromoCode(db, code)) ? { code: 0, output: `Promo code ${code} is disabled.` } : { code: 1, output: `No promo code ${code}.` }
    }
    default:
      return null
  }
}
