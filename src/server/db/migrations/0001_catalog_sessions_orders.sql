-- The catalog, visitor sessions (carts) and orders. Money is in integer minor units (cents).

CREATE TABLE options (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE terms (
  id          INTEGER PRIMARY KEY,
  taxonomy    TEXT NOT NULL CHECK (taxonomy IN ('product_cat', 'product_tag', 'product_brand')),
  slug        TEXT NOT NULL,
  name        TEXT NOT NULL,
  parent_id   INTEGER REFERENCES terms(id) ON DELETE SET NULL,
  description TEXT NOT NULL DEFAULT '',
  UNIQUE (taxonomy, slug)
);

CREATE TABLE vendors (
  id        INTEGER PRIMARY KEY,
  slug      TEXT NOT NULL UNIQUE,
  name      TEXT NOT NULL,
  store_url TEXT,
  city      TEXT
);

-- Parents, simple products and variations share one table, as in WooCommerce, so a cart line or an
-- order line can point at either by id.
CREATE TABLE products (
  id                INTEGER PRIMARY KEY,
  type              TEXT NOT NULL CHECK (type IN ('simple', 'variable', 'grouped', 'external', 'variation')),
  parent_id         INTEGER REFERENCES products(id) ON DELETE CASCADE,
  sku               TEXT UNIQUE,
  slug              TEXT UNIQUE,
  name              TEXT NOT NULL,
  status            TEXT NOT NULL DEFAULT 'publish' CHECK (status IN ('publish', 'draft')),
  featured          INTEGER NOT NULL DEFAULT 0,
  visibility        TEXT NOT NULL DEFAULT 'visible' CHECK (visibility IN ('visible', 'catalog', 'search', 'hidden')),
  short_description TEXT NOT NULL DEFAULT '',
  description       TEXT NOT NULL DEFAULT '',
  regular_price     INTEGER,
  sale_price        INTEGER,
  stock_status      TEXT NOT NULL DEFAULT 'instock' CHECK (stock_status IN ('instock', 'outofstock', 'onbackorder')),
  stock_quantity    INTEGER,
  sold_individually INTEGER NOT NULL DEFAULT 0,
  is_virtual        INTEGER NOT NULL DEFAULT 0,
  is_downloadable   INTEGER NOT NULL DEFAULT 0,
  external_url      TEXT,
  button_text       TEXT,
  menu_order        INTEGER NOT NULL DEFAULT 0,
  rating_average    REAL NOT NULL DEFAULT 0,
  rating_count      INTEGER NOT NULL DEFAULT 0,
  total_sales       INTEGER NOT NULL DEFAULT 0,
  vendor_id         INTEGER REFERENCES vendors(id) ON DELETE SET NULL,
  -- Derived from variations or grouped children on every catalog write (WooCommerce's product lookup table),
  -- so listings sort and filter by price and stock without a join.
  price_min         INTEGER,
  price_max         INTEGER,
  created_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX products_parent ON products(parent_id);
CREATE INDEX products_listing ON products(type, status, visibility);

CREATE TABLE product_terms (
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  term_id    INTEGER NOT NULL REFERENCES terms(id) ON DELETE CASCADE,
  PRIMARY KEY (product_id, term_id)
);
CREATE INDEX product_terms_term ON product_terms(term_id);

-- Images keep where they came from; the shop draws a local placeholder instead of loading an external host.
CREATE TABLE product_images (
  id         INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  position   INTEGER NOT NULL,
  source_url TEXT NOT NULL,
  alt        TEXT NOT NULL DEFAULT '',
  color      TEXT NOT NULL,
  UNIQUE (product_id, position)
);

CREATE TABLE product_downloads (
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  position   INTEGER NOT NULL,
  name       TEXT NOT NULL,
  url        TEXT NOT NULL,
  PRIMARY KEY (product_id, position)
);

CREATE TABLE grouped_children (
  parent_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  child_id  INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  position  INTEGER NOT NULL,
  PRIMARY KEY (parent_id, child_id)
);

CREATE TABLE attributes (
  id          INTEGER PRIMARY KEY,
  slug        TEXT NOT NULL UNIQUE,
  name        TEXT NOT NULL,
  swatch_type TEXT NOT NULL DEFAULT 'label' CHECK (swatch_type IN ('color', 'image', 'label', 'radio', 'select'))
);

CREATE TABLE attribute_terms (
  id           INTEGER PRIMARY KEY,
  attribute_id INTEGER NOT NULL REFERENCES attributes(id) ON DELETE CASCADE,
  slug         TEXT NOT NULL,
  name         TEXT NOT NULL,
  color        TEXT,
  image        TEXT,
  UNIQUE (attribute_id, slug)
);

CREATE TABLE product_attributes (
  product_id     INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  attribute_id   INTEGER NOT NULL REFERENCES attributes(id) ON DELETE CASCADE,
  position       INTEGER NOT NULL,
  visible        INTEGER NOT NULL DEFAULT 1,
  for_variations INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (product_id, attribute_id)
);

CREATE TABLE product_attribute_terms (
  product_id   INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  attribute_id INTEGER NOT NULL REFERENCES attributes(id) ON DELETE CASCADE,
  term_id      INTEGER NOT NULL REFERENCES attribute_terms(id) ON DELETE CASCADE,
  position     INTEGER NOT NULL,
  PRIMARY KEY (product_id, attribute_id, term_id)
);

-- A variation's value for an attribute; term_id NULL means "any value" (WooCommerce's empty attribute).
CREATE TABLE variation_attributes (
  variation_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  attribute_id INTEGER NOT NULL REFERENCES attributes(id) ON DELETE CASCADE,
  term_id      INTEGER REFERENCES attribute_terms(id) ON DELETE CASCADE,
  PRIMARY KEY (variation_id, attribute_id)
);

CREATE TABLE posts (
  id            INTEGER PRIMARY KEY,
  type          TEXT NOT NULL CHECK (type IN ('post', 'page')),
  slug          TEXT NOT NULL UNIQUE,
  title         TEXT NOT NULL,
  excerpt       TEXT NOT NULL DEFAULT '',
  content       TEXT NOT NULL DEFAULT '',
  password_hash TEXT,
  published_at  TEXT NOT NULL
);

CREATE TABLE sessions (
  id         TEXT PRIMARY KEY,
  cart       TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_expiry ON sessions(expires_at);

CREATE TABLE orders (
  id              INTEGER PRIMARY KEY,
  order_key       TEXT NOT NULL UNIQUE,
  status          TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'on-hold', 'completed', 'cancelled')),
  currency        TEXT NOT NULL,
  subtotal        INTEGER NOT NULL,
  total           INTEGER NOT NULL,
  payment_method  TEXT NOT NULL,
  billing         TEXT NOT NULL,
  customer_note   TEXT NOT NULL DEFAULT '',
  session_id      TEXT,
  created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE order_items (
  id           INTEGER PRIMARY KEY,
  order_id     INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  product_id   INTEGER NOT NULL,
  variation_id INTEGER,
  name         TEXT NOT NULL,
  sku          TEXT,
  attributes   TEXT NOT NULL DEFAULT '{}',
  quantity     INTEGER NOT NULL CHECK (quantity > 0),
  unit_price   INTEGER NOT NULL,
  line_total   INTEGER NOT NULL
);
CREATE INDEX order_items_order ON order_items(order_id);
