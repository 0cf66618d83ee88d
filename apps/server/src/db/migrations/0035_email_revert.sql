-- A confirmed e-mail change mails the old address a link that undoes it for 7 days: a token of its own
-- purpose, whose new_email is the address to restore.
ALTER TABLE email_tokens DROP CONSTRAINT email_tokens_purpose_check;
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_purpose_check CHECK (purpose IN ('confirm', 'reset', 'email_change', 'email_revert'));
