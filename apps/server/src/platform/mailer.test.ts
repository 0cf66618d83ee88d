import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SMTPServer } from 'smtp-server'
import type { AddressInfo } from 'node:net'
import { Agent, STRONG_PASSWORD, useTestApp } from '../test/harness.ts'

/** A real SMTP server in the test; it can be told to refuse mail. */
const received: { to: string; body: string }[] = []
let refuse = false
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    let body = ''
    stream.on('data', (c: Buffer) => (body += c.toString()))
    stream.on('end', () => {
      if (refuse) return callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 451 }))
      received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), body })
      callback()
    })
  },
})

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
})
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
})

const port = () => (smtp.server.address() as AddressInfo).port
const t = useTestApp({ get SMTP_URL() { return `smtp://127.0.0.1:${port()}` } } as unknown as Record<string, string>)

const outbox = () => t.db.query<{ status: string; attempts: number; last_error: string | null }>('SELECT status, attempts, last_error FROM mail_outbox ORDER BY id')

describe('mail over SMTP through the outbox', () => {
  it('delivers a confirmation mail to the SMTP server and marks the row sent', async () => {
    received.length = 0
    refuse = false
    await new Agent(t.app).post('/api/client/signup/', { username: 'smtp@example.com', password: STRONG_PASSWORD })
    await t.app.mailer.flush()
    expect(received).toHaveLength(1)
    expect(received[0]!.to).toBe('smtp@example.com')
    expect(received[0]!.body).toContain('Subject: Confirm your registration')
    expect(received[0]!.body).toContain('/app/registration-confirm/')
    expect(await outbox()).toEqual([{ status: 'sent', attempts: 1, last_error: null }])
  })

  it('keeps a refused mail pending, and delivers it on a later try: nothing is lost', async () => {
    received.length = 0
    refuse = true
    await new Agent(t.app).post('/api/client/signup/', { username: 'retry@example.com', password: STRONG_PASSWORD })
    await t.app.mailer.flush()
    const [failed] = await outbox()
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 })
    expect(failed!.last_error).toContain('mailbox unavailable')
    refuse = false
    await t.db.query('UPDATE mail_outbox SET next_attempt_at = now()')
    await t.app.mailer.flush()
    expect(received.map((r) => r.to)).toEqual(['retry@example.com'])
    expect(await outbox()).toEqual([{ status: 'sent', attempts: 2, last_error: null }])
  })
})
