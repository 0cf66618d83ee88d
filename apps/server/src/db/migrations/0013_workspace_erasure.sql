-- The erasure sweep (issue 13) releases a paused cloud trial's devices with its workspace data:
-- a release of its own kind, not counted against the customer's 3 releases in 30 days.
ALTER TABLE devices DROP CONSTRAINT IF EXISTS devices_release_kind_check;
ALTER TABLE devices ADD CONSTRAINT devices_release_kind_check CHECK (release_kind IN ('customer', 'sdk', 'erasure'));
