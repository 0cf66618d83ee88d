-- Licenses and groups. "available" is the group's limit (licenses still to be generated from it).

CREATE TABLE license_groups (
  id               bigserial PRIMARY KEY,
  client_id        bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  type             text NOT NULL,
  product          text NOT NULL,
  os_type          smallint,
  title            text,
  is_default       boolean NOT NULL DEFAULT false,
  is_fake          boolean NOT NULL DEFAULT false,
  available        int NOT NULL DEFAULT 0 CHECK (available >= 0),
  holded_limit     int NOT NULL DEFAULT 0 CHECK (holded_limit >= 0),
  config           jsonb NOT NULL DEFAULT '{}'::jsonb,
  token            text NOT NULL UNIQUE,
  months           int,
  source_group_id  bigint REFERENCES license_groups(id),
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX license_groups_one_default ON license_groups (client_id, product, COALESCE(os_type, -1), COALESCE(months, 0)) WHERE is_default;
CREATE INDEX license_groups_client_idx ON license_groups (client_id, id);

CREATE TABLE licenses (
  id               bigserial PRIMARY KEY,
  client_id        bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  group_id         bigint REFERENCES license_groups(id),
  type             text NOT NULL,
  product          text NOT NULL,
  title            text,
  config           jsonb NOT NULL DEFAULT '{}'::jsonb,
  status           smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1)),
  held_until       timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  expire_date      timestamptz,
  activation_date  timestamptz,
  token            text NOT NULL UNIQUE,
  locked_to        text,
  data             text,
  card_brand       text,
  card_last4       text,
  paypal_email     text,
  is_fake          boolean NOT NULL DEFAULT false,
  price_cents      bigint,
  group_key_used   boolean NOT NULL DEFAULT false,
  created_by_staff bigint REFERENCES clients(id),
  revoked_at       timestamptz
);
CREATE INDEX licenses_client_idx ON licenses (client_id, id) WHERE revoked_at IS NULL;
CREATE INDEX licenses_group_idx ON licenses (group_id) WHERE revoked_at IS NULL;

CREATE TABLE face_sdk_versions (
  version     text PRIMARY KEY,
  is_default  boolean NOT NULL DEFAULT false,
  released    date NOT NULL
);

-- A device is one activation of a license: online (fingerprint), request file, or USB token.
CREATE TABLE devices (
  id           bigserial PRIMARY KEY,
  license_id   bigint NOT NULL REFERENCES licenses(id),
  kind         text NOT NULL CHECK (kind IN ('online', 'request_file', 'usb_token')),
  fingerprint  text,
  serial       text,
  sensor_name  text,
  reg          text,
  name         text,
  first_seen   timestamptz NOT NULL DEFAULT now(),
  last_seen    timestamptz,
  released_at  timestamptz
);
CREATE INDEX devices_license_idx ON devices (license_id) WHERE released_at IS NULL;
