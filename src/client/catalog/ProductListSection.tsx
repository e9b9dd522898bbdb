import type { ProductSummary } from '../../shared/catalog/types';
import { ProductGrid } from './ProductCard';

/** A titled list of product cards under a page's own heading (related products, upsells, cross-sells). */
export function ProductListSection({
  id,
  title,
  products,
  className,
}: {
  /** The heading's id, which names the section for assistive technology. */
  id: string;
  title: string;
  products: ProductSummary[];
  className: string;
}) {
  if (products.length === 0) return null;
  return (
    <section className={`product-list-section ${className}`} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ProductGrid products={products} titleLevel={3} />
    </section>
  );
}
