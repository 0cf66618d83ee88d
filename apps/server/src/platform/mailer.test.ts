import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { SMTPServer } from 'smtp-server'
import type { AddressInfo } from 'node:net'
import { buildApp } from '../app.ts'
import { Agent, STRONG_PASSWORD, signedInClient, testConfig, useTestApp } from '../test/harness.ts'

interface Received {
  to: string
  body: string
}

/** A real SMTP server in the test; `refuse` makes it answer 451 to the message. */
function startSmtp(port = 0) {
  const state = { received: [] as Received[], refuse: false }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let body = ''
      stream.on('data', (c: Buffer) => (body += c.toString()))
      stream.on('end', () => {
        if (state.refuse) return callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 451 }))
        state.received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), body })
        callback()
      })
    },
  })
  const listening = new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port)))
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return { state, listening, close }
}

const smtp = startSmtp()
let smtpPort = 0
beforeAll(async () => {
  smtpPort = await smtp.listening
})
afterAll(smtp.close)
beforeEach(() => {
  smtp.state.received.length = 0
  smtp.state.refuse = false
})

// the shared app keeps mail in the outbox (dev mode, no poller); each test builds the app that
// talks SMTP, so no other process's poller takes the mail. Every app polls the outbox every few
// seconds, so what a flush returns may be 0 when a poll got there first: tests check the state.
const t = useTestApp()

async function withSmtpApp(port: number, fn: (app: FastifyInstance) => Promise<void>) {
  const app = await buildApp({ config: testConfig({ SMTP_URL: `smtp://127.0.0.1:${port}` }), db: t.db })
  await app.ready()
  try {
    expect(app.mailer.mode).toBe('smtp')
    await fn(app)
  } finally {
    await app.close()
  }
}

const outbox = () =>
  t.db.query<{ to_address: string; status: string; attempts: number; last_error: string | null; sent_at: Date | null }>(
    'SELECT to_address, status, attempts, last_error, sent_at FROM mail_outbox ORDER BY id',
  )

/** The set-password or confirmation link of a mail as the SMTP server got it (quoted-printable undone). */
function linkIn(body: string) {
  const text = body.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
  const m = /\/app\/registration-confirm\/(\d+)\/([\w-]+)\//.exec(text)
  return m ? { clientId: Number(m[1]), token: m[2]! } : null
}

