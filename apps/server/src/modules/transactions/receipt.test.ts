import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../../app.ts'
import { Agent, count, signedInClient, testConfig, useTestApp } from '../../test/harness.ts'
import { pdfText } from '../../test/pdf.ts'
import { paidTopUp, pendingTopUp, settle } from '../../test/transactions.ts'
import { updateClientProfile } from '../account/queries.ts'
import { RECEIPT_JOB } from './service.ts'
import { sendReceipt } from './receipt.ts'

const t = useTestApp()
const ctx = () => t.app.ctx

interface OutboxRow {
  id: number
  to_address: string
  subject: string
  text_body: string
  html_body: string
  attachments: { filename: string; content_type: string; content_base64: string }[]
}
const outbox = () => t.db.query<OutboxRow>('SELECT id, to_address, subject, text_body, html_body, attachments FROM mail_outbox ORDER BY id')

/** a top-up the provider completes: applyPaymentEvent enqueues the receipt job; one queue round runs it */
async function paidThroughProvider(clientId: number, amountCents: number) {
  const { id, sessionId } = await pendingTopUp(t.db, clientId, amountCents)
  const applied = await settle(ctx(), sessionId, 'paid', { amountCents, paymentMethod: 'Visa •••• 4242' })
  expect(applied).toMatchObject({ transactionId: id, status: 'ok', applied: true })
  expect(await count(t.db, `jobs WHERE name = $1 AND status = 'pending'`, [RECEIPT_JOB])).toBe(1)
  await ctx().jobs.tick()
  return id
}

describe('the receipt of a payment', () => {
  it('is mailed once the payment completes, with the invoice PDF attached while bills_mail is on (the default)', async () => {
    const { client, email } = await signedInClient(t)
    await paidThroughProvider(client.id, 15_000)
    expect(await count(t.db, `jobs WHERE name = $1 AND status = 'done'`, [RECEIPT_JOB])).toBe(1)
    const mails = await outbox()
    expect(mails).toHaveLength(1)
    const mail = mails[0]!
    expect(mail.to_address).toBe(email)
    expect(mail.subject).toBe('Receipt for your payment of $150.00')
    const paidOn = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date())
    for (const line of ['Amount: $150.00', 'For: Balance top-up', `Date: ${paidOn}`, 'Payment method: Visa •••• 4242', 'Invoice: INV-000001']) {
      expect(mail.text_body).toContain(line)
    }
    expect(mail.text_body).toContain('http://portal.test/app/payment-doc/')
    expect(mail.text_body).toContain('The invoice INV-000001 is attached as a PDF.')
    expect(mail.html_body).toContain('href="http://portal.test/app/payment-doc/"')
    expect(mail.html_body).toContain('Visa •••• 4242')
    expect(mail.attachments.map((a) => [a.filename, a.content_type])).toEqual([['INV-000001.pdf', 'application/pdf']])
    const pdf = Buffer.from(mail.attachments[0]!.content_base64, 'base64')
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
    const text = await pdfText(pdf)
    expect(text).toContain('INV-000001')
    expect(text).toMatch(/Total \(USD\)\s+\$150\.00/)
    // a client without a name is billed by e-mail, printed once
    expect(text.split(email)).toHaveLength(2)
  })

  it('comes without the invoice when bills_mail is off, and says where to download it', async () => {
    const { client } = await signedInClient(t)
    await updateClientProfile(t.db, client.id, { options: { bills_mail: false } })
    await paidThroughProvider(client.id, 2_000)
    const [mail] = await outbox()
    expect(mail!.subject).toBe('Receipt for your payment of $20.00')
    expect(mail!.attachments).toEqual([])
    expect(mail!.text_body).toContain('You can download the invoice from your payment documents.')
    expect(mail!.text_body).not.toContain('attached')
  })

  it('is sent once however often the job runs, one after another or in parallel', async () => {
    const { client, email } = await signedInClient(t)
    const id = await paidThroughProvider(client.id, 5_000)
    expect(await sendReceipt(ctx(), id)).toBe('already_sent')
    // the job delivered again (a retry, a lease that ran out) and run by the queue
    await t.db.transaction((tx) => ctx().jobs.enqueue(tx, RECEIPT_JOB, { transaction_id: id }))
    await ctx().jobs.tick()
    expect(await count(t.db, 'mail_outbox WHERE lower(to_address) = lower($1)', [email])).toBe(1)

    // a fresh paid transaction whose receipt five runs race to send
    const other = await paidTopUp(t.db, client.id, 7_000)
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => sendReceipt(ctx(), other.id)))
    expect(outcomes.filter((o) => o === 'sent')).toHaveLength(1)
    expect(outcomes.filter((o) => o === 'already_sent')).toHaveLength(4)
    expect(await count(t.db, 'mail_outbox')).toBe(2)
    expect(await count(t.db, 'transactions WHERE receipt_sent_at IS NOT NULL')).toBe(2)
  })

  it('is not sent for a transaction that is not paid, nor for one that does not exist', async () => {
    const { client } = await signedInClient(t)
    const pending = await pendingTopUp(t.db, client.id, 3_000)
    expect(await sendReceipt(ctx(), pending.id)).toBe('not_paid')
    await settle(ctx(), pending.sessionId, 'declined')
    expect(await sendReceipt(ctx(), pending.id)).toBe('not_paid')
    expect(await sendReceipt(ctx(), 987_654)).toBe('unknown')
    // a job with a payload that names nothing is done, not retried forever
    await t.db.transaction((tx) => ctx().jobs.enqueue(tx, RECEIPT_JOB, { transaction_id: 'nope' }))
    await ctx().jobs.tick()
    expect(await count(t.db, `jobs WHERE name = $1 AND status = 'done'`, [RECEIPT_JOB])).toBe(1)
    expect(await count(t.db, 'mail_outbox')).toBe(0)
  })

  it('shows in the dev mailbox with its attachment named and downloadable', async () => {
    const { client, email } = await signedInClient(t)
    await paidThroughProvider(client.id, 4_200)
    const a = new Agent(t.app)
    const [message] = (await a.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json().messages
    expect(message.attachments).toEqual([{ filename: 'INV-000001.pdf', content_type: 'application/pdf', url: `/dev/mailbox/${message.id}/attachments/0` }])
    const page = await a.get('/dev/mailbox')
    expect(page.body).toContain(`<a href="/dev/mailbox/${message.id}/attachments/0">INV-000001.pdf</a>`)
    const file = await a.get(message.attachments[0].url)
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toBe('application/pdf')
    expect(file.headers['content-disposition']).toBe('attachment; filename="INV-000001.pdf"')
    expect(await pdfText(file.rawPayload)).toMatch(/\$42\.00/)
    for (const bad of [`/dev/mailbox/${message.id}/attachments/1`, '/dev/mailbox/99999/attachments/0', '/dev/mailbox/x/attachments/0']) {
      expect((await a.get(bad)).statusCode).toBe(404)
    }
  })
})

