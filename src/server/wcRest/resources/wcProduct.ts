import type { AdminProduct, AdminVariation } from '../../../shared/catalog/adminProducts';
import type {
  ProductAttribute,
  ProductDetail,
  ProductImage,
  StockStatus,
  Term,
  Variation,
} from '../../../shared/catalog/types';
import { productUrl, termUrl } from '../../../shared/catalog/urls';
import { absoluteUrl, type WcContext, wcDates, wcMoney } from './wcFormat';

/*
 * Products, variations and product categories in WooCommerce's REST API v3 shape (/wp-json/wc/v3/products…, and
 * the body of product webhooks). Pure: what the catalog repository returns in, JSON out.
 *
 * A product is read two ways and both feed one product: the owner's view (`AdminProduct`: every status, the
 * fields the edit form changes) and, for a published product, the shopper's (`ProductDetail`: images,
 * attributes, variations, ratings). A draft, private or trashed product has only the first; its images are then
 * the one the owner set.
 */

/** What the shop keeps as WooCommerce's `status`: the owner's three, plus `trash` (hidden, deletable). */
export type WcProductStatus = AdminProduct['status'] | 'trash';

export interface WcProductSource {
  product: AdminProduct;
  /** The shopper's view, when the product is published; null otherwise. */
  detail: ProductDetail | null;
  /** The product's categories as terms (names and slugs for `categories`). */
  categories: readonly Term[];
  /** When the product was trashed (WooCommerce's trash); null or absent when it is not. */
  trashedAt?: string | null;
  createdAt?: string | null;
  modifiedAt?: string | null;
}

export interface WcImage {
  id: number;
  date_created: string | null;
  date_created_gmt: string | null;
  date_modified: string | null;
  date_modified_gmt: string | null;
  src: string;
  name: string;
  alt: string;
}

export interface WcProductAttribute {
  id: number;
  name: string;
  slug: string;
  position: number;
  visible: boolean;
  variation: boolean;
  options: string[];
}

export interface WcCategoryRef {
  id: number;
  name: string;
  slug: string;
}

export interface WcProduct {
  id: number;
  name: string;
  slug: string;
  permalink: string;
  date_created: string | null;
  date_created_gmt: string | null;
  date_modified: string | null;
  date_modified_gmt: string | null;
  type: string;
  status: WcProductStatus;
  featured: boolean;
  catalog_visibility: string;
  description: string;
  short_description: string;
  sku: string;
  price: string;
  regular_price: string;
  sale_price: string;
  date_on_sale_from: null;
  date_on_sale_from_gmt: null;
  date_on_sale_to: null;
  date_on_sale_to_gmt: null;
  on_sale: boolean;
  purchasable: boolean;
  total_sales: number;
  virtual: boolean;
  downloadable: boolean;
  downloads: { id: string; name: string; file: string }[];
  download_limit: number;
  download_expiry: number;
  external_url: string;
  button_text: string;
  tax_status: string;
  tax_class: string;
  manage_stock: boolean;
  stock_quantity: number | null;
  stock_status: StockStatus;
  backorders: string;
  backorders_allowed: boolean;
  backordered: boolean;
  low_stock_amount: null;
  sold_individually: boolean;
  weight: string;
  dimensions: { length: string; width: string; height: string };
  shipping_required: boolean;
  shipping_taxable: boolean;
  shipping_class: string;
  shipping_class_id: number;
  reviews_allowed: boolean;
  average_rating: string;
  rating_count: number;
  related_ids: number[];
  upsell_ids: number[];
  cross_sell_ids: number[];
  parent_id: number;
  purchase_note: string;
  categories: WcCategoryRef[];
  tags: WcCategoryRef[];
  images: WcImage[];
  attributes: WcProductAttribute[];
  default_attributes: unknown[];
  variations: number[];
  grouped_products: number[];
  menu_order: number;
  meta_data: unknown[];
}

export interface WcVariationAttribute {
  id: number;
  name: string;
  option: string;
}

export interface WcVariation {
  id: number;
  date_created: string | null;
  date_created_gmt: string | null;
  date_modified: string | null;
  date_modified_gmt: string | null;
  description: string;
  permalink: string;
  sku: string;
  price: string;
  regular_price: string;
  sale_price: string;
  on_sale: boolean;
  status: WcProductStatus;
  purchasable: boolean;
  virtual: boolean;
  downloadable: boolean;
  tax_status: string;
  tax_class: string;
  manage_stock: boolean;
  stock_quantity: number | null;
  stock_status: StockStatus;
  backorders: string;
  backorders_allowed: boolean;
  backordered: boolean;
  image: WcImage | null;
  attributes: WcVariationAttribute[];
  menu_order: number;
  meta_data: unknown[];
}

