-- Idempotency keys sent to the payment providers.
--
-- installation_settings holds one random prefix per installation (made once, by the first process
-- that needs it): every key sent to Stripe or PayPal starts with it, so two installations sharing
-- one provider account, or one installation after a database reset, never send the same key.
--
-- provider_requests pins a saved-method charge to the parameters it was first sent with (method,
-- customer, amount, ...): a retry re-sends exactly those under its key, so a customer who changed
-- their card meanwhile is never charged on the new card while the first attempt may have succeeded.
-- provider_ref is the provider's id of the charge from an earlier answer (a PayPal order whose
-- capture is pending), read back by the retry instead of creating another. generation counts the
-- keys a charge has spent: Stripe keeps a 500 for its key and replays it for ever, so once the
-- provider shows nothing was charged under it, the next attempt goes under the key's next generation.
CREATE TABLE installation_settings (
  name        text PRIMARY KEY,
  value       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE provider_requests (
  idempotency_key  text PRIMARY KEY,
  provider         text NOT NULL,
  request          jsonb NOT NULL,
  provider_ref     text,
  generation       integer NOT NULL DEFAULT 0,
  created_at       timestamptz NOT NULL DEFAULT now()
);
