import type { Queryable } from '../../db/db.ts'

/** An attachment as the mailbox lists it: its name and type, not its bytes. */
export interface OutboxAttachmentInfo {
  filename: string
  content_type: string
}

export interface OutboxRow {
  id: number
  to_address: string
  subject: string
  text_body: string
  html_body: string
  reply_to: string | null
  attachments: OutboxAttachmentInfo[]
  created_at: Date
}

/** The newest 200 mails of the outbox, to one address or to all. */
export async function listOutbox(db: Queryable, to?: string): Promise<OutboxRow[]> {
  const rows = await db.query<OutboxRow>(
    `SELECT id, to_address, subject, text_body, html_body, reply_to, created_at,
            (SELECT COALESCE(jsonb_agg(jsonb_build_object('filename', a->>'filename', 'content_type', a->>'content_type')), '[]'::jsonb)
               FROM jsonb_array_elements(attachments) a) AS attachments
       FROM mail_outbox
      WHERE ($1::text IS NULL OR lower(to_address) = lower($1)) ORDER BY id DESC LIMIT 200`,
    [to ?? null],
  )
  return rows.map((r) => ({ ...r, id: Number(r.id) }))
}

/** One attachment of a mail, by its position (0-based), with its bytes in base64. */
export async function findOutboxAttachment(
  db: Queryable,
  mailId: number,
  index: number,
): Promise<{ filename: string; content_type: string; content_base64: string } | null> {
  const [row] = await db.query<{ filename: string; content_type: string; content_base64: string }>(
    `SELECT attachments->$2::int->>'filename' AS filename, attachments->$2::int->>'content_type' AS content_type,
            attachments->$2::int->>'content_base64' AS content_base64
       FROM mail_outbox WHERE id = $1 AND jsonb_array_length(attachments) > $2::int`,
    [mailId, index],
  )
  return row ?? null
}
