import { describe, expect, it } from 'vitest'
import { Agent, STRONG_PASSWORD, lastMailTo, useTestApp } from '../../test/harness.ts'

const t = useTestApp()

describe('the dev mailbox (not in production; see production.test.ts)', () => {
  it('/dev/mailbox.json lists every mail newest first as {id,to,subject,text,html,attachments,created_at}', async () => {
    const a = new Agent(t.app)
    const empty = await a.get('/dev/mailbox.json')
    expect(empty.statusCode).toBe(200)
    expect(empty.json()).toEqual({ messages: [] })
    await a.post('/api/client/signup/', { username: 'one@example.com', password: STRONG_PASSWORD })
    await a.post('/api/client/signup/', { username: 'two@example.com', password: STRONG_PASSWORD })
    const res = await a.get('/dev/mailbox.json')
    expect(res.statusCode).toBe(200)
    const { messages } = res.json() as {
      messages: { id: number; to: string; subject: string; text: string; html: string; attachments: unknown[]; created_at: string }[]
    }
    expect(messages.map((m) => m.to)).toEqual(['two@example.com', 'one@example.com'])
    expect(messages[0]!.id).toBeGreaterThan(messages[1]!.id)
    for (const m of messages) {
      expect(Object.keys(m).sort()).toEqual(['attachments', 'created_at', 'html', 'id', 'subject', 'text', 'to'])
      // a sign-up mail has none; receipt.test.ts covers a receipt's invoice
      expect(m.attachments).toEqual([])
      expect(m.subject).toBe('Confirm your registration')
      expect(new Date(m.created_at).toISOString()).toBe(m.created_at)
      const mail = await lastMailTo(t.db, m.to)
      expect(m.text).toContain(mail!.link!)
      expect(m.html).toContain(`href="${mail!.link}"`)
    }
    const filtered = (await a.get('/dev/mailbox.json?to=ONE@example.com')).json().messages
    expect(filtered.map((m: { to: string }) => m.to)).toEqual(['one@example.com'])
  })

  it('/dev/mailbox is an HTML page with the mails and their links, newest first', async () => {
    const a = new Agent(t.app)
    expect((await a.get('/dev/mailbox')).body).toContain('No mail yet.')
    await a.post('/api/client/signup/', { username: 'first@example.com', password: STRONG_PASSWORD })
    await a.post('/api/client/send-password-reset-url/', { client_email: 'first@example.com' })
    const page = await a.get('/dev/mailbox')
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toContain('text/html')
    expect(page.body).toContain('href="http://portal.test/app/registration-confirm/')
    expect(page.body).toContain('href="http://portal.test/app/set-password/')
    expect(page.body.indexOf('Set a new password')).toBeLessThan(page.body.indexOf('Confirm your registration'))
  })
})
