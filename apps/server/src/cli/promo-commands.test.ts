import { describe, expect, it } from 'vitest'
import { signedInClient, useTestApp } from '../test/harness.ts'
import { HELP, runCommand } from './commands.ts'

const t = useTestApp()

const rows = () =>
  t.db.query<{ code: string; discount: string; platforms: string[]; expires_at: Date | null; max_activations: number | null; disabled: boolean }>(
    'SELECT code, discount, platforms, expires_at, max_activations, disabled FROM promo_codes ORDER BY id',
  )

describe('promo:create, promo:list, promo:disable', () => {
  it('creates a percent code for all platforms, unlimited, without expiry', async () => {
    const r = await runCommand(t.db, ['promo:create', 'SPRING10', '--discount', '10%'])
    expect(r).toEqual({ code: 0, output: 'Promo code SPRING10: 10% off, all platforms, unlimited activations, no expiry.' })
    expect(await rows()).toEqual([{ code: 'SPRING10', discount: '10%', platforms: [], expires_at: null, max_activations: null, disabled: false }])
  })

  it('creates a fixed code for named platforms (repeated or listed), with a maximum and a last day', async () => {
    const r = await runCommand(t.db, [
      'promo:create',
      'Face15',
      '--discount',
      '15.50',
      '--platform',
      'face',
      'face-machine',
      '--platform',
      'face',
      '--max-activations',
      '3',
      '--expires',
      '2030-06-30',
    ])
    expect(r.code, r.output).toBe(0)
    expect(r.output).toBe('Promo code Face15: 15.5 off, face, face-machine, 3 activations, valid through 2030-06-30 (UTC).')
    const [row] = await rows()
    expect(row).toMatchObject({ discount: '15.5', platforms: ['face', 'face-machine'], max_activations: 3 })
    // valid through the whole last day (UTC): it expires at the start of the next
    expect(new Date(row!.expires_at!).toISOString()).toBe('2030-07-01T00:00:00.000Z')
  })

  it('refuses bad input with a clear message and exit code 2, creating nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['promo:create'], /^Usage: promo:create/],
      [['promo:create', 'X1'], /^Usage: promo:create/],
      [['promo:create', 'X1', '--discount'], /--discount needs a value/],
      [['promo:create', 'X1', '--discount', '0%'], /--discount is a percent above 0/],
      [['promo:create', 'X1', '--discount', '120%'], /--discount is a percent above 0/],
      [['promo:create', 'X1', '--discount', '-5'], /--discount is a percent above 0/],
      [['promo:create', 'X1', '--discount', 'ten'], /--discount is a percent above 0/],
      [['promo:create', 'X1', '--discount', '1.999'], /--discount is a percent above 0/],
      [['promo:create', 'bad code', '--discount', '10%'], /A code is 1 to 64 letters/],
      [['promo:create', '-X', '--discount', '10%'], /A code is 1 to 64 letters/],
      [['promo:create', 'X1', '--discount', '10%', '--platform', 'windows'], /Unknown platform windows\. Platforms: nuitrack, face/],
      [['promo:create', 'X1', '--discount', '10%', '--max-activations', '0'], /--max-activations is a whole number of at least 1/],
      [['promo:create', 'X1', '--discount', '10%', '--max-activations', 'lots'], /--max-activations is a whole number of at least 1/],
      [['promo:create', 'X1', '--discount', '10%', '--max-activations', '99999999999'], /--max-activations is a whole number of at least 1/],
      [['promo:create', 'X1', '--discount', '10%', '--expires', '2030-02-30'], /--expires is a date YYYY-MM-DD/],
      [['promo:create', 'X1', '--discount', '10%', '--expires', 'tomorrow'], /--expires is a date YYYY-MM-DD/],
      [['promo:create', 'X1', '--discount', '10%', '--colour', 'red'], /Unknown option --colour/],
      [['promo:create', 'X1', 'X2', '--discount', '10%'], /^Usage: promo:create/],
      [['promo:create', 'X1', '--discount', '10%', '--discount', '5%'], /--discount is given twice/],
    ]
    for (const [argv, message] of cases) {
      const r = await runCommand(t.db, argv)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.output, argv.join(' ')).toMatch(message)
    }
    expect(await rows()).toEqual([])
  })

  it('refuses a code that exists in another case (exit 1)', async () => {
    expect((await runCommand(t.db, ['promo:create', 'SUMMER', '--discount', '10%'])).code).toBe(0)
    const again = await runCommand(t.db, ['promo:create', 'summer', '--discount', '20%'])
    expect(again.code).toBe(1)
    expect(again.output).toMatch(/exists already/)
    expect(await rows()).toHaveLength(1)
  })

  it('lists every code with its state; disables one (any case), and says when there is none', async () => {
    expect(await runCommand(t.db, ['promo:list'])).toEqual({ code: 0, output: 'No promo codes. Make one with promo:create.' })
    const { client } = await signedInClient(t)
    await runCommand(t.db, ['promo:create', 'LIVE', '--discount', '10%'])
    await runCommand(t.db, ['promo:create', 'PAST', '--discount', '5', '--expires', '2020-05-01', '--platform', 'face'])
    await runCommand(t.db, ['promo:create', 'FULL', '--discount', '5', '--max-activations', '1'])
    await t.db.query(`UPDATE promo_codes SET activations_used = 1 WHERE code = 'FULL'`)
    expect(client.id).toBeGreaterThan(0)
    expect(await runCommand(t.db, ['promo:disable', 'live'])).toEqual({ code: 0, output: 'Promo code live is disabled.' })
    expect(await runCommand(t.db, ['promo:disable', 'nope'])).toEqual({ code: 1, output: 'No promo code nope.' })
    expect((await runCommand(t.db, ['promo:disable'])).code).toBe(2)
    const list = await runCommand(t.db, ['promo:list'])
    expect(list.code).toBe(0)
    expect(list.output.split('\n')).toEqual([
      'code\tdiscount\tplatforms\tused/max\texpiry\tstate',
      'LIVE\t10%\tall\t0/∞\tno expiry\tdisabled',
      'PAST\t5\tface\t0/∞\tuntil 2020-05-01\texpired',
      'FULL\t5\tall\t1/1\tno expiry\tused up',
    ])
  })

  it('the help text lists the promo and price commands', () => {
    for (const line of ['promo:create <CODE> --discount <10%|15>', 'promo:list', 'promo:disable <CODE>', 'prices:set <platform>', 'prices:list [platform]'])
      expect(HELP).toContain(line)
  })
})
