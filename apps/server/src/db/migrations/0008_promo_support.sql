-- Promo codes and their activations, and a reply-to address on outgoing mail (the contact-sales
-- message answers to its sender).

-- A code's discount is text as the spec has it: "10%" (a percent) or "15" (a fixed USD amount).
-- platforms: the platforms it applies to, empty for all. activations_used counts the activations
-- reserved and not released (a purchase reserves one when it is created and releases it when its
-- payment is cancelled or expires); the CHECK keeps it at most max_activations whatever the race.
CREATE TABLE promo_codes (
  id                bigserial PRIMARY KEY,
  code              text NOT NULL CHECK (code ~ '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$'),
  discount          text NOT NULL CHECK (discount ~ '^[0-9]{1,7}(\.[0-9]{1,2})?%?$'),
  platforms         text[] NOT NULL DEFAULT '{}',
  expires_at        timestamptz,
  max_activations   int CHECK (max_activations IS NULL OR max_activations > 0),
  activations_used  int NOT NULL DEFAULT 0 CHECK (activations_used >= 0),
  disabled          boolean NOT NULL DEFAULT false,
  created_at        timestamptz NOT NULL DEFAULT now(),
  CHECK (max_activations IS NULL OR activations_used <= max_activations)
);
-- codes are compared without regard to case: SPRING10 and spring10 are one code
CREATE UNIQUE INDEX promo_codes_code_key ON promo_codes (lower(code));

-- One row per activation a purchase reserved. ref names the purchase (its order or transaction);
-- released_at is set when the activation went back to the code, confirmed_at when the purchase was
-- paid and the activation is spent for good (it is then never released).
CREATE TABLE promo_reservations (
  id              bigserial PRIMARY KEY,
  promo_id        bigint NOT NULL REFERENCES promo_codes(id) ON DELETE CASCADE,
  client_id       bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  ref             text NOT NULL UNIQUE,
  transaction_id  bigint REFERENCES transactions(id) ON DELETE SET NULL,
  reserved_at     timestamptz NOT NULL DEFAULT now(),
  confirmed_at    timestamptz,
  released_at     timestamptz,
  CHECK (confirmed_at IS NULL OR released_at IS NULL)
);
CREATE INDEX promo_reservations_promo_idx ON promo_reservations (promo_id);
CREATE INDEX promo_reservations_transaction_idx ON promo_reservations (transaction_id) WHERE transaction_id IS NOT NULL;

ALTER TABLE mail_outbox ADD COLUMN reply_to text;
