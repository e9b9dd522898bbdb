import type { PriceRange } from '../../shared/catalog/types';
import { formatMoney } from '../../shared/money/formatMoney';
import { useShopSettings } from '../ShopSettingsContext';

export function useFormatMoney() {
  const { currency } = useShopSettings().shop;
  return (amount: number) => formatMoney(amount, currency);
}

/** A price as WooCommerce shows it: a range for variable products, the regular price struck through on sale. */
export function Price({ price }: { price: PriceRange }) {
  const format = useFormatMoney();
  if (price.min === null) return null;
  if (price.max !== null && price.max !== price.min) {
    return (
      <span className="price">
        {format(price.min)} – {format(price.max)}
      </span>
    );
  }
  if (price.onSale && price.regular !== null) {
    return (
      <span className="price">
        <span className="screen-reader-text">Original price was: </span>
        <del>{format(price.regular)}</del> <span className="screen-reader-text">Current price is: </span>
        <ins>{format(price.min)}</ins>
      </span>
    );
  }
  return <span className="price">{format(price.min)}</span>;
}
