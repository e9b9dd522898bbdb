import {
  ADMIN_PRODUCT_STATUSES,
  type AdminProductListItem,
  type AdminProductStatus,
  STATUS_LABELS,
} from '../../../shared/catalog/adminProducts';
import type { CurrencyFormat } from '../../../shared/money/formatMoney';
import { priceRange } from './adminMoney';
import { ProductsFrame } from './ProductsFrame';

const STOCK_LABELS = { instock: 'In stock', outofstock: 'Out of stock', onbackorder: 'On backorder' };

export interface ProductsListProps {
  items: AdminProductListItem[];
  total: number;
  page: number;
  pages: number;
  search: string;
  status: AdminProductStatus | null;
  currency: CurrencyFormat;
  /** A line saying what just happened ("Saved."), shown once after a redirect. */
  notice: string | null;
}

function pageHref(search: string, status: AdminProductStatus | null, page: number): string {
  const query = new URLSearchParams();
  if (search) query.set('q', search);
  if (status) query.set('status', status);
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return `/admin/products/${text ? `?${text}` : ''}`;
}

/** The owner's products: search by name or SKU, filter by status, 50 a page, newest first. */
export function ProductsListPage({
  items,
  total,
  page,
  pages,
  search,
  status,
  currency,
  notice,
}: ProductsListProps) {
  return (
    <ProductsFrame title="Products">
      {notice && (
        <p role="status" className="admin-products__notice">
          {notice}
        </p>
      )}
      <ul className="admin-products__actions">
        <li>
          <a href="/admin/products/new">Add product</a>
        </li>
        <li>
          <a href="/admin/products/import">Import CSV</a>
        </li>
        <li>
          <a href="/admin/products/export.csv" download>
            Export CSV
          </a>
        </li>
      </ul>
      <search>
        <form method="get" action="/admin/products/" className="admin-products__filters">
          <label>
            Search by name or SKU
            <input type="search" name="q" defaultValue={search} maxLength={100} />
          </label>
          <label>
            Status
            <select name="status" defaultValue={status ?? ''}>
              <option value="">All</option>
              {ADMIN_PRODUCT_STATUSES.map((each) => (
                <option key={each} value={each}>
                  {STATUS_LABELS[each]}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Filter</button>
        </form>
      </search>
      <p>
        {total === 0
          ? 'No products match.'
          : `${total} product${total === 1 ? '' : 's'}${pages > 1 ? `, page ${page} of ${pages}` : ''}.`}
      </p>
      {items.length > 0 && (
        <table className="admin-table">
          <caption className="screen-reader-text">Products</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">SKU</th>
              <th scope="col">Status</th>
              <th scope="col">Stock</th>
              <th scope="col">Price</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id}>
                <th scope="row" data-label="Name">
                  <a href={`/admin/products/${item.id}/`}>{item.name}</a>
                  {item.type !== 'simple' && <span className="admin-table__type"> ({item.type})</span>}
                </th>
                <td data-label="SKU">{item.sku ?? '—'}</td>
                <td data-label="Status">{STATUS_LABELS[item.status]}</td>
                <td data-label="Stock">
                  {STOCK_LABELS[item.stockStatus]}
                  {item.stockQuantity !== null && ` (${item.stockQuantity})`}
                </td>
                <td data-label="Price">{priceRange(item.priceMin, item.priceMax, currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pages > 1 && (
        <nav aria-label="Pages of products" className="admin-products__pages">
          {page > 1 && <a href={pageHref(search, status, page - 1)}>Previous page</a>}
          {page < pages && <a href={pageHref(search, status, page + 1)}>Next page</a>}
        </nav>
      )}
    </ProductsFrame>
  );
}
