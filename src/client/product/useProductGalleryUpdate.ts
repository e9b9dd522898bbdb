import { useEffect, useRef } from 'react';
import type { Variation } from '../../shared/catalog/types';

/**
 * Shows the chosen variation's image and SKU in the parts of the product page outside the form (the gallery's
 * main image and the meta's SKU), and puts the product's own back when no variation is chosen, as WooCommerce's
 * variation form does. The page renders those elements on the server; only their content changes here.
 */
export function useProductGalleryUpdate(variation: Variation | null) {
  const original = useRef<{ src: string; srcSet: string; alt: string; sku: string | null } | null>(null);
  useEffect(() => {
    const image = document.querySelector<HTMLImageElement>('.product__gallery > img');
    const sku = document.querySelector<HTMLElement>('.product_meta .sku');
    if (!original.current) {
      original.current = {
        src: image?.getAttribute('src') ?? '',
        srcSet: image?.getAttribute('srcset') ?? '',
        alt: image?.alt ?? '',
        sku: sku?.textContent ?? null,
      };
    }
    const base = original.current;
    if (image) {
      const next = variation?.image ?? null;
      // srcset wins over src where present: both change together (a placeholder has none).
      image.srcset = next ? (next.srcSet ?? '') : base.srcSet;
      image.src = next?.src ?? base.src;
      image.alt = next?.alt ?? base.alt;
    }
    if (sku) sku.textContent = variation?.sku ?? base.sku ?? '';
  }, [variation]);
}
