import { DEFAULT_OPTIONS, TOKEN_TTL_SECONDS, centsToUsd, type Role, type ClientInfo, type ClientOptions, type Company, type TokenPurpose } from '@portal/domain'
import { columns, type Queryable } from '../../db/db.ts'
import { randomToken, sha256 } from '../../platform/crypto.ts'

export interface ClientRow {
  id: number
  email: string
  password_hash: string
  confirmed_at: Date | null
  is_staff: boolean
  name: string
  last_name: string
  phone: string
  position: string
  company: Partial<Company>
  options: Partial<ClientOptions>
  balance_cents: number
  owed_cents: number
  token: string
  pending_email: string | null
  segment: string | null
}

const CLIENT_COLUMNS = columns<ClientRow>()(
  'id',
  'email',
  'password_hash',
  'confirmed_at',
  'is_staff',
  'name',
  'last_name',
  'phone',
  'position',
  'company',
  'options',
  'balance_cents',
  'owed_cents',
  'token',
  'pending_email',
  'segment',
)

const EMPTY_COMPANY: Company = { name: '', address: '', vat: '', type: '', site: '', position: '' }

export function toClientInfo(row: ClientRow): ClientInfo {
  return {
    id: row.id,
    balance: centsToUsd(row.balance_cents),
    owed: centsToUsd(Number(row.owed_cents ?? 0)),
    token: row.token,
    options: { ...DEFAULT_OPTIONS, ...row.options },
    company: { ...EMPTY_COMPANY, ...row.company },
    email: row.email,
    pending_email: row.pending_email,
    name: row.name,
    last_name: row.last_name,
    phone: row.phone,
    position: row.position,
    is_staff: row.is_staff,
  }
}

export async function findClientById(db: Queryable, id: number, lock = false): Promise<ClientRow | null> {
  const rows = await db.query<ClientRow>(`SELECT ${CLIENT_COLUMNS()} FROM clients WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id])
  return rows[0] ?? null
}

export async function findClientByEmail(db: Queryable, email: string): Promise<ClientRow | null> {
  const rows = await db.query<ClientRow>(`SELECT ${CLIENT_COLUMNS()} FROM clients WHERE lower(email) = lower($1)`, [email.trim()])
  return rows[0] ?? null
}

export async function emailTaken(db: Queryable, email: string, exceptId?: number): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM clients WHERE lower(email) = lower($1) AND id <> $2', [email, exceptId ?? 0])
  return rows.length > 0
}

export async function insertClient(
  db: Queryable,
  c: { email: string; password_hash: string; is_corporate: boolean; segment: string | null; token: string; confirmed?: boolean },
): Promise<ClientRow | null> {
  const rows = await db.query<ClientRow>(
    `INSERT INTO clients (email, password_hash, options, segment, token, confirmed_at)
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::boolean THEN now() END)
     ON CONFLICT ((lower(email))) DO NOTHING
     RETURNING ${CLIENT_COLUMNS()}`,
    [c.email, c.password_hash, JSON.stringify({ ...DEFAULT_OPTIONS, corporate_member: c.is_corporate }), c.segment, c.token, c.confirmed ?? false],
  )
  // a corporate account's own sign-in is its first owner
  if (rows[0] && c.is_corporate) await insertMembership(db, rows[0].id, rows[0].id, 'owner')
  return rows[0] ?? null
}

export async function updateClientProfile(
  db: Queryable,
  id: number,
  patch: { name?: string; last_name?: string; phone?: string; position?: string; company?: Partial<Company>; options?: Partial<ClientOptions> },
): Promise<ClientRow> {
  const rows = await db.query<ClientRow>(
    `UPDATE clients SET
        name = COALESCE($2, name),
        last_name = COALESCE($3, last_name),
        phone = COALESCE($4, phone),
        position = COALESCE($5, position),
        company = company || COALESCE($6::jsonb, '{}'::jsonb),
        options = options || COALESCE($7::jsonb, '{}'::jsonb),
        updated_at = now()
      WHERE id = $1 RETURNING ${CLIENT_COLUMNS()}`,
    [
      id,
      patch.name ?? null,
      patch.last_name ?? null,
      patch.phone ?? null,
      patch.position ?? null,
      patch.company ? JSON.stringify(patch.company) : null,
      patch.options ? JSON.stringify(patch.options) : null,
    ],
  )
  return rows[0]!
}

export async function setPassword(db: Queryable, id: number, passwordHash: string) {
  await db.query('UPDATE clients SET password_hash = $2, updated_at = now() WHERE id = $1', [id, passwordHash])
}

export async function setStaff(db: Queryable, email: string, isStaff: boolean): Promise<boolean> {
  const rows = await db.query('UPDATE clients SET is_staff = $2 WHERE lower(email) = lower($1) RETURNING id', [email, isStaff])
  return rows.length > 0
}

/** The address an e-mail change waits to confirm. */
export async function setPendingEmail(db: Queryable, clientId: number, email: string) {
  await db.query('UPDATE clients SET pending_email = $2 WHERE id = $1', [clientId, email])
}

// the e-mail links of a client's account (confirm, reset, e-mail change); the auth module consumes them
/**
 * Issues a single-use token; earlier unused tokens of the same purpose stop working, but for the
 * links that undo an e-mail change: each restores its own address, and a second change must not
 * take the owner's link away.
 */
export async function issueToken(db: Queryable, clientId: number, purpose: TokenPurpose, newEmail?: string): Promise<string> {
  const token = randomToken(24)
  if (purpose !== 'email_revert')
    await db.query(`UPDATE email_tokens SET used_at = now() WHERE client_id = $1 AND purpose = $2 AND used_at IS NULL`, [clientId, purpose])
  await db.query(
    `INSERT INTO email_tokens (client_id, purpose, token_hash, new_email, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
    [clientId, purpose, sha256(token), newEmail ?? null, TOKEN_TTL_SECONDS[purpose]],
  )
  return token
}

