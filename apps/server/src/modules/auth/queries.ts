import { SESSION_TTL_SECONDS, isSafeText, type TokenPurpose } from '@portal/domain'
import type { Queryable } from '../../db/db.ts'
import { randomToken, sha256 } from '../../platform/crypto.ts'

export interface TokenRow {
  id: number
  client_id: number
  purpose: TokenPurpose
  new_email: string | null
  expires_at: Date
  used_at: Date | null
}

/**
 * A new password ends every link mailed before it: set-password, registration and e-mail-change
 * links alike (whoever asked for them may have known the old password), and so the pending e-mail
 * change they would have confirmed. The links that undo an e-mail change stay: whoever took the
 * account over by its e-mail would set a new password first.
 */
export async function revokeAllTokens(db: Queryable, clientId: number) {
  await db.query(`UPDATE email_tokens SET used_at = now() WHERE client_id = $1 AND used_at IS NULL AND purpose <> 'email_revert'`, [clientId])
  await db.query(`UPDATE clients SET pending_email = NULL WHERE id = $1`, [clientId])
}

/**
 * An undone e-mail change ends every other link of the account, and the undo links of the changes
 * made after it (mailed to addresses the owner may not hold); those of earlier changes stay.
 */
export async function revokeTokensOnRevert(db: Queryable, clientId: number, revertTokenId: number) {
  await db.query(
    `UPDATE email_tokens SET used_at = now()
      WHERE client_id = $1 AND used_at IS NULL AND (purpose <> 'email_revert' OR id > $2)`,
    [clientId, revertTokenId],
  )
  await db.query(`UPDATE clients SET pending_email = NULL WHERE id = $1`, [clientId])
}

/** The token as stored, whatever its state; the caller decides what an expired or used one means. */
export async function findToken(db: Queryable, clientId: number, token: string, purposes: TokenPurpose[], lock = false) {
  const rows = await db.query<TokenRow & { live: boolean }>(
    `SELECT id, client_id, purpose, new_email, expires_at, used_at,
            (used_at IS NULL AND expires_at > now()) AS live
       FROM email_tokens WHERE token_hash = $1 AND client_id = $2 AND purpose = ANY($3::text[])
       ${lock ? 'FOR UPDATE' : ''}`,
    [sha256(token), clientId, purposes],
  )
  return rows[0] ?? null
}

/** Marks a live token used; answers false when another request used it first. */
export async function consumeToken(db: Queryable, id: number): Promise<boolean> {
  const rows = await db.query(`UPDATE email_tokens SET used_at = now() WHERE id = $1 AND used_at IS NULL AND expires_at > now() RETURNING id`, [id])
  return rows.length > 0
}

export async function endSessions(db: Queryable, clientId: number, exceptHash: string | null) {
  await db.query(`DELETE FROM sessions WHERE client_id = $1 AND id_hash <> $2`, [clientId, exceptHash ?? ''])
}

export async function endSession(db: Queryable, hash: string) {
  await db.query(`DELETE FROM sessions WHERE id_hash = $1`, [hash])
}

const safeUserAgent = (header: string | undefined) => {
  const ua = header?.slice(0, 300)
  return ua && isSafeText(ua) ? ua : null
}

/** Opens a session and answers its id (the cookie value); only its hash is stored. */
/** Opens a session of the person; `orgId`: the organisation it acts in (the person's own account without it). */
export async function insertSession(db: Queryable, clientId: number, userAgent?: string, orgId?: number): Promise<string> {
  const sid = randomToken(32)
  await db.query(
    `INSERT INTO sessions (id_hash, client_id, expires_at, user_agent, org_id)
     VALUES ($1, $2, now() + make_interval(secs => $3), $4, $5)`,
    // a header is the caller's text too (HTTP parsers refuse NUL, but not every path in is an HTTP parser)
    [sha256(sid), clientId, SESSION_TTL_SECONDS, safeUserAgent(userAgent), orgId ?? null],
  )
  return sid
}

/** The organisation a session acts in from now on (the caller has checked the person belongs to it). */
export async function setSessionOrg(db: Queryable, idHash: string, orgId: number) {
  await db.query('UPDATE sessions SET org_id = $2 WHERE id_hash = $1', [idHash, orgId])
}

/** Confirms the account (a followed registration or set-password link proved the mailbox). */
export async function markConfirmed(db: Queryable, clientId: number) {
  await db.query('UPDATE clients SET confirmed_at = COALESCE(confirmed_at, now()) WHERE id = $1', [clientId])
}

/** Gives the client back the address an undo link restores (a confirmed account stays confirmed). */
export async function restoreEmail(db: Queryable, clientId: number, email: string) {
  await db.query(`UPDATE clients SET email = $2, pending_email = NULL, updated_at = now() WHERE id = $1`, [clientId, email])
}

/** Moves the client to the e-mail a followed change link confirmed. */
export async function applyEmailChange(db: Queryable, clientId: number, email: string) {
  await db.query(`UPDATE clients SET email = $2, pending_email = NULL, confirmed_at = COALESCE(confirmed_at, now()), updated_at = now() WHERE id = $1`, [
    clientId,
    email,
  ])
}
