-- Webhooks: the owner's subscriptions, and a durable outbox of their deliveries.
--
-- A delivery row is written by the same statement, in the same transaction, as the change it reports (an order
-- placed, its status changed, a product saved or deleted), one row per active webhook of the topic: a crash after
-- the commit loses no webhook, a rolled-back change sends none. Senders in every process claim due rows the way
-- the mail outbox does (`next_attempt_at` doubles as the claim's lease). The body is built at the first attempt
-- and kept, so retries send the same bytes with the same signature and delivery id.
CREATE TABLE webhooks (
  id            INTEGER PRIMARY KEY,
  name          TEXT NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('active', 'paused', 'disabled')),
  topic         TEXT NOT NULL,
  delivery_url  TEXT NOT NULL,
  secret        TEXT NOT NULL,
  api_version   TEXT NOT NULL DEFAULT 'wp_api_v3',
  -- Consecutive failed attempts; a success sets it back to 0, and the fifth failure in a row disables the webhook.
  failure_count INTEGER NOT NULL DEFAULT 0,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
CREATE INDEX webhooks_topic_status ON webhooks (topic, status);

CREATE TABLE webhook_deliveries (
  id              INTEGER PRIMARY KEY,
  webhook_id      INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  topic           TEXT NOT NULL,
  resource_id     INTEGER NOT NULL,
  payload         TEXT,
  status          TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'delivered', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  created_at      INTEGER NOT NULL,
  delivered_at    INTEGER
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, id);

-- The delivery log the back office shows: one row per attempt (the newest 25 per webhook are kept, as WooCommerce).
CREATE TABLE webhook_attempts (
  id              INTEGER PRIMARY KEY,
  webhook_id      INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  delivery_id     INTEGER NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt         INTEGER NOT NULL,
  attempted_at    INTEGER NOT NULL,
  response_status INTEGER,
  duration_ms     INTEGER NOT NULL,
  error           TEXT
);
CREATE INDEX webhook_attempts_webhook ON webhook_attempts (webhook_id, id);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id);
