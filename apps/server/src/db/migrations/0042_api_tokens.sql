-- Customer API tokens: `Authorization: Bearer lp_…` on the calls a contract marks `bearer`. Only the
-- SHA-256 of the token is kept (it has 256 random bits, so no slow hash is needed); the plain token
-- is shown once, at creation. A token belongs to the account; created_by names who made it.
CREATE TABLE api_tokens (
  id            bigserial PRIMARY KEY,
  client_id     bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  created_by    bigint REFERENCES clients(id) ON DELETE SET NULL,
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  scope         text NOT NULL CHECK (scope IN ('read', 'manage')),
  token_hash    text NOT NULL UNIQUE,
  -- the first characters of the token, so the owner can tell tokens apart in the list
  token_hint    text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz,
  -- written at most once a minute per token (the bearer lookup's conditional update)
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX api_tokens_client_idx ON api_tokens (client_id, created_at DESC);
