-- The fleet view's activations per day: a client's `activated` lines of the last 90 days. Without
-- it the client's index reads every kind of line in the window (three times the rows on a
-- generated set of 3,000,000 lines); with it only the activations, their license id included.
CREATE INDEX activity_events_activations_idx ON activity_events (client_id, created_at) INCLUDE (license_id) WHERE kind = 'activated';
