-- Facts the owner's figures need that nothing recorded before.

-- The visit an order came from: the buyer's statistics visitor row of the order's day (stats_visitors), found at
-- checkout. No row when the visit was not recorded (no statistics consent, an anonymous hit, a blocked tracker):
-- such an order is "unattributed" and is never divided by visitors. The visit's source is copied, so an order
-- keeps its source after the statistics' retention has deleted the raw visitor row; the visitor hash (salted per
-- day, the salt deleted with the day) only tells two orders of one visitor apart.
CREATE TABLE order_visits (
  order_id     INTEGER PRIMARY KEY REFERENCES orders(id) ON DELETE CASCADE,
  day          TEXT NOT NULL,
  visitor_hash TEXT NOT NULL,
  source_type  TEXT NOT NULL,
  source       TEXT NOT NULL
);
CREATE INDEX order_visits_day ON order_visits(day);

-- An add-to-cart of a product that an earlier search of the same session found (search_queries, results > 0):
-- the step between a search and a purchase. `order_id` is set when that session places its order. Holds no
-- more than search_queries does: the search engine's keyed session hash, a product id and a time.
CREATE TABLE search_cart_adds (
  id           INTEGER PRIMARY KEY,
  query_id     INTEGER NOT NULL,
  session_hash TEXT NOT NULL,
  product_id   INTEGER NOT NULL,
  created_at   INTEGER NOT NULL,
  order_id     INTEGER
);
CREATE INDEX search_cart_adds_session ON search_cart_adds(session_hash, order_id);
CREATE INDEX search_cart_adds_order ON search_cart_adds(order_id);
