-- Order mail goes through a durable outbox: a row is written when the event happens (an order placed, its status
-- changed), holding the message as it was rendered then, and a sender loop in every process delivers it later, so
-- a slow or broken mail server never holds up or fails an order. `next_attempt_at` doubles as the claim: a sender
-- moves it past now before sending, so another process skips the row, and a sender that dies mid-send only delays
-- it. One mail of a kind per order: a status changed twice at once queues its mail once.
CREATE TABLE mail_outbox (
  id              INTEGER PRIMARY KEY,
  kind            TEXT NOT NULL,
  order_id        INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  recipient       TEXT NOT NULL,
  subject         TEXT NOT NULL,
  text_body       TEXT NOT NULL,
  html_body       TEXT NOT NULL,
  status          TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  last_error      TEXT,
  next_attempt_at INTEGER NOT NULL,
  created_at      INTEGER NOT NULL,
  sent_at         INTEGER
);
CREATE UNIQUE INDEX mail_outbox_order_kind ON mail_outbox (order_id, kind);
CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_at);
