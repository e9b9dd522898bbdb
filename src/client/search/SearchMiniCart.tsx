import { useEffect, useState } from 'react';

function itemsInCart(): number {
  const match = /(?:^|;\s*)woocommerce_items_in_cart=([^;]*)/.exec(document.cookie);
  return match?.[1] ? Number(decodeURIComponent(match[1])) || 0 : 0;
}

/**
 * The mini-cart widget in the search bar (SPEC.md §2 item 7): hidden when set to hide-if-empty and the
 * woocommerce_items_in_cart cookie is not above 0, shown while an item is being added.
 */
export function SearchMiniCart({ hideIfEmpty }: { hideIfEmpty: boolean }) {
  const [count, setCount] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    setCount(itemsInCart());
    const onAdding = () => setAdding(true);
    const onChanged = () => {
      setAdding(false);
      setCount(itemsInCart());
    };
    document.addEventListener('adding_to_cart', onAdding);
    for (const name of [
      'added_to_cart',
      'removed_from_cart',
      'wc_fragments_refreshed',
      'wc_fragments_ajax_error',
    ]) {
      document.addEventListener(name, onChanged);
    }
    return () => {
      document.removeEventListener('adding_to_cart', onAdding);
      for (const name of [
        'added_to_cart',
        'removed_from_cart',
        'wc_fragments_refreshed',
        'wc_fragments_ajax_error',
      ]) {
        document.removeEventListener(name, onChanged);
      }
    };
  }, []);

  const hidden = hideIfEmpty && !adding && !((count ?? 0) > 0);
  return (
    <a href="/cart/" className={`shop-search__mini-cart${adding ? ' is-adding' : ''}`} hidden={hidden}>
      Cart
    </a>
  );
}
