import { PRODUCT_ORDERINGS, type ProductOrdering } from '../../shared/catalog/types';

const LABELS: Record<ProductOrdering, string> = {
  menu_order: 'Default sorting',
  popularity: 'Sort by popularity',
  rating: 'Sort by average rating',
  date: 'Sort by latest',
  price: 'Sort by price: low to high',
  'price-desc': 'Sort by price: high to low',
};

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
  return (
    <form className="woocommerce-ordering" method="get">
      <label htmlFor="orderby" className="screen-reader-text">
        Shop order
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
            {LABELS[ordering]}
          </option>
        ))}
      </select>
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <noscript>
        <button type="submit">Sort</button>
      </noscript>
    </form>
  );
}
