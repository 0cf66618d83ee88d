-- The paused-trials sweep reads the licenses paused at or before a date whose data this pause has not
-- erased: `data_erased_at` empty, or older than `paused_at` (a trial resumed after an erasure and
-- paused again). The partial index it replaces held the first kind only, so the sweep's condition did
-- not imply it and the sweep read the whole table. Every paused license is in this one; the sweep
-- filters the few erased ones out.
DROP INDEX licenses_paused_idx;
CREATE INDEX licenses_paused_idx ON licenses (paused_at) WHERE paused_at IS NOT NULL;
