import type { Queryable } from '../../db/db.ts'

export async function insertFeedback(tx: Queryable, f: { clientId: number; score: number; comment: string; page: string | null }) {
  await tx.query('INSERT INTO feedback (client_id, score, comment, page) VALUES ($1, $2, $3, $4)', [f.clientId, f.score, f.comment, f.page])
}

export interface FeedbackRow {
  id: number
  email: string | null
  score: number
  comment: string
  page: string | null
  created_at: Date
}

/** Feedback since a moment (all when null), oldest first, with the sender's e-mail. */
export async function listFeedback(db: Queryable, since: Date | null): Promise<FeedbackRow[]> {
  return db.query<FeedbackRow>(
    `SELECT f.id, c.email, f.score, f.comment, f.page, f.created_at
       FROM feedback f LEFT JOIN clients c ON c.id = f.client_id
      WHERE $1::timestamptz IS NULL OR f.created_at >= $1
      ORDER BY f.created_at, f.id`,
    [since],
  )
}
