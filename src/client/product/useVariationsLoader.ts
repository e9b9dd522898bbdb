import { useCallback, useRef, useState } from 'react';
import type { Variation } from '../../shared/catalog/types';
import { wcAjaxUrl } from '../cart/cartEvents';

export interface VariationsLoader {
  /** The product's variations, or null until a large product's have been fetched. */
  variations: Variation[] | null;
  loading: boolean;
  /** Fetches the variations once (later calls do nothing); a failed fetch may be retried by calling again. */
  load(): void;
}

/** The `get_variations` address under the shop's `cart.wcAjaxUrl` template (a shop may serve it elsewhere). */
export function variationsUrl(wcAjaxUrlTemplate: string, productId: number, base: string): string {
  const url = new URL(wcAjaxUrl(wcAjaxUrlTemplate, 'get_variations'), base);
  url.searchParams.set('product_id', String(productId));
  return url.href;
}

/**
 * The variations of a product: inlined in the page, or, for a product above `swatches.lazyVariationsThreshold`,
 * fetched from the `get_variations` endpoint the first time the shopper uses its form.
 */
export function useVariationsLoader(
  productId: number,
  inline: Variation[] | null,
  wcAjaxUrlTemplate: string,
): VariationsLoader {
  const [fetched, setFetched] = useState<Variation[] | null>(null);
  const [loading, setLoading] = useState(false);
  const started = useRef(false);
  const needed = inline === null;
  const load = useCallback(() => {
    if (!needed || started.current) return;
    started.current = true;
    setLoading(true);
    fetch(variationsUrl(wcAjaxUrlTemplate, productId, window.location.href), {
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    })
      .then(async (response) => {
        if (!response.ok) throw new Error(`get_variations answered ${response.status}`);
        const body = (await response.json()) as { variations: Variation[] };
        setFetched(body.variations);
      })
      .catch(() => {
        // Leave every value selectable; the server still checks the choice when the form is sent.
        started.current = false;
      })
      .finally(() => setLoading(false));
  }, [needed, productId, wcAjaxUrlTemplate]);
  return { variations: inline ?? fetched, loading, load };
}
