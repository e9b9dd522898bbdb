import { renderToStaticMarkup } from 'react-dom/server';
import type { ProductDetail, ProductSummary } from '../../shared/catalog/types';
import { productUrl } from '../../shared/catalog/urls';
import type { ShopConfig } from '../../shared/settings/settingsSchema';

/*
 * The details panel beside the suggestions, rendered to static markup on
 * the server: React escapes every text, so a product name can never become markup in the shopper's page.
 */

interface PanelProps {
  config: ShopConfig;
}

/** A product (or one variation of it): image, title, price, stock, short description and add to cart. */
function ProductDetails({
  product,
  priceMarkup,
  variationId,
  title,
  url,
  sku,
  inStock,
  attributes,
  config,
}: PanelProps & {
  product: ProductDetail;
  priceMarkup: string;
  variationId: number | null;
  title: string;
  url: string;
  sku: string | null;
  inStock: boolean;
  /** A variation's chosen values; one left as "any" must be chosen on the product page. */
  attributes: Record<string, string> | null;
}) {
  const { i18n, search } = config;
  const image = product.images[0];
  const purchasable =
    inStock &&
    priceMarkup !== '' &&
    (product.type === 'simple' ||
      (variationId !== null && Object.values(attributes ?? {}).every((value) => value !== '')));
  return (
    <div className="search-details search-details--product">
      {image && (
        <a href={url} className="search-details__image">
          <img src={image.src} alt={image.alt} width={300} height={300} loading="lazy" decoding="async" />
        </a>
      )}
      <h3 className="search-details__title">
        <a href={url}>{title}</a>
      </h3>
      {sku && search.show.sku && (
        <p className="search-details__sku">
          {search.labels.sku} {sku}
        </p>
      )}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: price markup is built by priceHtml, which escapes every text */}
      {priceMarkup && <p className="price" dangerouslySetInnerHTML={{ __html: priceMarkup }} />}
      <p className={inStock ? 'stock in-stock' : 'stock out-of-stock'}>
        {inStock ? i18n.inStock : i18n.outOfStock}
      </p>
      {product.shortDescription && (
        <div
          className="search-details__desc"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: descriptions are sanitized on write (sanitizeRichText)
          dangerouslySetInnerHTML={{ __html: product.shortDescription }}
        />
      )}
      {purchasable ? (
        // The theme's ajax add-to-cart takes this form like the product cards' (adding_to_cart, added_to_cart,
        // fragments, drawer); without JavaScript it is an ordinary post to the cart page.
        <form
          method="post"
          action={config.cart.cartUrl}
          className="search-details__cart"
          data-ajax-add-to-cart=""
        >
          <input type="hidden" name="add-to-cart" value={product.id} />
          {variationId !== null && <input type="hidden" name="variation_id" value={variationId} />}
          {Object.entries(attributes ?? {}).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <label>
            {i18n.quantity}{' '}
            <input type="number" name="quantity" defaultValue={1} min={1} step={1} inputMode="numeric" />
          </label>
          <button type="submit" className="button">
            {i18n.addToCart}
          </button>
        </form>
      ) : (
        <a href={url} className="button button--secondary">
          {product.type === 'variable' ? i18n.selectOptions : 'View product'}
        </a>
      )}
    </div>
  );
}

/** A category, tag, brand or vendor: its name, description and top products. */
function ListDetails({
  title,
  description,
  url,
  products,
  priceOf,
}: {
  title: string;
  description: string;
  url: string;
  products: ProductSummary[];
  priceOf: (product: ProductSummary) => string;
}) {
  return (
    <div className="search-details search-details--list">
      <h3 className="search-details__title">
        <a href={url}>{title}</a>
      </h3>
      {description && <p className="search-details__desc">{description}</p>}
      <ul className="search-details__products">
        {products.map((product) => (
          <li key={product.id}>
            <a href={productUrl(product.slug)}>
              {product.image && <img src={product.image.src} alt="" width={64} height={64} loading="lazy" />}
              <span>{product.name}</span>
            </a>
            {/* biome-ignore lint/security/noDangerouslySetInnerHtml: price markup is built by priceHtml, which escapes every text */}
            <span className="price" dangerouslySetInnerHTML={{ __html: priceOf(product) }} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function PostDetails({ title, excerpt, url }: { title: string; excerpt: string; url: string }) {
  return (
    <div className="search-details search-details--post">
      <h3 className="search-details__title">
        <a href={url}>{title}</a>
      </h3>
      {excerpt && <p className="search-details__desc">{excerpt}</p>}
    </div>
  );
}

export const renderProductDetails = (props: Parameters<typeof ProductDetails>[0]) =>
  renderToStaticMarkup(<ProductDetails {...props} />);
export const renderListDetails = (props: Parameters<typeof ListDetails>[0]) =>
  renderToStaticMarkup(<ListDetails {...props} />);
export const renderPostDetails = (props: Parameters<typeof PostDetails>[0]) =>
  renderToStaticMarkup(<PostDetails {...props} />);
