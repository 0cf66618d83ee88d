-- Renewals that need the customer: a card that asks for authentication (SCA) on an off-session
-- charge, and the back-off of a renewal charge the provider could not take (an outage).

-- awaiting_authentication: the off-session charge was refused with authentication_required; nothing
-- is charged off-session any more for the period, the customer pays it on-session (a checkout) by
-- next_attempt_at (the end of the retry window), when the renewal job fails it as a last attempt.
ALTER TABLE subscriptions DROP CONSTRAINT IF EXISTS subscriptions_state_check;
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_state_check
  CHECK (state IN ('active', 'past_due', 'awaiting_authentication', 'stopped', 'ended'));
DROP INDEX IF EXISTS subscriptions_due_idx;
CREATE INDEX subscriptions_due_idx ON subscriptions (next_attempt_at) WHERE state IN ('active', 'past_due', 'awaiting_authentication');

-- the end of the period the awaiting renewal pays for (the license runs to the pay-by date meanwhile)
ALTER TABLE subscriptions ADD COLUMN awaiting_period_end timestamptz;
-- the on-session checkout of the awaiting renewal: its transaction (claimed before the provider is
-- asked, so parallel requests open one) and, once the provider answered, where the customer pays
ALTER TABLE subscriptions ADD COLUMN checkout_transaction_id bigint REFERENCES transactions(id) ON DELETE SET NULL;
ALTER TABLE subscriptions ADD COLUMN checkout_url text;

-- how many times the current attempt's charge found the provider unavailable: the next try waits
-- twice as long as the one before (back-off), up to the outage age limit
ALTER TABLE subscriptions ADD COLUMN outage_retries int NOT NULL DEFAULT 0 CHECK (outage_retries >= 0);

-- the sandbox's test card 4000 0027 6000 3184: paid at checkout (the customer is there to
-- authenticate), every later off-session charge refused with authentication_required
ALTER TABLE sandbox_payment_methods ADD COLUMN authenticate_off_session boolean NOT NULL DEFAULT false;