/** Takes the client's row lock: every change to a client's licenses and groups takes it first. */
export async function lockClientRow(tx: Queryable, clientId: number) {
  await tx.query('SELECT id FROM clients WHERE id = $1 FOR UPDATE', [clientId])
}

/**
 * The trial products (and their tags) of which the client has had a license, revoked ones too: a
 * trial is taken once. Read here for the profile, which the licenses module builds on.
 */
export async function trialsTaken(db: Queryable, clientId: number, products: readonly string[]): Promise<{ product: string; tag: string | null }[]> {
  return db.query<{ product: string; tag: string | null }>(
    "SELECT DISTINCT product, config->>'tag' AS tag FROM licenses WHERE client_id = $1 AND product = ANY($2::text[])",
    [clientId, products],
  )
}

// ---- memberships: the people of an organisation and their roles ----

export interface MemberRow {
  member_id: number
  email: string
  name: string
  last_name: string
  role: Role
}

/** Adds a person to an organisation; answers false when they already are a member. */
export async function insertMembership(db: Queryable, orgId: number, memberId: number, role: Role): Promise<boolean> {
  const rows = await db.query('INSERT INTO memberships (org_id, member_id, role) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING member_id', [
    orgId,
    memberId,
    role,
  ])
  return rows.length > 0
}

/** The members of an organisation, its own sign-in first, then by when they joined. */
export async function listMembers(db: Queryable, orgId: number): Promise<MemberRow[]> {
  return db.query<MemberRow>(
    `SELECT m.member_id, c.email, c.name, c.last_name, m.role
       FROM memberships m JOIN clients c ON c.id = m.member_id
      WHERE m.org_id = $1
      ORDER BY (m.member_id = m.org_id) DESC, m.created_at, m.member_id`,
    [orgId],
  )
}

export async function findMembership(db: Queryable, orgId: number, memberId: number): Promise<{ role: Role } | null> {
  const rows = await db.query<{ role: Role }>('SELECT role FROM memberships WHERE org_id = $1 AND member_id = $2', [orgId, memberId])
  return rows[0] ?? null
}

export async function setMembershipRole(db: Queryable, orgId: number, memberId: number, role: Role) {
  await db.query('UPDATE memberships SET role = $3 WHERE org_id = $1 AND member_id = $2', [orgId, memberId, role])
}

export async function deleteMembership(db: Queryable, orgId: number, memberId: number) {
  await db.query('DELETE FROM memberships WHERE org_id = $1 AND member_id = $2', [orgId, memberId])
}

/** How many members and owners an organisation has (the caller holds the organisation's row lock). */
export async function countMembers(db: Queryable, orgId: number): Promise<{ members: number; owners: number }> {
  const [row] = await db.query<{ members: number; owners: number }>(
    `SELECT count(*)::int AS members, count(*) FILTER (WHERE role = 'owner')::int AS owners FROM memberships WHERE org_id = $1`,
    [orgId],
  )
  return row!
}

export interface PersonOrgRow {
  id: number
  email: string
  company_name: string | null
  corporate: boolean
  role: Role
}

/**
 * The accounts a person acts in: their own (with their role there, owner while it is personal)
 * and every organisation they are a member of.
 */
export async function listPersonOrgs(db: Queryable, personId: number): Promise<PersonOrgRow[]> {
  return db.query<PersonOrgRow>(
    `SELECT c.id, c.email, NULLIF(c.company->>'name', '') AS company_name,
            COALESCE((c.options->>'corporate_member')::boolean, false) AS corporate,
            COALESCE(m.role, 'owner') AS role
       FROM clients c LEFT JOIN memberships m ON m.org_id = c.id AND m.member_id = $1
      WHERE c.id = $1 OR m.member_id IS NOT NULL
      ORDER BY (c.id = $1) DESC, c.id`,
    [personId],
  )
}

/** The organisation's own sign-in leaves its member list (the switch back to personal). */
export async function dropFounderMembership(db: Queryable, orgId: number) {
  await deleteMembership(db, orgId, orgId)
}
