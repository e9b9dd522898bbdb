import type { ProductDetail, ProductSummary } from '../../shared/catalog/types';
import { productUrl, termUrl, vendorUrl } from '../../shared/catalog/urls';
import { choicesFromQuery } from '../../shared/catalog/variations/choicesFromQuery';
import { formatText } from '../../shared/settings/formatText';
import { QuantityInput } from '../cart/QuantityInput';
import { Price } from '../catalog/Price';
import { ProductListSection } from '../catalog/ProductListSection';
import { StarRating } from '../catalog/StarRating';
import { Island } from '../Island';
import { ReviewsSection, type ReviewsSectionProps } from '../product/ReviewsSection';
import { StockAlertForm, type StockAlertOffer } from '../product/StockAlertForm';
import VariationForm from '../product/VariationForm';
import { useShopSettings } from '../ShopSettingsContext';

/** A product page: gallery, summary with price, stock and the add-to-cart form its type needs, then details. */
export function ProductPage({
  product,
  query = {},
  reviews,
  lists = { upsells: [], alsoBought: [], related: [] },
  stockAlert = null,
}: {
  product: ProductDetail;
  /** The "Reviews (N)" section with its form (docs/reviews.md); absent, the page has none. */
  reviews?: ReviewsSectionProps;
  /** The page's query string; a variable product's `attribute_*` parameters preselect its options. */
  query?: Readonly<Record<string, unknown>>;
  /** Upsells, customers also bought and related products (src/server/merchandising/productLists.ts). */
  lists?: { upsells: ProductSummary[]; alsoBought: ProductSummary[]; related: ProductSummary[] };
  /** The back-in-stock form, when something on the page is out of stock. */
  stockAlert?: StockAlertOffer | null;
}) {
  const { i18n } = useShopSettings();
  const [mainImage, ...thumbnails] = product.images;
  return (
    <article className={`product product--${product.type}`}>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <a href="/">Home</a>
          </li>
          <li>
            <a href="/shop/">Shop</a>
          </li>
          {product.categories[0] && (
            <li>
              <a href={termUrl(product.categories[0])}>{product.categories[0].name}</a>
            </li>
          )}
          <li aria-current="page">{product.name}</li>
        </ol>
      </nav>
      <div className="product__layout">
        <div className="product__gallery">
          {mainImage ? (
            <img
              src={mainImage.src}
              srcSet={mainImage.srcSet}
              sizes="(max-width: 700px) 100vw, 600px"
              alt={mainImage.alt}
              width={600}
              height={600}
              fetchPriority="high"
            />
          ) : (
            <span className="product-card__noimage" aria-hidden="true" />
          )}
          {thumbnails.length > 0 && (
            <ul className="product__thumbnails">
              {thumbnails.map((image) => (
                <li key={image.id}>
                  <img
                    src={image.src}
                    srcSet={image.srcSet}
                    sizes="80px"
                    alt={image.alt}
                    width={120}
                    height={120}
                    loading="lazy"
                  />
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="product__summary">
          <h1 className="product_title">{product.name}</h1>
          <StarRating average={product.ratingAverage} count={product.ratingCount} />
          <p className="product__price">
            <Price price={product.price} />
          </p>
          {product.shortDescription && (
            <div
              className="product__short-description"
              // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized when written (sanitizeRichText)
              dangerouslySetInnerHTML={{ __html: product.shortDescription }}
            />
          )}
          {product.type !== 'variable' && <StockLine product={product} />}
          <PurchaseForm product={product} query={query} />
          {stockAlert && <StockAlertForm offer={stockAlert} />}
          <ul className="product_meta">
            {product.sku && (
              <li>
                SKU: <span className="sku">{product.sku}</span>
              </li>
            )}
            {product.categories.length > 0 && (
              <li>
                {product.categories.length === 1 ? 'Category' : 'Categories'}:{' '}
                {product.categories.map((term, index) => (
                  <span key={term.id}>
                    {index > 0 && ', '}
                    <a href={termUrl(term)}>{term.name}</a>
                  </span>
                ))}
              </li>
            )}
            {product.tags.length > 0 && (
              <li>
                {product.tags.length === 1 ? 'Tag' : 'Tags'}:{' '}
                {product.tags.map((term, index) => (
                  <span key={term.id}>
                    {index > 0 && ', '}
                    <a href={termUrl(term)}>{term.name}</a>
                  </span>
                ))}
              </li>
            )}
            {product.brands.length > 0 && (
              <li>
                Brand:{' '}
                {product.brands.map((term, index) => (
                  <span key={term.id}>
                    {index > 0 && ', '}
                    <a href={termUrl(term)}>{term.name}</a>
                  </span>
                ))}
              </li>
            )}
            {product.vendor && (
              <li>
                Sold by: <a href={vendorUrl(product.vendor.slug)}>{product.vendor.name}</a>
                {product.vendor.city && ` (${product.vendor.city})`}
              </li>
            )}
          </ul>
        </div>
      </div>
      <section
        className="product__description"
        aria-labelledby="description-heading"
        data-description-toggle=""
      >
        <h2 id="description-heading">Description</h2>
        <div
          id="product-description-content"
          className="product__description-content"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized when written (sanitizeRichText)
          dangerouslySetInnerHTML={{ __html: product.description }}
        />
        {product.attributes.some((attribute) => attribute.visible) && (
          <table className="product__attributes">
            <caption>Additional information</caption>
            <tbody>
              {product.attributes
                .filter((attribute) => attribute.visible)
                .map((attribute) => (
                  <tr key={attribute.slug}>
                    <th scope="row">{attribute.name}</th>
                    <td>{attribute.options.map((option) => option.name).join(', ')}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        )}
      </section>
      {reviews && <ReviewsSection {...reviews} />}
      <ProductListSection
        id="upsells-heading"
        className="up-sells upsells"
        title={i18n.upsells}
        products={lists.upsells}
      />
      <ProductListSection
        id="also-bought-heading"
        className="also-bought"
        title={i18n.alsoBought}
        products={lists.alsoBought}
      />
      <ProductListSection
        id="related-heading"
        className="related"
        title={i18n.relatedProducts}
        products={lists.related}
      />
    </article>
  );
}

function StockLine({ product }: { product: ProductDetail }) {
  const { i18n } = useShopSettings();
  if (product.type === 'grouped' || product.type === 'external') return null;
  if (product.stockStatus === 'outofstock') return <p className="stock out-of-stock">{i18n.outOfStock}</p>;
  if (product.stockStatus === 'onbackorder')
    return <p className="stock available-on-backorder">{i18n.availableOnBackorder}</p>;
  return (
    <p className="stock in-stock">
      {product.stockQuantity !== null ? formatText(i18n.stockLeft, product.stockQuantity) : i18n.inStock}
    </p>
  );
}

function PurchaseForm({
  product,
  query,
}: {
  product: ProductDetail;
  query: Readonly<Record<string, unknown>>;
}) {
  const { i18n, swatches } = useShopSettings();
  switch (product.type) {
    case 'external':
      return product.externalUrl ? (
        <p>
          <a className="button" href={product.externalUrl} rel="nofollow noopener">
            {product.buttonText ?? 'Buy product'}
          </a>
        </p>
      ) : null;
    case 'variable': {
      const attributes = product.attributes.filter((attribute) => attribute.forVariations);
      // A large product's variations would bloat the page: the form fetches them when first used.
      const lazy = product.variations.length > swatches.lazyVariationsThreshold;
      return (
        <Island
          name="variationForm"
          component={VariationForm}
          props={{
            productId: product.id,
            productName: product.name,
            productUrl: productUrl(product.slug),
            attributes,
            variations: lazy ? [] : product.variations,
            lazy,
            initialChoices: choicesFromQuery(attributes, query),
          }}
        />
      );
    }
    case 'grouped':
      return (
        <form method="post" action="/cart/" className="grouped_form cart">
          <table className="group_table">
            <tbody>
              {product.groupedChildren.map((child) => (
                <tr key={child.id}>
                  <td>
                    <label htmlFor={`quantity-${child.id}`} className="screen-reader-text">
                      {i18n.quantity}: {child.name}
                    </label>
                    <input
                      id={`quantity-${child.id}`}
                      type="number"
                      name={`quantity[${child.id}]`}
                      min={0}
                      step={1}
                      defaultValue={0}
                      className="qty"
                      disabled={child.stockStatus === 'outofstock'}
                    />
                  </td>
                  <td>
                    <a href={productUrl(child.slug)}>{child.name}</a>
                  </td>
                  <td>
                    <Price price={child.price} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <input type="hidden" name="add-to-cart" value={product.id} />
          <button type="submit" className="button">
            {i18n.addToCart}
          </button>
        </form>
      );
    case 'simple': {
      if (product.stockStatus === 'outofstock' || product.price.min === null) return null;
      const max = product.soldIndividually ? 1 : product.stockQuantity;
      return (
        <form method="post" action="/cart/" className="cart" data-ajax-add-to-cart="">
          <QuantityInput name="quantity" defaultValue={1} min={1} max={max} />
          <button
            type="submit"
            name="add-to-cart"
            value={product.id}
            className="button single_add_to_cart_button"
          >
            {i18n.addToCart}
          </button>
        </form>
      );
    }
  }
}
