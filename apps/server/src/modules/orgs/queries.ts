import type { Role } from '@portal/domain'
import { columns, type Queryable } from '../../db/db.ts'

/** The SQL of invitations: an organisation's offer to a person, by e-mail, with a role. */

export interface InvitationRow {
  id: number
  org_id: number
  email: string
  role: Role
  expires_at: Date
  accepted_at: Date | null
  revoked_at: Date | null
}
const INVITATION_COLUMNS = columns<InvitationRow>()('id', 'org_id', 'email', 'role', 'expires_at', 'accepted_at', 'revoked_at')

/** A new invitation; an open one to the same address is withdrawn, so one link works at a time. */
export async function insertInvitation(
  tx: Queryable,
  i: { orgId: number; email: string; role: Role; tokenHash: string; invitedBy: number; ttlSeconds: number },
): Promise<void> {
  await tx.query(
    `UPDATE invitations SET revoked_at = now()
      WHERE org_id = $1 AND lower(email) = lower($2) AND accepted_at IS NULL AND revoked_at IS NULL`,
    [i.orgId, i.email],
  )
  await tx.query(
    `INSERT INTO invitations (org_id, email, role, token_hash, invited_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
    [i.orgId, i.email, i.role, i.tokenHash, i.invitedBy, i.ttlSeconds],
  )
}

/** The open invitations of an organisation, newest first. */
export async function listOpenInvitations(db: Queryable, orgId: number): Promise<InvitationRow[]> {
  return db.query<InvitationRow>(
    `SELECT ${INVITATION_COLUMNS()} FROM invitations
      WHERE org_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
      ORDER BY created_at DESC, id DESC`,
    [orgId],
  )
}

/** An invitation that still works, by its token's hash; `lock` for the transaction that spends it. */
export async function findLiveInvitation(db: Queryable, tokenHash: string, lock = false): Promise<InvitationRow | null> {
  const rows = await db.query<InvitationRow>(
    `SELECT ${INVITATION_COLUMNS()} FROM invitations
      WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()${lock ? ' FOR UPDATE' : ''}`,
    [tokenHash],
  )
  return rows[0] ?? null
}

export async function markInvitationAccepted(tx: Queryable, id: number, personId: number) {
  await tx.query('UPDATE invitations SET accepted_at = now(), accepted_by = $2 WHERE id = $1', [id, personId])
}

/** Withdraws an open invitation of the organisation; answers false when there is none by that id. */
export async function revokeInvitation(tx: Queryable, orgId: number, id: number): Promise<boolean> {
  const rows = await tx.query(
    'UPDATE invitations SET revoked_at = now() WHERE id = $1 AND org_id = $2 AND accepted_at IS NULL AND revoked_at IS NULL RETURNING id',
    [id, orgId],
  )
  return rows.length > 0
}
