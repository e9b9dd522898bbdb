import { createContext, useContext } from 'react';
import type { ProductSummary } from '../../shared/catalog/types';
import { productUrl } from '../../shared/catalog/urls';
import { Island } from '../Island';
import CardSwatches from '../product/CardSwatches';
import { useShopSettings } from '../ShopSettingsContext';
import { Price } from './Price';
import { StarRating } from './StarRating';

type TitleLevel = 2 | 3;

/**
 * The inner HTML of a card rendered ahead (server/render/cardMarkup.tsx), or null to render it here. Only the server
 * provides one: a card is the same for every visitor and every page that lists the product, until the product changes.
 */
export type CardMarkup = (product: ProductSummary, titleLevel: TitleLevel) => string | null;
export const CardMarkupContext = createContext<CardMarkup | null>(null);

/** One product in a grid: image, name, rating, price and the action its type allows. */
function ProductCard({ product, titleLevel = 3 }: { product: ProductSummary; titleLevel?: TitleLevel }) {
  const prerendered = useContext(CardMarkupContext)?.(product, titleLevel) ?? null;
  if (prerendered !== null) {
    return (
      <li
        className="product-card"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: React's own rendering of ProductCardContent (cardMarkup.tsx)
        dangerouslySetInnerHTML={{ __html: prerendered }}
      />
    );
  }
  return (
    <li className="product-card">
      <ProductCardContent product={product} titleLevel={titleLevel} />
    </li>
  );
}

/** What a card's `<li>` holds; rendered on its own by server/render/cardMarkup.tsx, the same bytes. */
export function ProductCardContent({
  product,
  titleLevel,
}: {
  product: ProductSummary;
  titleLevel: TitleLevel;
}) {
  // The title sits one level under the grid's own heading: h2 under an archive's h1, h3 under a section's h2.
  const Title = titleLevel === 2 ? 'h2' : 'h3';
  const { i18n } = useShopSettings();
  const url = productUrl(product.slug);
  const purchasable =
    product.type === 'simple' && product.stockStatus !== 'outofstock' && product.price.min !== null;
  return (
    <>
      <a href={url} className="product-card__link">
        {product.image ? (
          <img
            src={product.image.src}
            srcSet={product.image.srcSet}
            sizes="(max-width: 600px) 50vw, 300px"
            alt=""
            width={300}
            height={300}
            loading="lazy"
            decoding="async"
          />
        ) : (
          <span className="product-card__noimage" aria-hidden="true" />
        )}
        <Title className="product-card__title">{product.name}</Title>
      </a>
      {product.price.onSale && <span className="badge badge--sale">Sale!</span>}
      <StarRating average={product.ratingAverage} count={product.ratingCount} />
      <Price price={product.price} />
      {product.archiveSwatches && (
        <Island
          name="cardSwatches"
          component={CardSwatches}
          props={{
            productId: product.id,
            productName: product.name,
            productUrl: url,
            swatches: product.archiveSwatches,
          }}
        />
      )}
      {product.stockStatus === 'outofstock' && <p className="stock out-of-stock">{i18n.outOfStock}</p>}
      {purchasable ? (
        <form method="post" action="/cart/" className="product-card__form" data-ajax-add-to-cart="">
          <input type="hidden" name="add-to-cart" value={product.id} />
          <input type="hidden" name="quantity" value="1" />
          <button type="submit" className="button" aria-label={`Add “${product.name}” to your cart`}>
            {i18n.addToCart}
          </button>
        </form>
      ) : (
        <a
          href={url}
          className="button button--secondary"
          aria-label={`${buttonLabel(product, i18n.selectOptions)}: ${product.name}`}
        >
          {buttonLabel(product, i18n.selectOptions)}
        </a>
      )}
    </>
  );
}

function buttonLabel(product: ProductSummary, selectOptions: string): string {
  if (product.type === 'variable') return selectOptions;
  if (product.type === 'grouped') return 'View products';
  if (product.type === 'external') return 'Buy product';
  return 'Read more';
}

export function ProductGrid({
  products,
  titleLevel,
}: {
  products: ProductSummary[];
  titleLevel?: TitleLevel;
}) {
  return (
    <ul className="products">
      {products.map((product) => (
        <ProductCard key={product.id} product={product} titleLevel={titleLevel} />
      ))}
    </ul>
  );
}
