-- Organisations: a corporate account (its clients row owns the licenses, balance and documents)
-- with members, each a person signing in with their own account and acting with a role.
CREATE TABLE memberships (
  org_id      bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  member_id   bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  role        text NOT NULL CHECK (role IN ('owner', 'billing', 'developer', 'viewer')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, member_id)
);
CREATE INDEX memberships_member_idx ON memberships (member_id);

-- A corporate account's own sign-in is its first member, an owner.
INSERT INTO memberships (org_id, member_id, role)
SELECT id, id, 'owner' FROM clients WHERE COALESCE((options->>'corporate_member')::boolean, false);

-- An invitation by e-mail: the link's token is kept as its hash and works once, until it expires.
CREATE TABLE invitations (
  id           bigserial PRIMARY KEY,
  org_id       bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  email        text NOT NULL,
  role         text NOT NULL CHECK (role IN ('owner', 'billing', 'developer', 'viewer')),
  token_hash   text NOT NULL UNIQUE,
  invited_by   bigint REFERENCES clients(id) ON DELETE SET NULL,
  expires_at   timestamptz NOT NULL,
  accepted_at  timestamptz,
  accepted_by  bigint REFERENCES clients(id) ON DELETE SET NULL,
  revoked_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX invitations_open_idx ON invitations (org_id) WHERE accepted_at IS NULL AND revoked_at IS NULL;

-- The organisation a session acts in; NULL (or one the person left) is the person's own account.
ALTER TABLE sessions ADD COLUMN org_id bigint REFERENCES clients(id) ON DELETE SET NULL;

-- Who did what the history records: the person acting; NULL for the system (renewals, webhooks,
-- staff tools). No foreign key: the history is append-only, and a cascade would update it.
ALTER TABLE activity_events ADD COLUMN actor_id bigint;