describe('a receipt over SMTP', () => {
  it('carries the invoice as a real MIME attachment', async () => {
    const received: string[] = []
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        let body = ''
        stream.on('data', (c: Buffer) => (body += c.toString()))
        stream.on('end', () => {
          received.push(body)
          callback()
        })
      },
    })
    const port = await new Promise<number>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve((smtp.server.address() as AddressInfo).port)))
    const app = await buildApp({ config: testConfig({ SMTP_URL: `smtp://127.0.0.1:${port}` }), db: t.db, runJobs: false })
    await app.ready()
    try {
      const { client } = await signedInClient(t)
      const { sessionId } = await pendingTopUp(t.db, client.id, 12_345)
      await settle(app.ctx, sessionId, 'paid')
      // one round runs the receipt job, the next delivers the outbox
      await app.ctx.jobs.tick()
      await app.mailer.flush()
      expect(received).toHaveLength(1)
      const body = received[0]!
      expect(body).toMatch(new RegExp(`Content-Type: application/pdf; name=INV-000001\\.pdf`))
      expect(body).toMatch(new RegExp(`Content-Disposition: attachment; filename=INV-000001\\.pdf`))
      const base64 = /Content-Disposition: attachment[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(body)![1]!.replace(/\s/g, '')
      const pdf = Buffer.from(base64, 'base64')
      expect(await pdfText(pdf)).toMatch(/Total \(USD\)\s+\$123\.45/)
      expect(await count(t.db, `mail_outbox WHERE status = 'sent'`)).toBe(1)
    } finally {
      await app.close()
      await new Promise<void>((resolve) => smtp.close(() => resolve()))
    }
  })
})
