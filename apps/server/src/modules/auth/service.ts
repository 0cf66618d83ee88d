import { passwordContainsEmail, type Platform } from '@portal/domain'
import { RATE_LIMITS, type AppContext } from '../../context.ts'
import type { Queryable } from '../../db/db.ts'
import { hashPassword, randomToken, verifyPassword } from '../../platform/crypto.ts'
import { AppError, fail } from '../../platform/errors.ts'
import { sendMailLimited } from '../../platform/limited-mail.ts'
import { linkMail } from '../../platform/mailer.ts'
import { forgive, hit } from '../../platform/rate-limit.ts'
import { emailTaken, findClientByEmail, findClientById, getProfile, insertClient, issueToken, setPassword, type ClientRow } from '../account/service.ts'
import {
  applyEmailChange,
  consumeToken,
  endSession,
  endSessions,
  findToken,
  insertSession,
  markConfirmed,
  restoreEmail,
  revokeAllTokens,
  revokeTokensOnRevert,
} from './queries.ts'

export { insertSession, setSessionOrg } from './queries.ts'

const withPlatform = (url: string, segment: string | null | undefined) => (segment ? `${url}?platform=${segment}` : url)

async function sendConfirmationMail(ctx: AppContext, tx: Queryable, ip: string, client: Pick<ClientRow, 'id' | 'email' | 'segment'>) {
  const token = await issueToken(tx, client.id, 'confirm')
  const url = withPlatform(`${ctx.config.PUBLIC_URL}/app/registration-confirm/${client.id}/${token}/`, client.segment)
  await sendMailLimited(
    ctx,
    tx,
    ip,
    linkMail(
      client.email,
      'Confirm your registration',
      'Thank you for registering at the 3DiVi portal.',
      'Confirm your e-mail',
      url,
      'The link works for 3 days. If you did not register, ignore this message.',
    ),
  )
}

export async function signup(
  ctx: AppContext,
  ip: string,
  body: { username: string; email?: string; password: string; is_corporate: boolean; segment?: Platform },
) {
  await hit(ctx.db, [{ key: `signup:ip:${ip}`, ...RATE_LIMITS.signupPerIp }])
  const email = body.username
  if (passwordContainsEmail(body.password, email)) fail('password_invalid', 'password_contains_email_error', 'password')
  const passwordHash = await hashPassword(body.password, ctx.config.PASSWORD_HASH_COST)
  return ctx.db.transaction(async (tx) => {
    const client = await insertClient(tx, {
      email,
      password_hash: passwordHash,
      is_corporate: body.is_corporate,
      segment: body.segment ?? null,
      token: randomToken(16),
    })
    if (!client) return fail('email_in_use', undefined, 'username')
    await sendConfirmationMail(ctx, tx, ip, client)
    return { client_id: client.id, email: client.email }
  })
}

export async function sendConfirmation(ctx: AppContext, ip: string, email: string, segment?: Platform) {
  await ctx.db.transaction(async (tx) => {
    const client = await findClientByEmail(tx, email)
    if (!client) return fail('client_not_found_by_email', undefined, 'client_email')
    if (client.confirmed_at) return fail('already_confirmed', undefined, 'client_email')
    await sendConfirmationMail(ctx, tx, ip, { ...client, segment: segment ?? client.segment })
  })
  return { status: 'ok' as const }
}

/**
 * Tells the address an account leaves that it changed, with a link that undoes the change for 7
 * days. Sent whatever the mail limits: it is one mail per confirmed change, and the one the owner
 * needs when someone else took the account over.
 */
async function sendEmailChangedNotice(ctx: AppContext, tx: Queryable, client: Pick<ClientRow, 'id' | 'email'>, newEmail: string) {
  const token = await issueToken(tx, client.id, 'email_revert', client.email)
  await ctx.mailer.enqueue(
    tx,
    linkMail(
      client.email,
      'The e-mail of your account was changed',
      `The e-mail of your 3DiVi portal account was changed from ${client.email} to ${newEmail}.`,
      'Undo the change',
      `${ctx.config.PUBLIC_URL}/app/email-revert/${client.id}/${token}/`,
      'If you made this change, ignore this message. If you did not, follow the link within 7 days: it gives the account this address back and signs everyone out of it.',
    ),
  )
}

