import { TOKEN_HINT_LENGTH, TOKEN_PREFIX, tokenState, type TokenCreateBody, type TokenView } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { randomToken, sha256 } from '../../platform/crypto.ts'
import { fail } from '../../platform/errors.ts'
import { parseId } from '../../platform/ids.ts'
import { insertToken, listTokens, revokeToken, type TokenRow } from './queries.ts'

/**
 * The account's API tokens. A token is `lp_` and 256 random bits (base64url); only its SHA-256 is
 * stored, so the plain token exists once, in the creation's answer. The bearer check itself is the
 * session plugin's (platform/session.ts), so every route is guarded in the one place.
 */
export function toTokenView(row: TokenRow, now = new Date()): TokenView {
  return {
    id: Number(row.id),
    name: row.name,
    scope: row.scope,
    hint: row.token_hint,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    state: tokenState(row, now),
  }
}

export async function listAccountTokens(ctx: Pick<AppContext, 'db'>, clientId: number) {
  return { tokens: (await listTokens(ctx.db, clientId)).map((r) => toTokenView(r)) }
}

/** A new token of the account, made by `createdBy` (the signed-in person); answers the token once. */
export async function createToken(ctx: Pick<AppContext, 'db'>, clientId: number, createdBy: number, body: TokenCreateBody) {
  const secret = `${TOKEN_PREFIX}${randomToken(32)}`
  const row = await insertToken(ctx.db, {
    clientId,
    createdBy,
    name: body.name.trim(),
    scope: body.scope,
    hash: sha256(secret),
    hint: secret.slice(0, TOKEN_HINT_LENGTH),
    expiresInDays: body.expires_in_days,
  })
  return { token: toTokenView(row), secret }
}

/** Revoked at once: the next call with it answers 401 (the bearer check reads the row every call). */
export async function revokeAccountToken(ctx: Pick<AppContext, 'db'>, clientId: number, rawId: string) {
  const row = (await revokeToken(ctx.db, clientId, parseId(rawId))) ?? fail('not_found', 'Token not found')
  return { status: 'ok' as const, token: toTokenView(row) }
}
