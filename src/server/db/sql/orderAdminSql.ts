import { purchasableQuantity } from '../../../shared/catalog/purchasable';
import { ShopError } from '../../../shared/errors/ShopError';
import { isOrderStatus, SALES_STATUSES } from '../../../shared/orders/orderStatus';
import type { DailySales, OrderListQuery, OrderNote, OrderNoteAuthor, OrderSummary } from '../ports';
import type { SqlDialect } from './dialect';

/*
 * The back office's order SQL, alike on both engines but for reading the billing JSON. Statements use `@name`
 * placeholders (SQLite binds them; PostgreSQL's adapter turns them into `$n` with queryNamed).
 */

function billingField(dialect: SqlDialect, field: 'email' | 'firstName' | 'lastName'): string {
  return dialect === 'sqlite' ? `json_extract(o.billing, '$.${field}')` : `(o.billing::jsonb ->> '${field}')`;
}

function customerName(dialect: SqlDialect): string {
  return `TRIM(COALESCE(${billingField(dialect, 'firstName')}, '') || ' ' || COALESCE(${billingField(dialect, 'lastName')}, ''))`;
}

/** The WHERE clause and its values for a list query: status filter, then number, email or name. */
function listFilter(dialect: SqlDialect, query: OrderListQuery) {
  const conditions: string[] = [];
  const params: Record<string, unknown> = {};
  if (query.status) {
    conditions.push('o.status = @status');
    params.status = query.status;
  }
  if (query.statuses !== undefined) {
    // Bound one by one (@s0, @s1…), each a known status, so nothing of the request reaches the SQL text.
    const names = query.statuses.map((_, index) => `@s${index}`);
    conditions.push(names.length > 0 ? `o.status IN (${names.join(', ')})` : '1 = 0');
    query.statuses.forEach((status, index) => {
      params[`s${index}`] = status;
    });
  }
  // created_at is ISO 8601 text in UTC on both engines, so text order is time order.
  if (query.after !== undefined) {
    conditions.push('o.created_at > @after');
    params.after = query.after;
  }
  if (query.before !== undefined) {
    conditions.push('o.created_at < @before');
    params.before = query.before;
  }
  const search = query.search.trim();
  const hashNumber = /^#(\d{1,15})$/.exec(search)?.[1];
  if (hashNumber !== undefined) {
    // `#12` names an order: found by its key, without scanning the customers' details.
    conditions.push('o.id = @number');
    params.number = Number(hashNumber);
  } else if (search !== '') {
    const number = /^\d{1,15}$/.exec(search)?.[0];
    params.like = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    params.number = number === undefined ? -1 : Number(number);
    conditions.push(
      `(o.id = @number OR LOWER(${billingField(dialect, 'email')}) LIKE @like ESCAPE '\\' OR LOWER(${customerName(dialect)}) LIKE @like ESCAPE '\\')`,
    );
  }
  return { where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

export function orderListSql(dialect: SqlDialect, query: OrderListQuery) {
  const { where, params } = listFilter(dialect, query);
  const quote = (name: string) => (dialect === 'postgres' ? `"${name}"` : name);
  return {
    list: `SELECT o.id, o.created_at AS ${quote('createdAt')}, o.status, ${customerName(dialect)} AS ${quote('customerName')},
        COALESCE(${billingField(dialect, 'email')}, '') AS email,
        (SELECT COALESCE(SUM(i.quantity), 0) FROM order_items i WHERE i.order_id = o.id) AS ${quote('itemCount')},
        o.total, o.currency, a.source_type AS ${quote('sourceType')}, a.utm_source AS ${quote('utmSource')}
      FROM orders o LEFT JOIN order_attribution a ON a.order_id = o.id
      ${where}
      ORDER BY o.created_at DESC, o.id DESC
      LIMIT @limit OFFSET @offset`,
    count: `SELECT COUNT(*) AS n FROM orders o ${where}`,
    params: { ...params, limit: query.perPage, offset: (query.page - 1) * query.perPage },
  };
}

/** Sales per UTC day (OrderAdminRepository.salesByDay): @from and @to are ISO instants. */
export function salesByDaySql(): string {
  const statuses = SALES_STATUSES.map((status) => `'${status}'`).join(', ');
  return `SELECT substr(o.created_at, 1, 10) AS day, COUNT(*) AS orders, SUM(o.total) AS sales,
      SUM(o.tax_total) AS tax, SUM(o.shipping_total) AS shipping, SUM(COALESCE(it.items, 0)) AS items
    FROM orders o
    LEFT JOIN (SELECT order_id, SUM(quantity) AS items FROM order_items GROUP BY order_id) it ON it.order_id = o.id
    WHERE o.status IN (${statuses}) AND o.created_at >= @from AND o.created_at < @to
    GROUP BY substr(o.created_at, 1, 10)
    ORDER BY day`;
}

export function toDailySales(row: Record<string, unknown>): DailySales {
  return {
    day: String(row.day),
    orders: Number(row.orders),
    sales: Number(row.sales ?? 0),
    tax: Number(row.tax ?? 0),
    shipping: Number(row.shipping ?? 0),
    items: Number(row.items ?? 0),
  };
}

export function toOrderSummary(row: Record<string, unknown>): OrderSummary {
  const status = String(row.status);
  if (!isOrderStatus(status)) throw new Error(`Order ${row.id} has an unknown status ${status}`);
  return {
    id: Number(row.id),
    createdAt: String(row.createdAt),
    status,
    customerName: String(row.customerName ?? ''),
    email: String(row.email ?? ''),
    itemCount: Number(row.itemCount),
    total: Number(row.total),
    currency: String(row.currency),
    sourceType: (row.sourceType as string | null) ?? null,
    utmSource: (row.utmSource as string | null) ?? null,
  };
}

export function toOrderNote(row: Record<string, unknown>): OrderNote {
  return {
    id: Number(row.id),
    author: row.author as OrderNoteAuthor,
    text: String(row.text),
    createdAt: String(row.createdAt),
  };
}

export const SELECT_NOTES = `SELECT id, author, body AS text, created_at AS "createdAt"
  FROM order_notes WHERE order_id = @orderId ORDER BY id`;

/** Adds a note only when the order exists (one statement: no note can outlive a deleted order). */
export const INSERT_NOTE = `INSERT INTO order_notes (order_id, author, body)
  SELECT id, @author, @text FROM orders WHERE id = @orderId
  RETURNING id, author, body AS text, created_at AS "createdAt"`;

/** Sets the order's customer-provided note; no row when there is no such order. */
export const UPDATE_CUSTOMER_NOTE = `UPDATE orders SET customer_note = @text WHERE id = @orderId RETURNING id`;

export const SELECT_ORDER_LINES_STOCK = `SELECT COALESCE(variation_id, product_id) AS "itemId", product_id AS "productId",
  quantity FROM order_items WHERE order_id = @orderId ORDER BY id`;

export const SELECT_STOCK = 'SELECT id, parent_id, stock_status, stock_quantity FROM products WHERE id = @id';

/** Gives a line back to stock; an item sold out by orders is back in stock when some return. */
export const RETURN_STOCK = `UPDATE products SET stock_quantity = stock_quantity + @quantity,
    stock_status = CASE WHEN stock_status = 'outofstock' AND stock_quantity + @quantity > 0 THEN 'instock' ELSE stock_status END
  WHERE id = @id AND stock_quantity IS NOT NULL`;

/** Takes a line from stock again (as placing the order did). */
export const TAKE_STOCK = `UPDATE products SET stock_quantity = stock_quantity - @quantity,
    stock_status = CASE WHEN stock_status = 'instock' AND stock_quantity - @quantity <= 0 THEN 'outofstock' ELSE stock_status END
  WHERE id = @id AND stock_quantity IS NOT NULL`;

export interface StockLine {
  itemId: number;
  productId: number;
  quantity: number;
}

/** An order brought back from cancelled takes its items again, and is refused when they are no longer there. */
export function assertStockToRetake(
  orderId: number,
  line: StockLine,
  row: { stock_status: string; stock_quantity: number | null } | undefined,
) {
  if (!row) return; // A deleted product has no stock to take.
  const available = purchasableQuantity({
    stockStatus: row.stock_status,
    stockQuantity: row.stock_quantity === null ? null : Number(row.stock_quantity),
  });
  if (available !== null && available < line.quantity) {
    throw new ShopError(
      'out_of_stock',
      `Order #${orderId} needs ${line.quantity} of product #${line.itemId}, but only ${available} are in stock: its status was not changed.`,
    );
  }
}
