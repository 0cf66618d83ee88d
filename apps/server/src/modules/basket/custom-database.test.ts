import { describe, expect, it } from 'vitest'
import { ERRORS, type LicenseView } from '@portal/domain'
import { expectError, signedInClient, useTestApp } from '../../test/harness.ts'
import { credit } from '../../test/money.ts'
import { pdfText } from '../../test/pdf.ts'
import { balanceAndLedgerSum } from '../billing/queries.ts'
import { runRenewals } from '../subscriptions/renewal.ts'

/**
 * The custom Face SDK subscription's face database (spec section 9): the size is a matcher tier, the
 * server prices the matcher and the video client extension by it from its own price rows, refuses a
 * size that is no tier, and names the tier wherever the purchase is described.
 */
const t = useTestApp()
const RETURN = { success_url: '/app/face/license-purchase-success/', cancel_url: '/app/face/basket/' }
const custom = (content: Record<string, number>) => ({ config: { product: 'face_online_custom_subscribe', license_content: content }, count: 1 })
const buy = (agent: Awaited<ReturnType<typeof signedInClient>>['agent'], items: unknown[]) =>
  agent.post('/api/resource/subscribe/', { payment_source: 'balance', items, ...RETURN })

describe('the custom subscription priced by its database tier', () => {
  it('prices the matcher and the extension by the chosen tier, with or without each other, from the price rows', async () => {
    const { agent, client } = await signedInClient(t)
    await credit(t.db, client.id, 200_000)
    // the matcher at the 5,000-face tier ($34) and the extension at its $10 plus that tier
    const both = await buy(agent, [custom({ matcher: 1, video_client_ext: 1, database: 5_000 })])
    expect(both.statusCode, both.body).toBe(200)
    expect(both.json().amount).toBe(34 + 10 + 34)
    // the extension alone, at the 100,000-face tier ($160)
    expect((await buy(agent, [custom({ video_client_ext: 1, database: 100_000 })])).json().amount).toBe(10 + 160)
    // the matcher alone with no database ($1), and at the largest tier
    expect((await buy(agent, [custom({ matcher: 1, database: 0 })])).json().amount).toBe(1)
    expect((await buy(agent, [custom({ matcher: 1, database: 10_000_000 })])).json().amount).toBe(1000)
    // a staff price change of a tier is what the next purchase pays
    await t.db.query("UPDATE prices SET cost_cents = 9900 WHERE product = 'face_online_custom_subscribe' AND license_type = 'matcher' AND tier = 5000")
    expect((await buy(agent, [custom({ matcher: 1, video_client_ext: 1, database: 5_000 })])).json().amount).toBe(99 + 10 + 99)
    const left = 200_000 - 7_800 - 17_000 - 100 - 100_000 - 20_800
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: left, ledger: left })
  })

  it('refuses a size that is no tier with item_not_for_sale, naming the line, and changes nothing', async () => {
    const { agent, client } = await signedInClient(t)
    await credit(t.db, client.id, 100_000)
    for (const database of [1, 2_000, 10_000_001, -5, 1.5])
      expectError(await buy(agent, [custom({ matcher: 1, database })]), 400, ERRORS.item_not_for_sale.code, 'items.0')
    expectError(await buy(agent, [custom({ video_client_ext: 1, database: 2_000 })]), 400, ERRORS.item_not_for_sale.code, 'items.0')
    expect(await balanceAndLedgerSum(t.db, client.id)).toEqual({ balance: 100_000, ledger: 100_000 })
    expect((await agent.get('/api/group/')).json().groups).toEqual([])
  })

  it('names the tier in the license content, the group title, the invoice line and the renewal line', async () => {
    const { agent, client } = await signedInClient(t)
    await credit(t.db, client.id, 2 * 7_800)
    const res = await buy(agent, [custom({ matcher: 1, video_client_ext: 1, database: 5_000 })])
    expect(res.statusCode, res.body).toBe(200)
    const title = 'Face SDK custom subscription, up to 5,000 faces'
    const [group] = (await agent.get('/api/group/')).json().groups as { id: number; title: string; config: { license_content: unknown } }[]
    expect(group).toMatchObject({ title, config: { license_content: { matcher: 1, video_client_ext: 1, database: 5_000 } } })
    const license = (await agent.post(`/api/group/${group!.id}/new-license/`, {})).json() as LicenseView
    expect(license.config.license_content).toEqual({ matcher: 1, video_client_ext: 1, database: 5_000 })
    expect(license.subscription).toMatchObject({ renewal_price: 78 })

    const docs = () => agent.get('/api/transaction/').then((r) => r.json().transactions as { description: string; invoice_url: string }[])
    const [purchase] = await docs()
    expect(purchase!.description).toBe(`${title} × 1`)
    // the PDF wraps long lines: compare with single spaces
    const text = async (url: string) => (await pdfText((await agent.get(url)).rawPayload)).replace(/\s+/g, ' ')
    expect(await text(purchase!.invoice_url)).toContain(title)

    t.clock.set(new Date(new Date(license.expire_date!).getTime() + 1000))
    expect(await runRenewals(t.app.ctx)).toEqual({ renewed: 1 })
    const [renewal] = await t.db.query<{ amount_cents: number; lines: { description: string }[] }>(
      "SELECT amount_cents, lines FROM transactions WHERE client_id = $1 AND kind = 'renewal'",
      [client.id],
    )
    expect(renewal).toMatchObject({
      amount_cents: 7_800,
      lines: [{ description: `Renewal of Face SDK custom subscription #${license.id} (up to 5,000 faces) for 1 month` }],
    })
    const renewalDoc = (await docs()).find((d) => d.description.startsWith('Renewal'))!
    expect(await text(renewalDoc.invoice_url)).toContain(`Renewal of Face SDK custom subscription #${license.id} (up to 5,000 faces) for 1 month`)
  })
})
