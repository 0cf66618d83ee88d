-- Payments that do not finish at once.
--
-- A sandbox checkout can be held for review (status pending), as a PayPal capture is held
-- (PENDING_REVIEW, ECHECK): no webhook is sent until it is settled (sandbox:settle), and the
-- portal's transaction stays pending meanwhile, read back by the reconcile job.
ALTER TABLE sandbox_sessions DROP CONSTRAINT IF EXISTS sandbox_sessions_status_check;
ALTER TABLE sandbox_sessions ADD CONSTRAINT sandbox_sessions_status_check
  CHECK (status IN ('open', 'pending', 'paid', 'declined', 'cancelled', 'expired'));

-- the reconcile job reads the pending and recently expired transactions a provider holds
CREATE INDEX transactions_reconcile_idx ON transactions (expires_at) WHERE status IN (1, 3) AND provider_session_id IS NOT NULL;
