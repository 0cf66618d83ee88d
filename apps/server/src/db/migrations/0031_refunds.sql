-- Refunds, disputes and reversals of a paid transaction.
--
-- A credit note is the document that corrects an invoice: its own gapless number (CN-000001, from
-- credit_note_counter in the database transaction that issues it), the invoice it corrects, the
-- amount given back and why. A dispute won closes its credit note (restored_at) and what it
-- suspended comes back.
CREATE TABLE credit_note_counter (
  id    boolean PRIMARY KEY DEFAULT true CHECK (id),
  last  bigint NOT NULL DEFAULT 0
);
INSERT INTO credit_note_counter (id, last) VALUES (true, 0);

CREATE TABLE credit_notes (
  id              bigserial PRIMARY KEY,
  number          bigint NOT NULL UNIQUE,
  client_id       bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  transaction_id  bigint NOT NULL REFERENCES transactions(id),
  -- refund (the portal's or the provider's), dispute (a chargeback), reversal (the provider took it back)
  kind            text NOT NULL CHECK (kind IN ('refund', 'dispute', 'reversal')),
  amount_cents    bigint NOT NULL CHECK (amount_cents > 0),
  reason          text NOT NULL,
  -- the provider's id of the refund or dispute, when there is one
  provider_ref    text,
  issued_at       timestamptz NOT NULL DEFAULT now(),
  -- a dispute the merchant won: the money came back, what was suspended is restored
  restored_at     timestamptz
);
CREATE INDEX credit_notes_client_idx ON credit_notes (client_id, issued_at DESC);
CREATE INDEX credit_notes_transaction_idx ON credit_notes (transaction_id);

-- What a client owes after a refunded top-up whose credit was already spent: the balance never goes
-- below zero, the shortfall is kept here, and purchases from the balance wait until it is paid. The
-- ledger's sum is the balance minus what is owed.
ALTER TABLE clients ADD COLUMN owed_cents bigint NOT NULL DEFAULT 0 CHECK (owed_cents >= 0);

-- A reversal moves the balance of a transaction a second time: its entry names its credit note.
ALTER TABLE ledger_entries ADD COLUMN credit_note_id bigint REFERENCES credit_notes(id);
DROP INDEX ledger_entries_transaction_key;
CREATE UNIQUE INDEX ledger_entries_transaction_key ON ledger_entries (transaction_id) WHERE credit_note_id IS NULL;
-- a credit note takes back once, and (a dispute won) gives back once
CREATE UNIQUE INDEX ledger_entries_credit_note_key ON ledger_entries (credit_note_id, (amount_cents > 0)) WHERE credit_note_id IS NOT NULL;
ALTER TABLE ledger_entries DROP CONSTRAINT IF EXISTS ledger_entries_amount_cents_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_amount_cents_check CHECK (amount_cents <> 0 OR credit_note_id IS NOT NULL);

-- A license suspended because the payment for it was taken back: the reason its info page shows.
ALTER TABLE licenses ADD COLUMN suspended_reason text;
ALTER TABLE licenses ADD COLUMN suspended_by_credit_note bigint REFERENCES credit_notes(id);

ALTER TABLE activity_events DROP CONSTRAINT IF EXISTS activity_events_kind_check;
ALTER TABLE activity_events ADD CONSTRAINT activity_events_kind_check CHECK (kind IN (
  'created', 'generated', 'renamed', 'activated', 'released', 'paused', 'resumed',
  'upgraded', 'paid', 'renewed', 'revoked', 'cancelled', 'reactivated', 'suspended', 'restored'));
