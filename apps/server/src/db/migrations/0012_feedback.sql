-- What customers tell us through the feedback widget (spec sections 2, 3, 5).
CREATE TABLE feedback (
  id          bigserial PRIMARY KEY,
  client_id   bigint REFERENCES clients(id) ON DELETE SET NULL,
  score       smallint NOT NULL CHECK (score BETWEEN 1 AND 5),
  comment     text NOT NULL DEFAULT '' CHECK (length(comment) <= 500),
  page        text,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_created_idx ON feedback (created_at);
