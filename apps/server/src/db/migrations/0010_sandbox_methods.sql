-- The sandbox provider's saved payment methods and off-session charges (issue 13): what a real
-- provider keeps on its side, kept in the sandbox's own tables like its checkouts.

-- A test card or PayPal account saved by a paid subscription-mode sandbox checkout (token sbpm_…).
CREATE TABLE sandbox_payment_methods (
  token               text PRIMARY KEY,
  source              text NOT NULL CHECK (source IN ('stripe', 'paypal')),
  card_brand          text,
  card_last4          text,
  paypal_email        text,
  -- the test card 4000 0000 0000 0341: paid at checkout, every later off-session charge declined
  decline_off_session boolean NOT NULL DEFAULT false,
  session_id          text NOT NULL REFERENCES sandbox_sessions(id),
  created_at          timestamptz NOT NULL DEFAULT now()
);

-- One per idempotency key: the same charge asked again (a retry, in parallel, on another process)
-- answers the stored result and the same event id.
CREATE TABLE sandbox_charges (
  id              text PRIMARY KEY,
  idempotency_key text NOT NULL UNIQUE,
  token           text NOT NULL,
  transaction_id  bigint,
  amount_cents    bigint NOT NULL CHECK (amount_cents > 0),
  outcome         text NOT NULL CHECK (outcome IN ('paid', 'declined')),
  decline_reason  text,
  payment_method  text,
  event_id        text NOT NULL UNIQUE,
  created_at      timestamptz NOT NULL DEFAULT now()
);
