import { columns, type Queryable } from '../../db/db.ts'

export interface TokenRow {
  id: number
  client_id: number
  created_by: number | null
  name: string
  scope: 'read' | 'manage'
  token_hint: string
  created_at: Date
  expires_at: Date | null
  last_used_at: Date | null
  revoked_at: Date | null
}
const tokenColumns = columns<TokenRow>()(
  'id',
  'client_id',
  'created_by',
  'name',
  'scope',
  'token_hint',
  'created_at',
  'expires_at',
  'last_used_at',
  'revoked_at',
)

export async function insertToken(
  tx: Queryable,
  t: { clientId: number; createdBy: number; name: string; scope: 'read' | 'manage'; hash: string; hint: string; expiresInDays: number | null },
): Promise<TokenRow> {
  const rows = await tx.query<TokenRow>(
    `INSERT INTO api_tokens (client_id, created_by, name, scope, token_hash, token_hint, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(days => $7::int) END)
     RETURNING ${tokenColumns()}`,
    [t.clientId, t.createdBy, t.name, t.scope, t.hash, t.hint, t.expiresInDays],
  )
  return rows[0]!
}

/** The account's tokens, newest first: revoked ones too, for the record (the list marks them). */
export async function listTokens(db: Queryable, clientId: number): Promise<TokenRow[]> {
  return db.query<TokenRow>(`SELECT ${tokenColumns()} FROM api_tokens WHERE client_id = $1 ORDER BY created_at DESC, id DESC LIMIT 200`, [clientId])
}

/** Revokes the account's token now (a revoked one keeps its first revocation time); null when it is not the account's. */
export async function revokeToken(tx: Queryable, clientId: number, id: number): Promise<TokenRow | null> {
  const rows = await tx.query<TokenRow>(
    `UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 AND client_id = $2 RETURNING ${tokenColumns()}`,
    [id, clientId],
  )
  return rows[0] ?? null
}
