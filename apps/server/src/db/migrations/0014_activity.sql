-- The activity history (issue 14, point 5): what happened to a client's licenses and groups, and
-- when. Written in the transaction of the change it records, never changed afterwards.
CREATE TABLE activity_events (
  id          bigserial PRIMARY KEY,
  client_id   bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  license_id  bigint REFERENCES licenses(id) ON DELETE CASCADE,
  group_id    bigint REFERENCES license_groups(id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN (
                'created', 'generated', 'renamed', 'activated', 'released', 'paused', 'resumed',
                'upgraded', 'paid', 'renewed', 'revoked', 'cancelled', 'reactivated')),
  -- what the line says beyond its kind: old and new title, device serial and sensor, product
  -- from and to, amount in cents, transaction id
  details     jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(details) = 'object'),
  -- business time (ctx.clock) of the change
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX activity_events_client_idx ON activity_events (client_id, created_at DESC, id DESC);
CREATE INDEX activity_events_license_idx ON activity_events (license_id, created_at DESC, id DESC) WHERE license_id IS NOT NULL;

-- Append-only: a row is never updated, and deleted only with its client (the cascade of an
-- erasure, when the client row is already gone).
-- (the migration runner splits statements at a semicolon ending a line: the body keeps its own mid-line)
CREATE FUNCTION activity_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM clients WHERE id = OLD.client_id) THEN RETURN OLD; END IF; RAISE EXCEPTION 'activity_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege'; END
$$;
CREATE TRIGGER activity_events_append_only BEFORE UPDATE OR DELETE ON activity_events
  FOR EACH ROW EXECUTE FUNCTION activity_events_append_only();
