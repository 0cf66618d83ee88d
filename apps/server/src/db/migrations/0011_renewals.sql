-- Renewals (issue 13): the expiring-soon mail goes once per period of a license that will not renew.
-- The period is the license's expire_date: the mail records which end it warned of, so an extended
-- license (a new end) is warned again, and a job run twice, or on two processes, sends it once.
ALTER TABLE licenses ADD COLUMN expiry_warned_for timestamptz;
CREATE INDEX licenses_expiry_idx ON licenses (expire_date) WHERE revoked_at IS NULL AND expire_date IS NOT NULL;

-- What a renewal or reactivation charge is for: the subscription's charges, newest first.
CREATE INDEX transactions_subscription_idx ON transactions (subscription_id, id DESC) WHERE subscription_id IS NOT NULL;
