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

-- product.deleted is queued by the database itself, in the transaction of whatever moves a parent product to the
-- trash or deletes it for good (a product deleted from the trash was reported when it went there): every path
-- that does so (the REST API, the back office, scripts) reports it without remembering to. A trashed product's
-- event is due when it went to the trash; a deleted one's at the database's clock.
-- engine: sqlite
CREATE TRIGGER webhooks_product_trashed AFTER UPDATE OF trashed_at ON products
WHEN OLD.trashed_at IS NULL AND NEW.trashed_at IS NOT NULL AND NEW.type <> 'variation'
BEGIN
  INSERT INTO webhook_deliveries (webhook_id, topic, resource_id, next_attempt_at, created_at)
  SELECT id, topic, NEW.id, NEW.trashed_at, NEW.trashed_at FROM webhooks
  WHERE status = 'active' AND topic = 'product.deleted';
END;
CREATE TRIGGER webhooks_product_deleted AFTER DELETE ON products
WHEN OLD.type <> 'variation' AND OLD.trashed_at IS NULL
BEGIN
  INSERT INTO webhook_deliveries (webhook_id, topic, resource_id, next_attempt_at, created_at)
  SELECT id, topic, OLD.id, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER),
    CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
  FROM webhooks WHERE status = 'active' AND topic = 'product.deleted';
END;
-- engine: end
-- engine: postgres
CREATE FUNCTION webhooks_product_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  at_ms BIGINT := CASE WHEN TG_OP = 'UPDATE' THEN NEW.trashed_at
                       ELSE (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT END;
  product_id BIGINT := CASE WHEN TG_OP = 'UPDATE' THEN NEW.id ELSE OLD.id END;
BEGIN
  INSERT INTO webhook_deliveries (webhook_id, topic, resource_id, next_attempt_at, created_at)
  SELECT id, topic, product_id, at_ms, at_ms FROM webhooks WHERE status = 'active' AND topic = 'product.deleted';
  RETURN NULL;
END
$$;
CREATE TRIGGER webhooks_product_trashed AFTER UPDATE OF trashed_at ON products FOR EACH ROW
  WHEN (OLD.trashed_at IS NULL AND NEW.trashed_at IS NOT NULL AND NEW.type <> 'variation')
  EXECUTE FUNCTION webhooks_product_deleted();
CREATE TRIGGER webhooks_product_deleted AFTER DELETE ON products FOR EACH ROW
  WHEN (OLD.type <> 'variation' AND OLD.trashed_at IS NULL)
  EXECUTE FUNCTION webhooks_product_deleted();
-- engine: end
