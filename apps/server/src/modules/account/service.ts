import { PLATFORMS, TRIALS, type Role, type Prices, type ProfileResponse, type UpdateClientBody } from '@portal/domain'
import type { z } from 'zod'
import type { updateClientBody } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import type { Queryable } from '../../db/db.ts'
import { fail } from '../../platform/errors.ts'
import { sendMailLimited } from '../../platform/limited-mail.ts'
import { linkMail } from '../../platform/mailer.ts'
import { listPrices } from '../catalogue/service.ts'
import {
  countMembers,
  dropFounderMembership,
  emailTaken,
  findClientById,
  findMembership,
  insertMembership,
  issueToken,
  lockClientRow,
  setPendingEmail,
  toClientInfo,
  trialsTaken,
  updateClientProfile,
  type ClientRow,
} from './queries.ts'

/** The products whose free trial the client has taken (the profile's trials_used; createTrial refuses these). */
export async function trialsUsed(db: Queryable, clientId: number): Promise<string[]> {
  const trials = Object.values(TRIALS)
  const had = await trialsTaken(
    db,
    clientId,
    trials.map((t) => t.product),
  )
  return trials.filter((t) => had.some((h) => h.product === t.product && h.tag === t.tag)).map((t) => t.product)
}

/** Every change to a client's balance, licenses and groups takes the client row first: one order, no deadlocks. */
export async function lockClient(tx: Queryable, clientId: number) {
  await lockClientRow(tx, clientId)
}

export {
  countMembers,
  deleteMembership,
  findMembership,
  insertMembership,
  listMembers,
  listPersonOrgs,
  setMembershipRole,
  type MemberRow,
  type PersonOrgRow,
  emailTaken,
  findClientByEmail,
  findClientById,
  insertClient,
  issueToken,
  setPassword,
  toClientInfo,
  updateClientProfile,
  type ClientRow,
} from './queries.ts'

/**
 * The account's profile as the signed-in person sees it: `as` is the session's person and role
 * (a member acting in an organisation); without it, the account's own sign-in (just signed in).
 */
export async function getProfile(ctx: AppContext, clientId: number, as?: { actor_id: number; role: Role }): Promise<ProfileResponse> {
  const [client, prices, trials, person, own] = await Promise.all([
    findClientById(ctx.db, clientId),
    listPrices(ctx.db),
    trialsUsed(ctx.db, clientId),
    as && as.actor_id !== clientId ? findClientById(ctx.db, as.actor_id) : null,
    as ? null : findMembership(ctx.db, clientId, clientId),
  ])
  if (!client) return fail('unauthorized')
  const byPlatform = Object.fromEntries(
    PLATFORMS.map((p) => [p, prices.filter((x) => x.platform === p).map(({ platform: _platform, ...entry }) => entry)]),
  ) as unknown as Prices
  return {
    client_info: toClientInfo(client),
    prices: byPlatform,
    // the browser's keys of the real providers ('' where one is not configured)
    payment_provider_key: ctx.config.STRIPE_PUBLISHABLE_KEY ?? '',
    paypal_merchant_id: ctx.config.PAYPAL_MERCHANT_ID ?? '',
    paypal_client_id: ctx.config.PAYPAL_CLIENT_ID ?? '',
    trials_used: trials,
    role: as?.role ?? own?.role ?? 'owner',
    acting_person: person?.email ?? null,
  }
}

type UpdateBody = z.output<typeof updateClientBody>

/**
 * Profile, company and options change at once; a new e-mail only becomes pending and takes effect
 * when the link sent to it is followed.
 */
export async function updateClient(ctx: AppContext, ip: string, clientId: number, body: UpdateBody) {
  return ctx.db.transaction(async (tx) => {
    const current = await findClientById(tx, clientId, true)
    if (!current) return fail('unauthorized')
    await switchAccountType(tx, current, body.options?.corporate_member)
    let row = await updateClientProfile(tx, clientId, body)
    let emailConfirmationSent = false
    if (body.email !== undefined && body.email.toLowerCase() !== current.email.toLowerCase()) {
      if (await emailTaken(tx, body.email, clientId)) return fail('email_in_use', undefined, 'email')
      const token = await issueToken(tx, clientId, 'email_change', body.email)
      await setPendingEmail(tx, clientId, body.email)
      const url = `${ctx.config.PUBLIC_URL}/app/registration-confirm/${clientId}/${token}/`
      await sendMailLimited(
        ctx,
        tx,
        ip,
        linkMail(
          body.email,
          'Confirm your new e-mail',
          `You asked to change the e-mail of your 3DiVi portal account from ${current.email} to ${body.email}.`,
          'Confirm the new e-mail',
          url,
          'The change takes effect once you follow the link. It works for 24 hours.',
        ),
      )
      row = { ...row, pending_email: body.email }
      emailConfirmationSent = true
    }
    return { client_info: toClientInfo(row), email_confirmation_sent: emailConfirmationSent }
  })
}

/**
 * A personal account switching to corporate becomes an organisation whose own sign-in is its first
 * owner; it switches back only while that sign-in is its one member.
 */
async function switchAccountType(tx: Queryable, current: ClientRow, corporate: boolean | undefined) {
  if (corporate === undefined || corporate === toClientInfo(current).options.corporate_member) return
  if (corporate) {
    await insertMembership(tx, current.id, current.id, 'owner')
    return
  }
  if ((await countMembers(tx, current.id)).members > 1) fail('org_has_members')
  await dropFounderMembership(tx, current.id)
}

export type { UpdateClientBody }
