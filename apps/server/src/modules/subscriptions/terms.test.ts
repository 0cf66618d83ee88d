import { describe, expect, it } from 'vitest'
import { type LicenseView } from '@portal/domain'
import { signedInClient, useTestApp } from '../../test/harness.ts'
import { credit } from '../../test/money.ts'
import { runRenewals } from './renewal.ts'
import { pdfText } from '../../test/pdf.ts'
import { formatInvoiceDate } from '../transactions/service.ts'

/** A 3-month Face SDK all-in-one term is a 3-month term on the info screen, the invoice and the mails. */
const t = useTestApp()
const THREE_MONTHS = 7_776_000
const RETURN = { success_url: '/app/face/license-purchase-success/', cancel_url: '/app/face/basket/' }

describe('the real term of a purchase', () => {
  it('a 3-month all-in-one renews every 3 months at the 3-month price: its invoice line and its mail say so', async () => {
    const { agent, client, email } = await signedInClient(t)
    await credit(t.db, client.id, 2 * 15_000)
    const item = { config: { product: 'face_online_all_in_one', license_expire_delta: THREE_MONTHS }, count: 1 }
    const res = await agent.post('/api/resource/subscribe/', { payment_source: 'balance', items: [item], ...RETURN })
    expect(res.statusCode, res.body).toBe(200)
    const group = ((await agent.get('/api/group/')).json().groups as { id: number; limit: number }[]).find((g) => g.limit > 0)!
    const license = (await agent.post(`/api/group/${group.id}/new-license/`, { title: 'Kiosk' })).json() as LicenseView
    expect(license).toMatchObject({ config: { license_expire_delta: THREE_MONTHS }, subscription: { renewal_price: 150 } })
    expect(new Date(license.expire_date!).getTime() - new Date(license.created_date).getTime()).toBeGreaterThan(89 * 86_400_000)

    t.clock.set(new Date(new Date(license.expire_date!).getTime() + 1000))
    expect(await runRenewals(t.app.ctx)).toEqual({ renewed: 1 })
    const [renewal] = await t.db.query<{ amount_cents: number; lines: { description: string }[] }>(
      "SELECT amount_cents, lines FROM transactions WHERE client_id = $1 AND kind = 'renewal'",
      [client.id],
    )
    expect(renewal).toMatchObject({ amount_cents: 15_000, lines: [{ description: 'Renewal of Kiosk for 3 months' }] })
    // each invoice prints the service period it pays for: the purchase's from its payment, the
    // renewal's from the end of the period before, each 3 months long
    const docs = (await agent.get('/api/transaction/')).json().transactions as { description: string; invoice_url: string }[]
    const periodOf = async (url: string) => /Service period: (\w+ \d+, \d{4}) – (\w+ \d+, \d{4})/.exec(await pdfText((await agent.get(url)).rawPayload))
    const renewalPeriod = await periodOf(docs.find((d) => d.description.startsWith('Renewal'))!.invoice_url)
    expect(renewalPeriod?.[1]).toBe(formatInvoiceDate(new Date(license.expire_date!)))
    expect(renewalPeriod?.[2]).toBe(formatInvoiceDate(new Date(new Date(license.expire_date!).getTime() + THREE_MONTHS * 1000)))
    const purchasePeriod = await periodOf(docs.find((d) => !d.description.startsWith('Renewal'))!.invoice_url)
    expect(purchasePeriod).not.toBeNull()

    // the balance is spent: the next renewal fails, and its mail names the price per term
    const renewed = (await agent.get(`/api/license/${license.id}/`)).json() as LicenseView
    t.clock.set(new Date(new Date(renewed.expire_date!).getTime() + 1000))
    expect(await runRenewals(t.app.ctx)).toEqual({ failed: 1 })
    const [mail] = await t.db.query<{ text_body: string }>("SELECT text_body FROM mail_outbox WHERE to_address = $1 AND subject LIKE 'Payment for%'", [email])
    expect(mail!.text_body).toContain('$150.00 every 3 months')
    expect(mail!.text_body).not.toContain('a month')
  })
})
