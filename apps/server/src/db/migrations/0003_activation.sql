-- Activation: who released a device, and one live device per fingerprint or token serial.

ALTER TABLE devices ADD COLUMN release_kind text CHECK (release_kind IN ('customer', 'sdk'));
CREATE UNIQUE INDEX devices_live_fingerprint ON devices (license_id, fingerprint) WHERE released_at IS NULL AND fingerprint IS NOT NULL;
CREATE INDEX devices_customer_releases ON devices (license_id, released_at) WHERE release_kind = 'customer';
CREATE INDEX licenses_token_live ON licenses (token) WHERE revoked_at IS NULL;