export interface WcCategory {
  id: number;
  name: string;
  slug: string;
  parent: number;
  description: string;
  display: string;
  image: null;
  menu_order: number;
  count: number;
}

export interface WcVariationSource {
  parent: AdminProduct;
  variation: AdminVariation;
  /** The variation as shoppers see it (its attribute values, image, stock), when the parent is published. */
  detail: Variation | null;
  /** The parent's attributes, to name the variation's values. */
  parentAttributes: readonly ProductAttribute[];
  trashedAt?: string | null;
}

function wcImage(image: ProductImage, context: WcContext): WcImage {
  const src = absoluteUrl(image.src, context.origin);
  return {
    id: image.id,
    date_created: null,
    date_created_gmt: null,
    date_modified: null,
    date_modified_gmt: null,
    src,
    name: src.split('/').pop()?.split('?')[0] ?? '',
    alt: image.alt,
  };
}

const onSale = (regular: number | null, sale: number | null) =>
  sale !== null && regular !== null && sale < regular;

/** The price shoppers pay: the sale price when there is one below the regular price. */
const currentPrice = (regular: number | null, sale: number | null) =>
  onSale(regular, sale) ? sale : regular;

export function toWcProduct(source: WcProductSource, context: WcContext): WcProduct {
  const { product, detail } = source;
  const money = (minor: number | null) => wcMoney(minor, context.decimals);
  const status: WcProductStatus = source.trashedAt ? 'trash' : product.status;
  const created = wcDates(source.createdAt ?? null);
  const modified = wcDates(source.modifiedAt ?? source.createdAt ?? null);
  const variable = product.type === 'variable';
  // A variable product's own price is its cheapest variation's, as WooCommerce lists it.
  const price = variable
    ? (detail?.price.min ?? minOf(product.variations.map((v) => currentPrice(v.regularPrice, v.salePrice))))
    : currentPrice(product.regularPrice, product.salePrice);
  const images: WcImage[] = detail
    ? detail.images.map((image) => wcImage(image, context))
    : product.imageUrl
      ? [wcImage({ id: 0, src: product.imageUrl, alt: product.name }, context)]
      : [];
  const manageStock = product.stockQuantity !== null;
  return {
    id: product.id,
    name: product.name,
    slug: product.slug,
    permalink: absoluteUrl(productUrl(product.slug), context.origin),
    date_created: created.local,
    date_created_gmt: created.gmt,
    date_modified: modified.local,
    date_modified_gmt: modified.gmt,
    type: product.type,
    status,
    featured: detail?.featured ?? false,
    catalog_visibility: detail?.visibility ?? 'visible',
    description: product.description,
    short_description: product.shortDescription,
    sku: product.sku ?? '',
    price: money(price),
    regular_price: variable ? '' : money(product.regularPrice),
    sale_price: variable
      ? ''
      : money(onSale(product.regularPrice, product.salePrice) ? product.salePrice : null),
    date_on_sale_from: null,
    date_on_sale_from_gmt: null,
    date_on_sale_to: null,
    date_on_sale_to_gmt: null,
    on_sale: variable ? (detail?.price.onSale ?? false) : onSale(product.regularPrice, product.salePrice),
    purchasable: status === 'publish' && price !== null,
    total_sales: detail?.totalSales ?? 0,
    virtual: detail?.virtual ?? false,
    downloadable: detail?.downloadable ?? false,
    downloads: (detail?.downloads ?? []).map((download, index) => ({
      id: String(index + 1),
      name: download.name,
      file: download.url,
    })),
    download_limit: -1,
    download_expiry: -1,
    external_url: detail?.externalUrl ?? '',
    button_text: detail?.buttonText ?? '',
    tax_status: 'taxable',
    tax_class: '',
    manage_stock: manageStock,
    stock_quantity: product.stockQuantity,
    stock_status: product.stockStatus,
    backorders: product.backorders,
    backorders_allowed: product.backorders !== 'no',
    backordered: manageStock && (product.stockQuantity ?? 0) < 0,
    low_stock_amount: null,
    sold_individually: detail?.soldIndividually ?? false,
    weight: '',
    dimensions: { length: '', width: '', height: '' },
    shipping_required: !(detail?.virtual ?? false),
    shipping_taxable: true,
    shipping_class: '',
    shipping_class_id: 0,
    reviews_allowed: false,
    average_rating: (detail?.ratingAverage ?? 0).toFixed(2),
    rating_count: detail?.ratingCount ?? 0,
    related_ids: [],
    upsell_ids: [],
    cross_sell_ids: [],
    parent_id: 0,
    purchase_note: '',
    categories: source.categories.map(toWcCategoryRef),
    tags: (detail?.tags ?? []).map(toWcCategoryRef),
    images,
    attributes: (detail?.attributes ?? []).map((attribute, position) => ({
      id: attribute.id,
      name: attribute.name,
      slug: `pa_${attribute.slug}`,
      position,
      visible: attribute.visible,
      variation: attribute.forVariations,
      options: attribute.options.map((option) => option.name),
    })),
    default_attributes: [],
    variations: product.variations.map((variation) => variation.id),
    grouped_products: (detail?.groupedChildren ?? []).map((child) => child.id),
    menu_order: 0,
    meta_data: [],
  };
}

