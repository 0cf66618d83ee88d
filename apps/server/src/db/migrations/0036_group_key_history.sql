-- Group keys in the activity history: making one and changing its size are lines of their own.
ALTER TABLE activity_events DROP CONSTRAINT IF EXISTS activity_events_kind_check;
ALTER TABLE activity_events ADD CONSTRAINT activity_events_kind_check CHECK (kind IN (
  'created', 'generated', 'renamed', 'activated', 'released', 'paused', 'resumed',
  'upgraded', 'paid', 'renewed', 'revoked', 'cancelled', 'reactivated', 'suspended', 'restored',
  'group_key_created', 'group_key_resized'));
