-- An operator's cancel (jobs:cancel) ends a waiting job without running it; it stays for the record.
ALTER TABLE jobs DROP CONSTRAINT jobs_status_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_status_check CHECK (status IN ('pending', 'done', 'failed', 'cancelled'));

-- A schedule runs every N seconds, or at the times of a cron expression (UTC).
ALTER TABLE job_schedules ALTER COLUMN every_seconds DROP NOT NULL;
ALTER TABLE job_schedules ADD COLUMN cron text;
ALTER TABLE job_schedules ADD CONSTRAINT job_schedules_when_check CHECK ((every_seconds IS NULL) <> (cron IS NULL));

-- The metrics read the last day's payments at each scrape.
CREATE INDEX transactions_created_idx ON transactions (created_at);