/**
 * Undoes a confirmed e-mail change with the link mailed to the old address: the account takes that
 * address back, every session ends (whoever changed it is signed out) and every other link stops
 * working but the undo links of earlier changes.
 */
export async function revertEmail(ctx: AppContext, clientId: number, token: string) {
  return ctx.db.transaction(async (tx) => {
    const client = await findClientById(tx, clientId, true)
    if (!client) return fail('client_not_found')
    const row = await findToken(tx, clientId, token, ['email_revert'], true)
    if (!row || !row.live || !(await consumeToken(tx, row.id))) return fail('token_invalid')
    const email = row.new_email!
    if (await emailTaken(tx, email, clientId)) return fail('email_in_use')
    await restoreEmail(tx, clientId, email)
    await revokeTokensOnRevert(tx, clientId, row.id)
    await endSessions(tx, clientId, null)
    return { status: 'ok' as const, email }
  })
}

/** Confirms a registration or an e-mail change, whichever the token was issued for. */
export async function confirm(ctx: AppContext, clientId: number, token: string) {
  return ctx.db.transaction(async (tx) => {
    const client = await findClientById(tx, clientId, true)
    if (!client) return fail('client_not_found')
    const row = await findToken(tx, clientId, token, ['confirm', 'email_change'], true)
    if (!row || !row.live || !(await consumeToken(tx, row.id))) return fail('token_invalid')
    if (row.purpose === 'email_change') {
      const newEmail = row.new_email!
      if (await emailTaken(tx, newEmail, clientId)) return fail('email_in_use')
      await applyEmailChange(tx, clientId, newEmail)
      await sendEmailChangedNotice(ctx, tx, client, newEmail)
      return { status: 'ok' as const, kind: 'email_change' as const, email: newEmail }
    }
    await markConfirmed(tx, clientId)
    return { status: 'ok' as const, kind: 'registration' as const, email: client.email }
  })
}

/**
 * The one password check of every call that takes an e-mail and a password, under the sign-in
 * limits: every try counts against the address's ceiling; a failed one (unknown e-mail, wrong
 * password) also against the e-mail from this address, the e-mail alone and the address alone. The
 * failure counts are reserved before the check, so parallel guesses cannot pass them, and given
 * back when the password was right.
 */
export async function checkCredentials(ctx: AppContext, ip: string, email: string, password: string) {
  const normalized = email.trim().toLowerCase()
  const failureKeys = [`signin:fail:email-ip:${normalized}|${ip}`, `signin:fail:email:${normalized}`, `signin:fail:ip:${ip}`]
  await hit(ctx.db, [
    { key: `signin:ip:${ip}`, ...RATE_LIMITS.signinPerIp },
    { key: failureKeys[0]!, ...RATE_LIMITS.signinFailuresPerEmailAndIp },
    { key: failureKeys[1]!, ...RATE_LIMITS.signinFailuresPerEmail },
    { key: failureKeys[2]!, ...RATE_LIMITS.signinFailuresPerIp },
  ])
  const client = await findClientByEmail(ctx.db, email)
  const passwordOk = client !== null && (await verifyPassword(client.password_hash, password))
  if (passwordOk) await forgive(ctx.db, failureKeys)
  return { client, passwordOk }
}

/** Answers the new session's id (the caller sets it as a cookie) and the profile. */
export async function signin(ctx: AppContext, ip: string, userAgent: string | undefined, username: string, password: string) {
  const { client, passwordOk } = await checkCredentials(ctx, ip, username, password)
  if (!client) return fail('client_not_found_by_email', undefined, 'username')
  if (!passwordOk) return fail('wrong_password', undefined, 'password')
  if (!client.confirmed_at) return fail('email_not_confirmed', undefined, 'username')
  const sessionId = await insertSession(ctx.db, client.id, userAgent)
  return { sessionId, profile: await getProfile(ctx, client.id) }
}

