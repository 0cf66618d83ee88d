import nodemailer, { type Transporter } from 'nodemailer'
import type { Logger } from '../context.ts'
import type { Db, Queryable } from '../db/db.ts'
import type { JobQueue } from './jobs.ts'
import { claimMail, insertMail, markMailFailed, markMailSent, type StoredAttachment } from './queries.ts'

/** A file sent with a mail (a receipt's invoice PDF). */
export interface MailAttachment {
  filename: string
  contentType: string
  content: Buffer
}

export interface Mail {
  to: string
  subject: string
  text: string
  html: string
  /** where a reply goes, when not to MAIL_FROM (a contact-sales message answers to its sender) */
  replyTo?: string
  attachments?: MailAttachment[]
}

/** attachments as the outbox row keeps them: the bytes in base64 inside the row's jsonb */
const storedAttachments = (list: MailAttachment[] = []): StoredAttachment[] =>
  list.map((a) => ({ filename: a.filename, content_type: a.contentType, content_base64: a.content.toString('base64') }))

/**
 * Mail goes through an outbox table: the row is written in the caller's transaction together with a
 * `mail.deliver` job, and the job queue delivers it over SMTP (also every few seconds on a schedule),
 * retrying each mail with back-off until it goes through. Without SMTP_URL the row is kept as a dev
 * mail, readable at /dev/mailbox. Attachments travel in the row (base64 in jsonb), so a retry sends
 * the same files.
 */
export interface Mailer {
  enqueue(tx: Queryable, mail: Mail): Promise<void>
  /** deliver what is due now; answers how many went out */
  flush(): Promise<number>
  stop(): Promise<void>
  readonly mode: 'smtp' | 'dev'
}

export const MAIL_JOB = 'mail.deliver'
const BATCH = 20

const MAX_BACKOFF_SECONDS = 3600

export function createMailer(opts: { db: Db; jobs: JobQueue; smtpUrl?: string; from: string; log: Logger; pollSeconds?: number }): Mailer {
  const transport: Transporter | null = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null
  let running: Promise<number> | null = null

  async function deliverBatch(): Promise<number> {
    if (!transport) return 0
    const due = await claimMail(opts.db, BATCH)
    let sent = 0
    for (const m of due) {
      try {
        await transport.sendMail({
          from: opts.from,
          to: m.to_address,
          ...(m.reply_to ? { replyTo: m.reply_to } : {}),
          subject: m.subject,
          text: m.text_body,
          html: m.html_body,
          attachments: (m.attachments ?? []).map((a) => ({ filename: a.filename, contentType: a.content_type, content: a.content_base64, encoding: 'base64' })),
        })
        await markMailSent(opts.db, m.id)
        sent++
      } catch (err) {
        const backoff = Math.min(MAX_BACKOFF_SECONDS, 5 * 2 ** Math.min(m.attempts, 12))
        opts.log.warn({ err, mailId: m.id, attempts: m.attempts }, 'mail delivery failed, will retry')
        await markMailFailed(opts.db, m.id, String((err as Error).message).slice(0, 500), backoff)
      }
    }
    return sent
  }

  async function flush(): Promise<number> {
    // one delivery loop at a time in this process; other processes are kept apart by SKIP LOCKED
    while (running) await running.catch(() => 0)
    running = deliverBatch()
    try {
      return await running
    } finally {
      running = null
    }
  }

  if (transport) {
    // a full batch means more may wait: keep going within the one run
    opts.jobs.register(MAIL_JOB, async () => {
      for (let i = 0; i < 50 && (await flush()) === BATCH; i++);
    })
    opts.jobs.schedule(MAIL_JOB, opts.pollSeconds ?? 5)
  }

  return {
    mode: transport ? 'smtp' : 'dev',
    async enqueue(tx, mail) {
      await insertMail(tx, { ...mail, attachments: storedAttachments(mail.attachments) }, transport ? 'pending' : 'dev')
      // committed with the mail, so the next queue round delivers it
      if (transport) await opts.jobs.enqueue(tx, MAIL_JOB, {}, { singletonKey: MAIL_JOB })
    },
    flush,
    async stop() {
      await running?.catch(() => 0)
      transport?.close()
    },
  }
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** A plain mail with one call-to-action link, in text and HTML. */
export function linkMail(to: string, subject: string, intro: string, action: string, url: string, outro: string): Mail {
  return {
    to,
    subject,
    text: `${intro}\n\n${action}: ${url}\n\n${outro}\n`,
    html: `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(action)}</a></p><p>${escapeHtml(outro)}</p>`,
  }
}
