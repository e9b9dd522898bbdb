-- Orders that ship: where the order goes (the billing address unless the shopper gave another, as JSON like
-- `billing`), the shipping method chosen and its cost, and the tax the order carries, so the order-received page
-- and the mails show the totals the shopper was charged. Money in minor units; each line keeps its own tax
-- (tax is rounded per line). Orders made before have no shipping and no tax: the defaults say so.
ALTER TABLE orders ADD COLUMN shipping_address TEXT NOT NULL DEFAULT '{}';
ALTER TABLE orders ADD COLUMN shipping_method_id TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN shipping_method_title TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN shipping_total INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN shipping_tax INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN tax_total INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN tax_label TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN prices_include_tax INTEGER NOT NULL DEFAULT 0;
ALTER TABLE order_items ADD COLUMN line_tax INTEGER NOT NULL DEFAULT 0;
