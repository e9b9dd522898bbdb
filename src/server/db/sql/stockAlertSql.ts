/*
 * Back-in-stock alerts' statements, written once for both engines (`@name` placeholders: SQLite's own, PostgreSQL's
 * through queryNamed).
 */

/** The product an alert would wait for, with what decides whether it may be waited for. */
export const ALERT_TARGET = `SELECT p.id AS id, p.type AS type, p.status AS status, p.stock_status AS stock_status,
    p.stock_quantity AS stock_quantity, parent.status AS parent_status, COALESCE(parent.slug, p.slug) AS slug
  FROM products p LEFT JOIN products parent ON parent.id = p.parent_id
  WHERE p.id = @productId`;

export interface AlertTargetRow {
  id: number;
  type: string;
  status: string;
  stock_status: string;
  stock_quantity: number | null;
  parent_status: string | null;
  slug: string | null;
}

/** Whether a shopper may wait for this product: published (a variation: its parent too), simple, variable or a variation. */
export function alertTargetExists(row: AlertTargetRow | undefined): row is AlertTargetRow {
  if (row?.status !== 'publish') return false;
  if (row.type === 'variation') return row.parent_status === 'publish';
  return row.type === 'simple' || row.type === 'variable';
}

/** The same rule as the trigger and purchasableQuantity: not out of stock, and a managed stock above zero unless on backorder. */
export function isAvailable(row: { stock_status: string; stock_quantity: number | null }): boolean {
  if (row.stock_status === 'outofstock') return false;
  return row.stock_status === 'onbackorder' || row.stock_quantity === null || Number(row.stock_quantity) > 0;
}

export const INSERT_ALERT = `INSERT INTO stock_alerts (product_id, email, email_key, created_at)
  VALUES (@productId, @email, @emailKey, @now) ON CONFLICT (product_id, email_key) DO NOTHING`;

export const DUE_ALERTS = `SELECT a.id AS id, a.product_id AS product_id, a.email AS email, a.email_key AS email_key,
    p.name AS product_name, COALESCE(parent.slug, p.slug) AS product_slug
  FROM stock_alerts a JOIN products p ON p.id = a.product_id LEFT JOIN products parent ON parent.id = p.parent_id
  WHERE a.due = 1 ORDER BY a.id LIMIT @limit`;

export interface DueAlertRow {
  id: number;
  product_id: number;
  email: string;
  email_key: string;
  product_name: string;
  product_slug: string | null;
}

export const QUEUE_ALERT_MAIL = `INSERT INTO mail_outbox
  (kind, order_id, recipient, subject, text_body, html_body, next_attempt_at, created_at)
  VALUES ('back_in_stock', NULL, @recipient, @subject, @text, @html, @now, @now)`;

export const DELETE_ALERT = 'DELETE FROM stock_alerts WHERE id = @id';
export const HAS_DUE = 'SELECT 1 AS due FROM stock_alerts WHERE due = 1 LIMIT 1';
export const UNSUBSCRIBE = 'DELETE FROM stock_alerts WHERE email_key = @emailKey';

export function toDueAlert(row: DueAlertRow) {
  return {
    id: Number(row.id),
    productId: Number(row.product_id),
    email: row.email,
    emailKey: row.email_key,
    productName: row.product_name,
    productSlug: row.product_slug ?? '',
  };
}
