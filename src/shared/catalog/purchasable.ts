import type { StockStatus } from './types';

/**
 * How many of a product or variation a shopper can buy now: `null` for no limit, 0 for none. The one rule the
 * product page (variations' `max_qty`), the cart and the order's transaction all apply, so what the cart accepts
 * checkout accepts too. A product on backorder sells beyond its stock, as WooCommerce's "allow backorders" does;
 * a managed stock limits an in-stock product to what is left.
 */
export function purchasableQuantity(stock: {
  stockStatus: StockStatus | string;
  stockQuantity: number | null;
}): number | null {
  if (stock.stockStatus === 'outofstock') return 0;
  if (stock.stockStatus === 'onbackorder') return null;
  return stock.stockQuantity === null ? null : Math.max(stock.stockQuantity, 0);
}
