import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DB_KIND, count, signedInClient, useTestApp } from '../test/harness.ts'
import { useProcesses } from '../test/processes.ts'
import { HttpAgent, credit } from '../test/money.ts'
import { balanceAndLedgerSum } from '../modules/billing/queries.ts'

const t = useTestApp()
const { startChild } = useProcesses()

const PRO_MONTHLY = { config: { product: 'nuitrack_online_subscription_monthly', license_expire_delta: 2_592_000 }, count: 1 }
const order = {
  payment_source: 'balance',
  success_url: '/app/nuitrack/license-purchase-success/',
  cancel_url: '/app/nuitrack/basket/',
  items: [PRO_MONTHLY],
}
const PRICE = 328

type Answer = { status: number; connection: string | null; transactionId?: number } | { refused: string }

describe.runIf(DB_KIND === 'postgres')('a SIGTERM in the middle of a burst of purchases (a real server process)', () => {
  it('finishes every purchase that had started, fails none, and loses none: the ledger matches the answers', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-sigterm-'))
    // seconds of draining (a busy machine must see them): the health check answers 503 while requests are still served
    const child = await startChild(dataDir, true, { CHILD_SHUTDOWN_DELAY_SECONDS: '5' })
    const { client, email, password } = await signedInClient(t)
    await credit(t.db, client.id, 40 * PRICE)
    const browser = new HttpAgent(child.base)
    expect((await browser.post('/api/client/signin/', { username: email, password })).status).toBe(200)

    const buy = async (): Promise<Answer> => {
      try {
        const res = await browser.post('/api/resource/buy/', order)
        const body = (await res.json()) as { transaction_id?: number }
        return { status: res.status, connection: res.headers.get('connection'), transactionId: body.transaction_id }
      } catch (err) {
        // a request the process never took: its listener had closed (nothing started, nothing to lose)
        return { refused: String((err as Error).cause ?? err) }
      }
    }
    const exited = new Promise<number | null>((resolve) => child.proc.on('exit', (code) => resolve(code)))

    const before = Array.from({ length: 15 }, () => buy())
    // the signal lands once the burst is being served
    await Promise.race(before)
    child.proc.kill('SIGTERM')
    // once the signal is taken, the readiness check turns away new traffic and liveness still answers
    await expect.poll(async () => (await fetch(`${child.base}/api/health/`)).status).toBe(503)
    const health = await fetch(`${child.base}/api/health/`)
    expect(await health.json()).toEqual({ status: 'draining' })
    expect(health.headers.get('connection')).toBe('close')
    expect((await fetch(`${child.base}/api/health/live/`)).status).toBe(200)
    const during = Array.from({ length: 15 }, () => buy())
    const answers = await Promise.all([...before, ...during])
    expect(await exited).toBe(0)

    // every purchase in flight when the signal came finished
    expect((await Promise.all(before)).map((a) => ('status' in a ? a.status : a.refused))).toEqual(before.map(() => 200))
    const served = answers.filter((a): a is Extract<Answer, { status: number }> => 'status' in a)
    // an answer is a purchase, or the closing server's 503 to a request it had not started; never a 500
    expect(served.every((a) => a.status === 200 || a.status === 503)).toBe(true)
    const ok = served.filter((a) => a.status === 200)
    // the purchases sent while it drained were served, and told the client to go elsewhere next time
    expect(served.slice(15).some((a) => a.status === 200 && a.connection === 'close')).toBe(true)
    // every success is one purchase with its ledger entry, and nothing else was charged
    const ids = ok.map((a) => a.transactionId!)
    expect(new Set(ids).size).toBe(ok.length)
    expect(await count(t.db, "transactions WHERE kind = 'purchase' AND client_id = $1", [client.id])).toBe(ok.length)
    expect(await count(t.db, 'ledger_entries WHERE transaction_id = ANY($1::bigint[])', [ids])).toBe(ok.length)
    const left = (40 - ok.length) * PRICE
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: left, ledger: left })
    // and it is gone: the next request is refused at the socket
    await expect(fetch(`${child.base}/api/health/live/`)).rejects.toThrow()
  })
})
