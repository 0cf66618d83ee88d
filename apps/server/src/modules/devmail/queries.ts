import type { Queryable } from '../../db/db.ts'

export interface OutboxRow {
  id: number
  to_address: string
  subject: string
  text_body: string
  html_body: string
  reply_to: string | null
  created_at: Date
}

/** The newest 200 mails of the outbox, to one address or to all. */
export async function listOutbox(db: Queryable, to?: string): Promise<OutboxRow[]> {
  return db.query<OutboxRow>(
    `SELECT id, to_address, subject, text_body, html_body, reply_to, created_at FROM mail_outbox
      WHERE ($1::text IS NULL OR lower(to_address) = lower($1)) ORDER BY id DESC LIMIT 200`,
    [to ?? null],
  )
}
