import { useEffect, useState } from 'react';

function itemsInCart(): number {
  const match = /(?:^|;\s*)woocommerce_items_in_cart=([^;]*)/.exec(document.cookie);
  return match?.[1] ? Number(decodeURIComponent(match[1])) || 0 : 0;
}

interface CartSummary {
  count: string;
  total: string;
}

/**
 * The count and total the page's header cart fragment (`a.cart-contents`) shows: the cart script replaces that
 * fragment before it fires its events, so reading it then gives the cart's current state without a request.
 */
function readCartSummary(): CartSummary {
  return {
    count: document.querySelector('.cart-contents .cart-contents__count')?.textContent?.trim() ?? '',
    total: document.querySelector('.cart-contents .cart-contents__total')?.textContent?.trim() ?? '',
  };
}

const CART_CHANGED_EVENTS = [
  'added_to_cart',
  'removed_from_cart',
  'wc_fragments_loaded',
  'wc_fragments_refreshed',
  'wc_fragments_ajax_error',
] as const;

/**
 * The mini-cart widget in the search bar: a link to the cart page with the item count and
 * total, hidden when set to hide-if-empty and the woocommerce_items_in_cart cookie is not above 0, shown while
 * an item is being added.
 */
export function SearchMiniCart({ hideIfEmpty, cartUrl }: { hideIfEmpty: boolean; cartUrl: string }) {
  const [count, setCount] = useState<number | null>(null);
  const [summary, setSummary] = useState<CartSummary>({ count: '', total: '' });
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    setCount(itemsInCart());
    setSummary(readCartSummary());
    const onAdding = () => setAdding(true);
    const onChanged = () => {
      setAdding(false);
      setCount(itemsInCart());
      setSummary(readCartSummary());
    };
    document.addEventListener('adding_to_cart', onAdding);
    for (const name of CART_CHANGED_EVENTS) document.addEventListener(name, onChanged);
    return () => {
      document.removeEventListener('adding_to_cart', onAdding);
      for (const name of CART_CHANGED_EVENTS) document.removeEventListener(name, onChanged);
    };
  }, []);

  const hidden = hideIfEmpty && !adding && !((count ?? 0) > 0);
  return (
    <a href={cartUrl} className={`shop-search__mini-cart${adding ? ' is-adding' : ''}`} hidden={hidden}>
      Cart
      {summary.count ? (
        <>
          {' '}
          <span className="shop-search__mini-cart-count">{summary.count}</span>
        </>
      ) : null}
      {summary.total ? (
        <>
          {' '}
          <span className="shop-search__mini-cart-total">{summary.total}</span>
        </>
      ) : null}
    </a>
  );
}