function minOf(values: readonly (number | null)[]): number | null {
  const numbers = values.filter((value): value is number => value !== null);
  return numbers.length === 0 ? null : Math.min(...numbers);
}

function toWcCategoryRef(term: Pick<Term, 'id' | 'name' | 'slug'>): WcCategoryRef {
  return { id: term.id, name: term.name, slug: term.slug };
}

export function toWcVariation(source: WcVariationSource, context: WcContext): WcVariation {
  const { parent, variation, detail } = source;
  const money = (minor: number | null) => wcMoney(minor, context.decimals);
  const status: WcProductStatus = source.trashedAt ? 'trash' : parent.status;
  const manageStock = variation.stockQuantity !== null;
  const stockStatus: StockStatus = detail
    ? detail.is_in_stock
      ? 'instock'
      : 'outofstock'
    : manageStock && (variation.stockQuantity ?? 0) <= 0
      ? 'outofstock'
      : 'instock';
  const values = detail?.attributes ?? {};
  const attributes: WcVariationAttribute[] = [];
  for (const attribute of source.parentAttributes) {
    if (!attribute.forVariations) continue;
    const slug = values[`attribute_${attribute.slug}`];
    // An empty value is "any": WooCommerce leaves such an attribute out of the variation's list.
    if (!slug) continue;
    const option = attribute.options.find((candidate) => candidate.slug === slug);
    attributes.push({ id: attribute.id, name: attribute.name, option: option?.name ?? slug });
  }
  const query = Object.entries(values)
    .filter(([, value]) => value !== '')
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  const price = currentPrice(variation.regularPrice, variation.salePrice);
  return {
    id: variation.id,
    date_created: null,
    date_created_gmt: null,
    date_modified: null,
    date_modified_gmt: null,
    description: '',
    permalink: absoluteUrl(`${productUrl(parent.slug)}${query ? `?${query}` : ''}`, context.origin),
    sku: variation.sku ?? '',
    price: money(price),
    regular_price: money(variation.regularPrice),
    sale_price: money(onSale(variation.regularPrice, variation.salePrice) ? variation.salePrice : null),
    on_sale: onSale(variation.regularPrice, variation.salePrice),
    status,
    purchasable: status === 'publish' && price !== null,
    virtual: false,
    downloadable: false,
    tax_status: 'taxable',
    tax_class: '',
    manage_stock: manageStock,
    stock_quantity: variation.stockQuantity,
    stock_status: stockStatus,
    backorders: 'no',
    backorders_allowed: false,
    backordered: false,
    image: detail?.image ? wcImage(detail.image, context) : null,
    attributes,
    menu_order: 0,
    meta_data: [],
  };
}

/** A product category (`product_cat` term); `count` is how many products it holds, when the caller knows. */
export function toWcCategory(term: Term, count = 0): WcCategory {
  return {
    id: term.id,
    name: term.name,
    slug: term.slug,
    parent: term.parentId ?? 0,
    description: term.description,
    display: 'default',
    image: null,
    menu_order: 0,
    count,
  };
}

/** The category's page in the shop (WooCommerce returns it under `_links`; kept for callers that want it). */
export function wcCategoryUrl(term: Term, context: WcContext): string {
  return absoluteUrl(termUrl(term), context.origin);
}
