import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ERRORS } from '@portal/domain'
import { runCommand } from '../../cli/commands.ts'
import { DB_KIND, count, signedInClient, useTestApp } from '../../test/harness.ts'
import { useProcesses } from '../../test/processes.ts'
import { HttpAgent } from '../../test/money.ts'

/** Issue 13, "Correct under concurrency": parallel upgrades over two portal processes on one PostgreSQL database. */
const t = useTestApp()
const { startChild, startHere } = useProcesses()
const RETURN = { success_url: '/app/nuitrack/license-purchase-success/', cancel_url: '/app/nuitrack/dashboard/' }

async function twoProcesses() {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-upgrade-'))
  const [here, { base: child }] = await Promise.all([startHere(dataDir), startChild(dataDir)])
  const { client, email, password } = await signedInClient(t)
  const browser = new HttpAgent(here.base)
  expect((await browser.post('/api/client/signin/', { username: email, password })).status).toBe(200)
  expect((await browser.get(`${child}/api/client/`)).status).toBe(200)
  return { client, email, browser, bases: [here.base, child] as const }
}

async function tally(answers: Response[]) {
  const out: Record<string, number> = {}
  for (const r of answers) {
    const body = (await r.json()) as { error_code?: string }
    const key = r.status === 200 ? '200' : `${r.status} ${body.error_code ?? '(no code)'}`
    out[key] = (out[key] ?? 0) + 1
  }
  return out
}

describe.runIf(DB_KIND === 'postgres')('upgrades on two portal processes on one PostgreSQL database', () => {
  it('20 parallel upgrade requests on one license open one payment and one hold; the others are refused as on hold', { timeout: 60_000 }, async () => {
    const { client, browser, bases } = await twoProcesses()
    const trial = (
      (await (await browser.post('/api/resource/create/', { count: 1, config: { product: 'fmc_subscribe', tag: 'FMC Trial' } })).json()) as {
        licenses: { id: number }[]
      }
    ).licenses[0]!
    const started = Date.now()
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        browser.post(`${bases[i % 2]}/api/license/${trial.id}/upgrade/`, { payment_source: i % 4 < 2 ? 'stripe' : 'paypal', ...RETURN }),
      ),
    )
    const out = await tally(answers)
    console.info(`[conc] 20 parallel license upgrades on 2 processes in ${Date.now() - started} ms:`, out)
    expect(out).toEqual({ '200': 1, [`409 ${ERRORS.license_on_hold.code}`]: 19 })
    expect(await count(t.db, 'transactions WHERE client_id = $1', [client.id])).toBe(1)
    expect(await count(t.db, 'sandbox_sessions')).toBe(1)
    expect(await count(t.db, 'licenses WHERE held_until IS NOT NULL')).toBe(1)
    // and one more afterwards, on either process: still on hold
    for (const base of bases) {
      const again = await browser.post(`${base}/api/license/${trial.id}/upgrade/`, { payment_source: 'stripe', ...RETURN })
      expect(again.status).toBe(409)
    }
  })

  it('20 parallel group upgrades open one payment and hold its licenses once', { timeout: 60_000 }, async () => {
    const { client, email, browser, bases } = await twoProcesses()
    expect((await runCommand(t.db, ['licenses:grant', email, 'old', '6', '--os-type', '1'])).code).toBe(0)
    const [group] = await t.db.query<{ id: number }>("SELECT id FROM license_groups WHERE client_id = $1 AND product = 'old'", [client.id])
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => browser.post(`${bases[i % 2]}/api/group/${group!.id}/upgrade/`, { payment_source: 'stripe', limit: 4, ...RETURN })),
    )
    const out = await tally(answers)
    console.info('[conc] 20 parallel group upgrades on 2 processes:', out)
    expect(out).toEqual({ '200': 1, [`409 ${ERRORS.license_on_hold.code}`]: 19 })
    expect(await count(t.db, 'transactions WHERE client_id = $1', [client.id])).toBe(1)
    const [row] = await t.db.query<{ available: number; holded_limit: number }>('SELECT available, holded_limit FROM license_groups WHERE id = $1', [group!.id])
    expect(row).toEqual({ available: 6, holded_limit: 4 })
  })
})
