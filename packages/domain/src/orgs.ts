import { z } from './zod.ts'
import { emailField, idNumber, passwordField, text } from './fields.ts'

/**
 * Organisations: a corporate account with members. The account (the `clients` row) owns the
 * licenses, the balance and the documents; people act in it with a role. Every account is
 * implicitly its own owner while it is personal.
 */
export const ROLES = ['owner', 'billing', 'developer', 'viewer'] as const
export type Role = (typeof ROLES)[number]
export const roleSchema = z.enum(ROLES)

/**
 * What a call needs of the caller's role in the current organisation (each contract declares one):
 * `read` reads licenses, groups and the history; `documents` reads the money side (transactions,
 * invoices, credit notes, a waiting renewal payment); `licenses` changes licenses, keys, activations, devices and groups;
 * `money` spends or adds money and reads payment documents; `members` administers the organisation
 * (members, invitations, company data, account type); `self` concerns the person, not the
 * organisation (their password, their organisations, leaving one), so every role has it.
 */
export const PERMISSIONS = ['read', 'documents', 'licenses', 'money', 'members', 'self'] as const
export type Permission = (typeof PERMISSIONS)[number]

const GRANTS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  billing: ['read', 'documents', 'money', 'self'],
  developer: ['read', 'licenses', 'self'],
  viewer: ['read', 'documents', 'self'],
}

/** The one permission rule: whether a role may do what a permission names. */
export function may(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission)
}

/** An invitation link works this long. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 3600

export const inviteBody = z.object({ email: emailField, role: roleSchema })
export type InviteBody = z.input<typeof inviteBody>
export const memberRoleBody = z.object({ role: roleSchema })
export const switchOrgBody = z.object({ org_id: idNumber() })

export const memberSchema = z.object({
  member_id: z.number(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  /** the organisation's own sign-in: it stays a member */
  founder: z.boolean(),
  /** the signed-in person */
  you: z.boolean(),
})
export type Member = z.infer<typeof memberSchema>

export const invitationSchema = z.object({
  id: z.number(),
  email: z.string(),
  role: roleSchema,
  expires_at: z.string(),
})
export type Invitation = z.infer<typeof invitationSchema>

export const membersAnswer = z.object({ members: z.array(memberSchema), invitations: z.array(invitationSchema) })

export const orgSchema = z.object({
  id: z.number(),
  /** the company name, else the account's e-mail */
  name: z.string(),
  role: roleSchema,
  corporate: z.boolean(),
  current: z.boolean(),
})
export type Org = z.infer<typeof orgSchema>
export const orgsAnswer = z.object({
  /** the signed-in person */
  person: z.object({ id: z.number(), email: z.string() }),
  /** the organisations the person acts in, their own account first */
  orgs: z.array(orgSchema),
})
export type OrgsAnswer = z.infer<typeof orgsAnswer>

/** What an invitation link shows before it is accepted. */
export const invitationPreview = z.object({
  org_name: z.string(),
  email: z.string(),
  role: roleSchema,
  /** whether an account with the invited e-mail exists (sign in and accept) or not (register here) */
  account_exists: z.boolean(),
})

/** The invitation link's token in a path. */
export const invitationParams = z.object({ token: text().min(1).max(128) })
/** A new account made through an invitation link: its e-mail is the invitation's. */
export const invitationRegisterBody = z.object({ password: passwordField })
/** The form beside it: the password typed twice. */
export const invitationRegisterForm = invitationRegisterBody
  .extend({ repeat_password: text().min(1, 'password_empty_error') })
  .refine((v) => v.password === v.repeat_password, { message: 'password_match_error', path: ['repeat_password'] })
export const memberParams = z.object({ memberId: idNumber() })
export const invitationIdParams = z.object({ id: idNumber() })
