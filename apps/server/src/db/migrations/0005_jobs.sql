-- Scheduled and background work, shared by every server process on one database.

CREATE TABLE jobs (
  id             bigserial PRIMARY KEY,
  name           text NOT NULL,
  payload        jsonb NOT NULL DEFAULT '{}',
  -- at most one waiting job per key (a schedule's run, "deliver the outbox")
  singleton_key  text,
  status         text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
  run_at         timestamptz NOT NULL DEFAULT now(),
  attempts       int NOT NULL DEFAULT 0,
  max_attempts   int NOT NULL DEFAULT 10,
  -- the lease of the process running it; past it, another process takes the job over
  locked_until   timestamptz,
  locked_by      text,
  last_error     text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  finished_at    timestamptz
);
CREATE INDEX jobs_due_idx ON jobs (run_at) WHERE status = 'pending';
CREATE UNIQUE INDEX jobs_singleton_idx ON jobs (singleton_key) WHERE status = 'pending';
CREATE INDEX jobs_finished_idx ON jobs (finished_at) WHERE status <> 'pending';

-- Recurring jobs: the process that moves next_run_at on enqueues the run, so it happens once.
CREATE TABLE job_schedules (
  name           text PRIMARY KEY,
  every_seconds  int NOT NULL CHECK (every_seconds > 0),
  next_run_at    timestamptz NOT NULL
);

CREATE INDEX sessions_expires_idx ON sessions (expires_at);
CREATE INDEX captcha_used_used_at_idx ON captcha_used (used_at);
CREATE INDEX rate_limits_window_idx ON rate_limits (window_start);
CREATE INDEX mail_outbox_done_idx ON mail_outbox (created_at) WHERE status <> 'pending';
