-- The provider's id of the payment a checkout made: Stripe's PaymentIntent (pi_…) of a paid
-- Checkout Session. Stripe names that PaymentIntent, not the session, in its refund and dispute
-- events (charge.refunded, charge.dispute.*), so they are mapped back to the transaction by it.
-- An off-session charge's PaymentIntent is its provider_session_id already.
ALTER TABLE transactions ADD COLUMN provider_payment_ref text;
CREATE INDEX transactions_provider_payment_ref_idx ON transactions (provider, provider_payment_ref) WHERE provider_payment_ref IS NOT NULL;
