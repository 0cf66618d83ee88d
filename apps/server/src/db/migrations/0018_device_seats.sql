-- Seats held past a release: a device keeps its seat until the file it was last given expires,
-- unless its release was within the quota (3 in any 30 days, portal and SDK together).
-- file_expires_at: when the last file issued to the device expires (NULL: it never does, or it is not known).
-- seat_until: on a released device whose seat was not freed at once, when it frees.
ALTER TABLE devices ADD COLUMN file_expires_at timestamptz;
ALTER TABLE devices ADD COLUMN seat_until timestamptz;
CREATE INDEX devices_held_seats ON devices (license_id, seat_until) WHERE seat_until IS NOT NULL;
CREATE INDEX devices_releases ON devices (license_id, released_at) WHERE released_at IS NOT NULL;
