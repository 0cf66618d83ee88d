import { INVITATION_TTL_SECONDS, passwordContainsEmail, type OrgsAnswer, type Role } from '@portal/domain'
import { RATE_LIMITS, type AppContext } from '../../context.ts'
import type { Queryable } from '../../db/db.ts'
import { hashPassword, randomToken, sha256 } from '../../platform/crypto.ts'
import { fail } from '../../platform/errors.ts'
import { sendMailLimited } from '../../platform/limited-mail.ts'
import { linkMail } from '../../platform/mailer.ts'
import { hit } from '../../platform/rate-limit.ts'
import {
  countMembers,
  deleteMembership,
  findClientByEmail,
  findClientById,
  findMembership,
  insertClient,
  insertMembership,
  listMembers,
  listPersonOrgs,
  lockClient,
  setMembershipRole,
  toClientInfo,
  type ClientRow,
} from '../account/service.ts'
import { insertSession, setSessionOrg } from '../auth/service.ts'
import { findLiveInvitation, insertInvitation, listOpenInvitations, markInvitationAccepted, revokeInvitation, type InvitationRow } from './queries.ts'

/** Who is asking: the signed-in person and the organisation the session acts in. */
export interface Caller {
  actorId: number
  orgId: number
}

const orgName = (c: Pick<ClientRow, 'email' | 'company'>) => (c.company as { name?: string }).name?.trim() || c.email

/** The person and the accounts they act in, the current one marked. */
export async function listOrgs(db: Queryable, personId: number, currentOrgId: number): Promise<OrgsAnswer> {
  const [person, rows] = await Promise.all([findClientById(db, personId), listPersonOrgs(db, personId)])
  if (!person) return fail('unauthorized')
  return {
    person: { id: person.id, email: person.email },
    orgs: rows.map((r) => ({ id: r.id, name: r.company_name ?? r.email, role: r.role, corporate: r.corporate, current: r.id === currentOrgId })),
  }
}

/** The session acts in another of the person's accounts from now on; one they are not in is not found. */
export async function switchOrg(ctx: AppContext, actorId: number, sessionHash: string | null, orgId: number): Promise<OrgsAnswer> {
  const orgs = await listPersonOrgs(ctx.db, actorId)
  if (!sessionHash || !orgs.some((o) => o.id === orgId)) return fail('not_found')
  await setSessionOrg(ctx.db, sessionHash, orgId)
  return listOrgs(ctx.db, actorId, orgId)
}

/**
 * Refuses a change that would leave the organisation without an owner: `member` stops being one.
 * The caller holds the organisation's row lock, so two owners cannot both step down at once.
 */
async function keepAnOwner(tx: Queryable, orgId: number, member: { role: Role }) {
  if (member.role !== 'owner') return
  if ((await countMembers(tx, orgId)).owners <= 1) fail('last_owner')
}

/** The person leaves the session's organisation and the session goes back to their own account. */
export async function leaveOrg(ctx: AppContext, caller: Caller, sessionHash: string | null): Promise<OrgsAnswer> {
  if (caller.orgId === caller.actorId) return fail('founder_stays')
  await ctx.db.transaction(async (tx) => {
    await lockClient(tx, caller.orgId)
    const member = (await findMembership(tx, caller.orgId, caller.actorId)) ?? fail('not_found')
    await keepAnOwner(tx, caller.orgId, member)
    await deleteMembership(tx, caller.orgId, caller.actorId)
    if (sessionHash) await setSessionOrg(tx, sessionHash, caller.actorId)
  })
  return listOrgs(ctx.db, caller.actorId, caller.actorId)
}

const toInvitationView = (i: InvitationRow) => ({ id: i.id, email: i.email, role: i.role, expires_at: new Date(i.expires_at).toISOString() })

/** The organisation's members and its open invitations. */
export async function getMembers(db: Queryable, caller: Caller) {
  const [members, invitations] = await Promise.all([listMembers(db, caller.orgId), listOpenInvitations(db, caller.orgId)])
  return {
    members: members.map((m) => ({
      member_id: m.member_id,
      email: m.email,
      name: [m.name, m.last_name].filter(Boolean).join(' '),
      role: m.role,
      founder: m.member_id === caller.orgId,
      you: m.member_id === caller.actorId,
    })),
    invitations: invitations.map(toInvitationView),
  }
}

async function lockCorporate(tx: Queryable, orgId: number): Promise<ClientRow> {
  await lockClient(tx, orgId)
  const org = (await findClientById(tx, orgId)) ?? fail('unauthorized')
  if (!toClientInfo(org).options.corporate_member) fail('not_corporate')
  return org
}

