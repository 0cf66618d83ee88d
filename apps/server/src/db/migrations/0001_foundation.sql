-- Foundation: clients, sessions, e-mail tokens, mail outbox, rate-limit counters, catalogue.

CREATE TABLE clients (
  id              bigserial PRIMARY KEY,
  email           text NOT NULL,
  password_hash   text NOT NULL,
  confirmed_at    timestamptz,
  is_staff        boolean NOT NULL DEFAULT false,
  name            text NOT NULL DEFAULT '',
  last_name       text NOT NULL DEFAULT '',
  phone           text NOT NULL DEFAULT '',
  position        text NOT NULL DEFAULT '',
  company         jsonb NOT NULL DEFAULT '{}'::jsonb,
  options         jsonb NOT NULL DEFAULT '{}'::jsonb,
  balance_cents   bigint NOT NULL DEFAULT 0 CHECK (balance_cents >= 0),
  token           text NOT NULL,
  pending_email   text,
  segment         text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX clients_email_key ON clients (lower(email));

CREATE TABLE sessions (
  id_hash     text PRIMARY KEY,
  client_id   bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  user_agent  text
);
CREATE INDEX sessions_client_idx ON sessions (client_id);

CREATE TABLE email_tokens (
  id          bigserial PRIMARY KEY,
  client_id   bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  purpose     text NOT NULL CHECK (purpose IN ('confirm', 'reset', 'email_change')),
  token_hash  text NOT NULL UNIQUE,
  new_email   text,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_tokens_client_idx ON email_tokens (client_id, purpose);

CREATE TABLE mail_outbox (
  id               bigserial PRIMARY KEY,
  to_address       text NOT NULL,
  subject          text NOT NULL,
  text_body        text NOT NULL,
  html_body        text NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'dev', 'failed')),
  attempts         int NOT NULL DEFAULT 0,
  last_error       text,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  locked_until     timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  sent_at          timestamptz
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE status = 'pending';

CREATE TABLE rate_limits (
  key           text NOT NULL,
  window_start  timestamptz NOT NULL,
  hits          int NOT NULL DEFAULT 0,
  PRIMARY KEY (key, window_start)
);

CREATE TABLE prices (
  id               serial PRIMARY KEY,
  platform         text NOT NULL,
  product          text NOT NULL,
  license_type     text NOT NULL,
  plan_id          int,
  tier             int,
  cost_cents       bigint NOT NULL,
  old_price_cents  bigint,
  discount         numeric,
  deprecated       boolean NOT NULL DEFAULT false,
  UNIQUE (platform, product, license_type, tier)
);

CREATE TABLE changelog (
  version   text PRIMARY KEY,
  released  date NOT NULL,
  changes   jsonb NOT NULL
);
