-- Mail attachments (a receipt carries its invoice PDF) and the receipt sent once per transaction.

-- [{filename, content_type, content_base64}], handed to SMTP as the mail's attachments
ALTER TABLE mail_outbox ADD COLUMN attachments jsonb NOT NULL DEFAULT '[]'::jsonb;

-- set in the database transaction that puts the receipt into the outbox: a receipt job run twice
-- (a retry, a lease that ran out, two processes) finds it set and sends nothing more
ALTER TABLE transactions ADD COLUMN receipt_sent_at timestamptz;
