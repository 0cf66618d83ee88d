-- The secrets every instance shares, sealed with PORTAL_MASTER_KEY (platform/secrets.ts): the
-- session secret, the sandbox webhook secret, the SSO keys. One row per name, made by whichever
-- process starts first (insert-if-absent, then read back).
CREATE TABLE portal_secrets (
  name text PRIMARY KEY,
  sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The license-signing keyring (platform/signing.ts): the newest key not yet retired signs, every
-- key is published. The private key is sealed like the secrets above.
CREATE TABLE license_signing_keys (
  kid text PRIMARY KEY,
  public_key text NOT NULL,
  private_key_sealed text NOT NULL,
  created_at timestamptz NOT NULL,
  retire_at timestamptz,
  position bigint GENERATED ALWAYS AS IDENTITY
);