describe('mail over SMTP through the outbox', () => {
  it('delivers a sign-up confirmation to the SMTP server, marks the row sent, and its link confirms', async () => {
    await withSmtpApp(smtpPort, async (app) => {
      const a = new Agent(app)
      expect((await a.post('/api/client/signup/', { username: 'smtp@example.com', password: STRONG_PASSWORD })).statusCode).toBe(201)
      await app.mailer.flush()
      expect(smtp.state.received).toHaveLength(1)
      const got = smtp.state.received[0]!
      expect(got.to).toBe('smtp@example.com')
      expect(got.body).toContain('Subject: Confirm your registration')
      expect(await outbox()).toEqual([{ to_address: 'smtp@example.com', status: 'sent', attempts: 1, last_error: null, sent_at: expect.any(Date) }])
      const link = linkIn(got.body)
      expect(link).not.toBeNull()
      expect((await a.post('/api/client/confirm/', { client_id: link!.clientId, confirmation_token: link!.token })).json()).toMatchObject({
        status: 'ok',
        kind: 'registration',
      })
      // a sent mail is not sent again
      await t.db.query('UPDATE mail_outbox SET next_attempt_at = now()')
      await app.mailer.flush()
      expect(smtp.state.received).toHaveLength(1)
    })
  })

  it('a contact-sales message reaches the sales address over SMTP with Reply-To the sender', async () => {
    await withSmtpApp(smtpPort, async (app) => {
      const { agent } = await signedInClient({ app, db: t.db })
      const res = await agent.post('/api/support/contacts-sales/', {
        recipient: 'sales',
        name: 'Ann Lee',
        email: 'ann@customer.test',
        message: 'We would like a quote for 40 licenses.',
      })
      expect(res.statusCode, res.body).toBe(200)
      await app.mailer.flush()
      expect(smtp.state.received.map((r) => r.to)).toEqual(['sales@portal.local'])
      expect(smtp.state.received[0]!.body).toMatch(/^Reply-To: ann@customer\.test\r?$/m)
      expect(smtp.state.received[0]!.body).toContain('Subject: Contact sales: Ann Lee')
    })
  })

  it('a refused mail stays pending with the attempt counted, and a later flush delivers it', async () => {
    smtp.state.refuse = true
    await withSmtpApp(smtpPort, async (app) => {
      await new Agent(app).post('/api/client/signup/', { username: 'retry@example.com', password: STRONG_PASSWORD })
      await app.mailer.flush()
      const [failed] = await outbox()
      expect(failed).toMatchObject({ status: 'pending', attempts: 1, sent_at: null })
      expect(failed!.last_error).toContain('mailbox unavailable')
      // backing off: not retried at once
      await app.mailer.flush()
      expect(await outbox()).toMatchObject([{ status: 'pending', attempts: 1 }])
      smtp.state.refuse = false
      await t.db.query('UPDATE mail_outbox SET next_attempt_at = now()')
      await app.mailer.flush()
      expect(smtp.state.received.map((r) => r.to)).toEqual(['retry@example.com'])
      expect(await outbox()).toEqual([{ to_address: 'retry@example.com', status: 'sent', attempts: 2, last_error: null, sent_at: expect.any(Date) }])
    })
  })

  it('with the SMTP server down the mail waits in the outbox, and goes out once the server is back', async () => {
    const down = startSmtp()
    const port = await down.listening
    await down.close()
    await withSmtpApp(port, async (app) => {
      await new Agent(app).post('/api/client/signup/', { username: 'down@example.com', password: STRONG_PASSWORD })
      await app.mailer.flush()
      const [waiting] = await outbox()
      expect(waiting).toMatchObject({ to_address: 'down@example.com', status: 'pending', attempts: 1, sent_at: null })
      expect(waiting!.last_error).toBeTruthy()
      const back = startSmtp(port)
      await back.listening
      try {
        await t.db.query('UPDATE mail_outbox SET next_attempt_at = now()')
        await app.mailer.flush()
        expect(back.state.received.map((r) => r.to)).toEqual(['down@example.com'])
        expect(await outbox()).toMatchObject([{ status: 'sent', attempts: 2, last_error: null }])
      } finally {
        await back.close()
      }
    })
  })

  it('the job queue delivers the mail by itself, without anyone calling flush', async () => {
    await withSmtpApp(smtpPort, async (app) => {
      await new Agent(app).post('/api/client/signup/', { username: 'queued@example.com', password: STRONG_PASSWORD })
      await vi.waitFor(() => expect(smtp.state.received.map((r) => r.to)).toEqual(['queued@example.com']), { timeout: 5000, interval: 50 })
      await vi.waitFor(async () => expect(await outbox()).toMatchObject([{ status: 'sent', attempts: 1 }]))
      // the job that carried it is done, and no other waits for it
      await vi.waitFor(
        async () =>
          expect(await t.db.query(`SELECT status FROM jobs WHERE name = 'mail.deliver' AND singleton_key = 'mail.deliver'`)).toEqual([{ status: 'done' }]),
        {
          timeout: 5000,
          interval: 50,
        },
      )
    })
  })

  it('without SMTP_URL mail is kept as a dev mail and never sent', async () => {
    expect(t.app.mailer.mode).toBe('dev')
    await new Agent(t.app).post('/api/client/signup/', { username: 'dev@example.com', password: STRONG_PASSWORD })
    expect(await t.app.mailer.flush()).toBe(0)
    expect(await outbox()).toMatchObject([{ to_address: 'dev@example.com', status: 'dev', attempts: 0 }])
  })
})
