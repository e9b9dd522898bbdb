import { PRODUCT_ORDERINGS, type ProductOrdering } from '../../shared/catalog/types';
import { useShopSettings } from '../ShopSettingsContext';

export interface OrderingSelectProps {
  orderby: ProductOrdering;
  /** Other query parameters of the archive to keep (a search query, for example). */
  keep: Record<string, string>;
}

/**
 * The shop's ordering dropdown (SPEC.md §2 "Theme"): a plain GET form that works without JavaScript through its
 * button, and submits itself on change once hydrated.
 */
export default function OrderingSelect({ orderby, keep }: OrderingSelectProps) {
  const { i18n } = useShopSettings();
  return (
    <form className="woocommerce-ordering" method="get">
      <label htmlFor="orderby" className="screen-reader-text">
        {i18n.shopOrder}
      </label>
      <select
        id="orderby"
        name="orderby"
        className="orderby"
        defaultValue={orderby}
        onChange={(event) => event.currentTarget.form?.requestSubmit()}
      >
        {PRODUCT_ORDERINGS.map((ordering) => (
          <option key={ordering} value={ordering}>
            {i18n.orderings[ordering]}
          </option>
        ))}
      </select>
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <noscript>
        <button type="submit">{i18n.sort}</button>
      </noscript>
    </form>
  );
}