/** Invites a person by e-mail: the mail's link works once, for INVITATION_TTL_SECONDS. */
export async function invite(ctx: AppContext, ip: string, caller: Caller, body: { email: string; role: Role }) {
  await ctx.db.transaction(async (tx) => {
    const org = await lockCorporate(tx, caller.orgId)
    const existing = await findClientByEmail(tx, body.email)
    if (existing && (await findMembership(tx, caller.orgId, existing.id))) fail('already_member', undefined, 'email')
    const token = randomToken(24)
    await insertInvitation(tx, {
      orgId: caller.orgId,
      email: body.email,
      role: body.role,
      tokenHash: sha256(token),
      invitedBy: caller.actorId,
      ttlSeconds: INVITATION_TTL_SECONDS,
    })
    const inviter = (await findClientById(tx, caller.actorId)) ?? org
    await sendMailLimited(
      ctx,
      tx,
      ip,
      linkMail(
        body.email,
        `You are invited to ${orgName(org)} on the 3DiVi portal`,
        `${inviter.email} invites you to join ${orgName(org)} on the 3DiVi portal as ${body.role}.`,
        'Accept the invitation',
        `${ctx.config.PUBLIC_URL}/app/invitation/${token}/`,
        `The link works once, for ${INVITATION_TTL_SECONDS / 86400} days. If you did not expect it, ignore this message.`,
      ),
    )
  })
  return getMembers(ctx.db, caller)
}

export async function withdrawInvitation(ctx: AppContext, caller: Caller, id: number) {
  await ctx.db.transaction(async (tx) => {
    await lockClient(tx, caller.orgId)
    if (!(await revokeInvitation(tx, caller.orgId, id))) fail('not_found')
  })
  return getMembers(ctx.db, caller)
}

export async function changeRole(ctx: AppContext, caller: Caller, memberId: number, role: Role) {
  await ctx.db.transaction(async (tx) => {
    await lockClient(tx, caller.orgId)
    const member = (await findMembership(tx, caller.orgId, memberId)) ?? fail('not_found')
    if (role !== 'owner') await keepAnOwner(tx, caller.orgId, member)
    await setMembershipRole(tx, caller.orgId, memberId, role)
  })
  return getMembers(ctx.db, caller)
}

export async function removeMember(ctx: AppContext, caller: Caller, memberId: number) {
  await ctx.db.transaction(async (tx) => {
    await lockClient(tx, caller.orgId)
    const member = (await findMembership(tx, caller.orgId, memberId)) ?? fail('not_found')
    // the organisation's own sign-in is the account itself: removing it would leave a login into nothing
    if (memberId === caller.orgId) fail('founder_stays')
    await keepAnOwner(tx, caller.orgId, member)
    await deleteMembership(tx, caller.orgId, memberId)
  })
  return getMembers(ctx.db, caller)
}

const liveInvitation = async (db: Queryable, token: string, lock = false) => (await findLiveInvitation(db, sha256(token), lock)) ?? fail('invitation_invalid')

/** What an invitation link offers, before it is accepted. */
export async function showInvitation(ctx: AppContext, token: string) {
  const invitation = await liveInvitation(ctx.db, token)
  const [org, account] = await Promise.all([findClientById(ctx.db, invitation.org_id), findClientByEmail(ctx.db, invitation.email)])
  if (!org) return fail('invitation_invalid')
  return { org_name: orgName(org), email: invitation.email, role: invitation.role, account_exists: account !== null }
}

/** Joins the invitation's organisation as its role, and spends the invitation. */
async function join(tx: Queryable, invitation: InvitationRow, personId: number) {
  await lockCorporate(tx, invitation.org_id)
  if (!(await insertMembership(tx, invitation.org_id, personId, invitation.role))) fail('already_member')
  await markInvitationAccepted(tx, invitation.id, personId)
}

/** A signed-in person with the invited e-mail accepts; the session acts in the organisation from then on. */
export async function acceptInvitation(ctx: AppContext, actorId: number, sessionHash: string | null, token: string): Promise<OrgsAnswer> {
  const invitation = await ctx.db.transaction(async (tx) => {
    const found = await liveInvitation(tx, token, true)
    const person = (await findClientById(tx, actorId)) ?? fail('unauthorized')
    if (person.email.toLowerCase() !== found.email.toLowerCase()) fail('invitation_other_email')
    await join(tx, found, actorId)
    if (sessionHash) await setSessionOrg(tx, sessionHash, found.org_id)
    return found
  })
  return listOrgs(ctx.db, actorId, invitation.org_id)
}

/**
 * A person without an account registers through the link: the account takes the invited e-mail,
 * confirmed (the link proved the mailbox), joins the organisation and is signed in acting in it.
 */
export async function registerThroughInvitation(ctx: AppContext, ip: string, userAgent: string | undefined, token: string, password: string) {
  await hit(ctx.db, [{ key: `signup:ip:${ip}`, ...RATE_LIMITS.signupPerIp }])
  const preview = await liveInvitation(ctx.db, token)
  if (passwordContainsEmail(password, preview.email)) fail('password_invalid', 'password_contains_email_error', 'password')
  const passwordHash = await hashPassword(password, ctx.config.PASSWORD_HASH_COST)
  return ctx.db.transaction(async (tx) => {
    const invitation = await liveInvitation(tx, token, true)
    const person =
      (await insertClient(tx, {
        email: invitation.email,
        password_hash: passwordHash,
        is_corporate: false,
        segment: null,
        token: randomToken(16),
        confirmed: true,
      })) ?? fail('email_in_use')
    await join(tx, invitation, person.id)
    const sessionId = await insertSession(tx, person.id, userAgent, invitation.org_id)
    return { sessionId, orgs: await listOrgs(tx, person.id, invitation.org_id) }
  })
}
