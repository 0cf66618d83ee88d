-- Subscriptions that renew (issue 13): the payment methods providers keep for us, one subscription
-- per subscribed license, renewal charges tied to their period, upgrades' holds.

-- A reusable way to charge a client that a provider keeps (Stripe's saved card, PayPal's vault, the
-- sandbox's test card); the portal stores only the provider's reference and what it shows.
CREATE TABLE payment_methods (
  id            bigserial PRIMARY KEY,
  client_id     bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  provider      text NOT NULL CHECK (provider IN ('sandbox', 'stripe', 'paypal')),
  -- the payment source it pays as: stripe (a card) or paypal (a wallet)
  source        text NOT NULL CHECK (source IN ('stripe', 'paypal')),
  token         text NOT NULL,
  customer_ref  text,
  card_brand    text,
  card_last4    text,
  paypal_email  text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, token)
);
CREATE INDEX payment_methods_client_idx ON payment_methods (client_id, id DESC);

-- How a default group's capacity was paid: a subscription license generated from it renews the same way.
ALTER TABLE license_groups ADD COLUMN payment_source text CHECK (payment_source IN ('balance', 'stripe', 'paypal'));
ALTER TABLE license_groups ADD COLUMN payment_method_id bigint REFERENCES payment_methods(id);

-- One per subscribed license. The period ends at the license's expire_date; the renewal job charges
-- at next_attempt_at (the period's end, then the retries) while the subscription is active or past due.
CREATE TABLE subscriptions (
  id                    bigserial PRIMARY KEY,
  client_id             bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  license_id            bigint NOT NULL UNIQUE REFERENCES licenses(id),
  payment_source        text NOT NULL CHECK (payment_source IN ('balance', 'stripe', 'paypal')),
  payment_method_id     bigint REFERENCES payment_methods(id),
  -- active: renews at the period's end; past_due: a renewal failed and is retried; stopped: the
  -- retries ran out (license status 1); ended: cancelled and its period is over
  state                 text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'past_due', 'stopped', 'ended')),
  cancel_at_period_end  boolean NOT NULL DEFAULT false,
  cancelled_at          timestamptz,
  failed_attempts       int NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
  next_attempt_at       timestamptz,
  -- the expiring-soon mail of the current period, sent once
  expiry_warned_for     timestamptz,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_due_idx ON subscriptions (next_attempt_at) WHERE state IN ('active', 'past_due');
CREATE INDEX subscriptions_client_idx ON subscriptions (client_id);

-- A charge belongs to a subscription's period: the unique key makes a renewal run twice, or on two
-- processes at once, charge once (renewal:{subscription}:{period end}:{attempt}).
ALTER TABLE transactions ADD COLUMN subscription_id bigint REFERENCES subscriptions(id);
ALTER TABLE transactions ADD COLUMN charge_key text;
CREATE UNIQUE INDEX transactions_charge_key_idx ON transactions (charge_key) WHERE charge_key IS NOT NULL;
-- what an upgrade's payment is for: the license or group it holds
ALTER TABLE transactions ADD COLUMN license_id bigint REFERENCES licenses(id);
ALTER TABLE transactions ADD COLUMN group_id bigint REFERENCES license_groups(id);

-- Cloud licenses: when a workspace was paused (its data is erased 30 days later unless resumed),
-- when the warning went out, and when the sweep erased it.
ALTER TABLE licenses ADD COLUMN paused_at timestamptz;
ALTER TABLE licenses ADD COLUMN erase_warned_at timestamptz;
ALTER TABLE licenses ADD COLUMN data_erased_at timestamptz;
CREATE INDEX licenses_paused_idx ON licenses (paused_at) WHERE paused_at IS NOT NULL AND data_erased_at IS NULL;

-- A group key under upgrade: holded_limit of its licenses are on hold until held_until (derived at
-- read time, like a license's hold, so a late job never leaves a group stuck).
ALTER TABLE license_groups ADD COLUMN held_until timestamptz;
