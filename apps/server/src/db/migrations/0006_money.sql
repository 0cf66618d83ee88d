-- Money: transactions (what a customer paid or was charged), the balance ledger, the provider
-- events already applied, gapless invoice numbers and the sandbox provider's checkout sessions.
-- Every amount is integer cents (USD).

CREATE TABLE transactions (
  id                   bigserial PRIMARY KEY,
  client_id            bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  -- 0 credit (money in), 1 debit (money out), as the spec numbers them
  type                 smallint NOT NULL CHECK (type IN (0, 1)),
  -- 0 ok, 1 pending, 2 declined, 3 expired
  status               smallint NOT NULL DEFAULT 1 CHECK (status IN (0, 1, 2, 3)),
  amount_cents         bigint NOT NULL CHECK (amount_cents > 0),
  -- what it was for: top_up, adjustment (staff), and the basket's kinds later
  kind                 text NOT NULL,
  description          text NOT NULL,
  -- the invoice's lines: [{description, quantity, unit_cents, amount_cents}]
  lines                jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- stripe (card), paypal, balance or staff
  payment_source       text NOT NULL,
  -- the adapter that served it: sandbox, stripe, paypal (null for balance and staff)
  provider             text,
  provider_session_id  text,
  -- what the provider says paid: "Visa •••• 4242", "PayPal (buyer@example.com)"
  payment_method       text,
  -- numbered when paid, from invoice_counter in the same database transaction: no gaps
  invoice_number       bigint UNIQUE,
  staff_id             bigint REFERENCES clients(id) ON DELETE SET NULL,
  reason               text,
  expires_at           timestamptz,
  paid_at              timestamptz,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 0) = (invoice_number IS NOT NULL))
);
CREATE INDEX transactions_client_idx ON transactions (client_id, created_at DESC, id DESC);
CREATE UNIQUE INDEX transactions_provider_session_key ON transactions (provider, provider_session_id) WHERE provider_session_id IS NOT NULL;
CREATE INDEX transactions_pending_expiry_idx ON transactions (expires_at) WHERE status = 1;

-- The balance is the sum of a client's entries; clients.balance_cents keeps that sum, updated in
-- the same database transaction as the entry (its CHECK keeps it at 0 or more).
CREATE TABLE ledger_entries (
  id                   bigserial PRIMARY KEY,
  client_id            bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  transaction_id       bigint NOT NULL REFERENCES transactions(id) ON DELETE CASCADE,
  -- positive credits, negative debits
  amount_cents         bigint NOT NULL CHECK (amount_cents <> 0),
  balance_after_cents  bigint NOT NULL CHECK (balance_after_cents >= 0),
  created_at           timestamptz NOT NULL DEFAULT now()
);
-- one entry per transaction: a transaction can move the balance once, whatever retries it
CREATE UNIQUE INDEX ledger_entries_transaction_key ON ledger_entries (transaction_id);
CREATE INDEX ledger_entries_client_idx ON ledger_entries (client_id, id);

-- A provider's event applied once: recorded in the database transaction that applies it.
CREATE TABLE payment_events (
  provider        text NOT NULL,
  event_id        text NOT NULL,
  transaction_id  bigint REFERENCES transactions(id) ON DELETE CASCADE,
  outcome         text NOT NULL,
  received_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);

CREATE TABLE invoice_counter (
  id    boolean PRIMARY KEY DEFAULT true CHECK (id),
  last  bigint NOT NULL DEFAULT 0
);
INSERT INTO invoice_counter (id, last) VALUES (true, 0);

-- The built-in sandbox provider's hosted checkouts (its own store, as Stripe keeps its sessions).
CREATE TABLE sandbox_sessions (
  id             text PRIMARY KEY,
  source         text NOT NULL CHECK (source IN ('stripe', 'paypal')),
  mode           text NOT NULL CHECK (mode IN ('payment', 'subscription')),
  merchant       text NOT NULL,
  customer_email text NOT NULL,
  lines          jsonb NOT NULL,
  amount_cents   bigint NOT NULL CHECK (amount_cents > 0),
  currency       text NOT NULL DEFAULT 'usd',
  success_url    text NOT NULL,
  cancel_url     text NOT NULL,
  metadata       jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- open, paid, declined, cancelled, expired
  status         text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid', 'declined', 'cancelled', 'expired')),
  -- the last webhook it sent, signed: payments:redeliver sends it again
  last_event     jsonb,
  created_at     timestamptz NOT NULL DEFAULT now(),
  completed_at   timestamptz
);
