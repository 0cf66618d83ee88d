-- Solved captchas, so each solution is accepted once.
CREATE TABLE captcha_used (
  challenge   text PRIMARY KEY,
  used_at     timestamptz NOT NULL DEFAULT now()
);