export async function logout(ctx: AppContext, sessionHash: string | null) {
  if (sessionHash) await endSession(ctx.db, sessionHash)
  return { status: 'ok' as const }
}

export async function sendPasswordReset(ctx: AppContext, ip: string, by: { client_email?: string; client_id?: number }, segment?: Platform) {
  await ctx.db.transaction(async (tx) => {
    const client = by.client_id !== undefined ? await findClientById(tx, by.client_id) : await findClientByEmail(tx, by.client_email!)
    if (!client) return fail('client_not_found_by_email', undefined, 'client_email')
    const token = await issueToken(tx, client.id, 'reset')
    const url = withPlatform(`${ctx.config.PUBLIC_URL}/app/set-password/${client.id}/${token}/`, segment ?? client.segment)
    await sendMailLimited(
      ctx,
      tx,
      ip,
      linkMail(
        client.email,
        'Set a new password',
        'Someone asked to reset the password of your 3DiVi portal account.',
        'Set a new password',
        url,
        'The link works for 24 hours and only once. If it was not you, ignore this message.',
      ),
    )
  })
  return { status: 'ok' as const }
}

const TOKEN_PATH_RE = /^[A-Za-z0-9_-]{16,128}$/

/** Set-password link check: 400 invalid path, 404 no client, 403 invalid or outdated token. */
export async function validateResetToken(ctx: AppContext, rawId: string, token: string) {
  if (!/^\d{1,18}$/.test(rawId) || !TOKEN_PATH_RE.test(token)) fail('token_invalid_path')
  const client = await findClientById(ctx.db, Number(rawId))
  if (!client) return fail('client_not_found')
  const row = await findToken(ctx.db, client.id, token, ['reset'])
  if (!row || !row.live) return fail('token_invalid')
  return { status: 'ok' as const, email: client.email }
}

async function checkNewPassword(client: ClientRow, newPassword: string, field: string) {
  if (passwordContainsEmail(newPassword, client.email)) fail('password_contains_email', 'password_contains_email_error', field)
  if (await verifyPassword(client.password_hash, newPassword)) fail('new_password_same_as_old', 'password_same_as_old_error', field)
}

/** Ends every session of the client and answers a new one (the caller sets it as a cookie) and the profile. */
export async function resetPassword(ctx: AppContext, userAgent: string | undefined, clientId: number, token: string, newPassword: string) {
  const client = await findClientById(ctx.db, clientId)
  if (!client) return fail('client_not_found')
  const row = await findToken(ctx.db, clientId, token, ['reset'])
  if (!row || !row.live) return fail('token_invalid')
  await checkNewPassword(client, newPassword, 'new_password')
  const passwordHash = await hashPassword(newPassword, ctx.config.PASSWORD_HASH_COST)
  const sessionId = await ctx.db.transaction(async (tx) => {
    if (!(await consumeToken(tx, row.id))) throw new AppError('token_invalid')
    await setPassword(tx, clientId, passwordHash)
    await revokeAllTokens(tx, clientId)
    // the link proved the mailbox, so it also confirms the account
    await markConfirmed(tx, clientId)
    await endSessions(tx, clientId, null)
    return insertSession(tx, clientId, userAgent)
  })
  return { sessionId, profile: await getProfile(ctx, clientId) }
}

export async function changePassword(ctx: AppContext, clientId: number, sessionHash: string | null, oldPassword: string, newPassword: string) {
  const client = await findClientById(ctx.db, clientId)
  if (!client) return fail('unauthorized')
  if (!(await verifyPassword(client.password_hash, oldPassword))) fail('wrong_password', undefined, 'old_password')
  await checkNewPassword(client, newPassword, 'new_password')
  const passwordHash = await hashPassword(newPassword, ctx.config.PASSWORD_HASH_COST)
  await ctx.db.transaction(async (tx) => {
    await setPassword(tx, clientId, passwordHash)
    await revokeAllTokens(tx, clientId)
    await endSessions(tx, clientId, sessionHash)
  })
  return { status: 'ok' as const }
}
