-- Webhook endpoints of an account and the deliveries of the events they subscribe to. A delivery row
-- is written in the transaction of the change that emits the event (like the mail outbox); a job
-- posts it, signed with the endpoint's secret, and retries with back-off.
CREATE TABLE webhook_endpoints (
  id          bigserial PRIMARY KEY,
  client_id   bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  created_by  bigint REFERENCES clients(id) ON DELETE SET NULL,
  url         text NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
  events      text[] NOT NULL CHECK (cardinality(events) > 0),
  -- the HMAC key of the signatures (whsec_…), shown to the owner so a receiver can verify them
  secret      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE INDEX webhook_endpoints_client_idx ON webhook_endpoints (client_id) WHERE deleted_at IS NULL;

CREATE TABLE webhook_deliveries (
  id                 bigserial PRIMARY KEY,
  endpoint_id        bigint NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  client_id          bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  event              text NOT NULL,
  -- the event as sent: {id, type, created_at, data}; the same body on every attempt
  body               text NOT NULL,
  status             text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts           int NOT NULL DEFAULT 0,
  last_response_code int,
  last_error         text,
  created_at         timestamptz NOT NULL DEFAULT now(),
  last_attempt_at    timestamptz,
  delivered_at       timestamptz
);
CREATE INDEX webhook_deliveries_client_idx ON webhook_deliveries (client_id, id DESC);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, id DESC);
