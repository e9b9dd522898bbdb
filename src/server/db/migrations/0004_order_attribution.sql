-- Order attribution: where each order's buyer came from, as the checkout's hidden inputs carried it
-- (docs/contract.md "Checkout attribution inputs"). One row per order that had attribution; written in the order's
-- transaction. Lengths are bounded by the server before they get here.
CREATE TABLE order_attribution (
  order_id             INTEGER PRIMARY KEY REFERENCES orders(id) ON DELETE CASCADE,
  source_type          TEXT NOT NULL,
  referrer             TEXT,
  utm_campaign         TEXT,
  utm_source           TEXT,
  utm_medium           TEXT,
  utm_content          TEXT,
  utm_id               TEXT,
  utm_term             TEXT,
  utm_source_platform  TEXT,
  utm_creative_format  TEXT,
  utm_marketing_tactic TEXT,
  session_entry        TEXT,
  session_start_time   TEXT,
  session_pages        INTEGER,
  session_count        INTEGER,
  user_agent           TEXT,
  device_type          TEXT NOT NULL,
  current_page         TEXT,
  promo_code           TEXT
);
CREATE INDEX order_attribution_source ON order_attribution(source_type, utm_source, utm_medium);
