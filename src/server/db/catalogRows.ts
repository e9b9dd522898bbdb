import { purchasableQuantity } from '../../shared/catalog/purchasable';
import {
  type AttributeOption,
  attributeFieldName,
  type CatalogVisibility,
  type Post,
  type ProductAttribute,
  type ProductImage,
  type ProductSummary,
  type StockStatus,
  type SwatchType,
  type Taxonomy,
  type Variation,
  type Vendor,
} from '../../shared/catalog/types';
import { storedImageSources } from '../catalog/images/storedImageSources';

/* Catalog rows read back as domain types, the same way on both engines. */

export interface ProductRow {
  id: number;
  type: ProductSummary['type'] | 'variation';
  parent_id: number | null;
  sku: string | null;
  slug: string;
  name: string;
  featured: number;
  visibility: CatalogVisibility;
  short_description: string;
  description: string;
  regular_price: number | null;
  sale_price: number | null;
  price_min: number | null;
  price_max: number | null;
  stock_status: StockStatus;
  stock_quantity: number | null;
  sold_individually: number;
  is_virtual: number;
  is_downloadable: number;
  external_url: string | null;
  button_text: string | null;
  rating_average: number;
  rating_count: number;
  total_sales: number;
  vendor_id: number | null;
}

export interface TermRow {
  id: number;
  taxonomy: Taxonomy;
  slug: string;
  name: string;
  parent_id: number | null;
  description: string;
}

export interface VendorRow {
  id: number;
  slug: string;
  name: string;
  store_url: string | null;
  city: string | null;
}

export interface PostRow {
  id: number;
  type: Post['type'];
  slug: string;
  title: string;
  excerpt: string;
  content: string;
  password_hash: string | null;
  published_at: string;
}

/** What only a protected post's own page needs: the hash to check a password against, and the body it unlocks. */
export function protectedParts(row: PostRow) {
  return {
    passwordHash: row.password_hash,
    protectedContent: row.password_hash !== null ? row.content : null,
  };
}

export function toVendor(row: VendorRow): Vendor {
  return { id: row.id, slug: row.slug, name: row.name, storeUrl: row.store_url, city: row.city };
}

/**
 * The SQL condition (on `products p` and its `parent`) under which an image of `p` may be drawn for anyone: the
 * product is published, and so is the parent of a variation. A draft's placeholder would show its name.
 */
/** The products `listSitemapProducts` lists, in its order: the same SQL on both engines. */
export const SITEMAP_PRODUCTS_WHERE = `WHERE parent_id IS NULL AND type <> 'variation' AND status = 'publish'
  AND visibility <> 'hidden' AND slug IS NOT NULL ORDER BY updated_at DESC, id`;

export const PUBLISHED_IMAGE_OWNER =
  "p.status = 'publish' AND (p.parent_id IS NULL OR parent.status = 'publish')";

/**
 * A post as every listing, search and API sees it: a password-protected one keeps its excerpt and content back,
 * so no output can show them without the password (its own page asks for them with `protectedParts`).
 */
export function toPost(row: PostRow): Post {
  const locked = row.password_hash !== null;
  return {
    id: row.id,
    type: row.type,
    slug: row.slug,
    title: row.title,
    excerpt: locked ? '' : row.excerpt,
    content: locked ? '' : row.content,
    protected: locked,
    publishedAt: row.published_at,
  };
}

export interface AttributeTermRow {
  id: number;
  slug: string;
  name: string;
  color: string | null;
  image: string | null;
  swatch_type: SwatchType | null;
}

/** A term's image is drawn locally like product images (never loaded from its original host). */
export function toAttributeOption(row: AttributeTermRow): AttributeOption {
  return {
    slug: row.slug,
    name: row.name,
    color: row.color,
    image: row.image === null ? null : `/swatch-images/${row.id}.svg`,
    swatchType: row.swatch_type,
  };
}

/** The columns of a variation's row that toVariation reads. */
export const VARIATION_COLUMNS = [
  'id',
  'sku',
  'regular_price',
  'sale_price',
  'stock_status',
  'stock_quantity',
  'sold_individually',
] as const satisfies readonly (keyof ProductRow)[];
export type VariationRow = Pick<ProductRow, (typeof VARIATION_COLUMNS)[number]>;

/** A published variation as the product page offers it (shared with the PostgreSQL catalog). */
export function toVariation(
  row: VariationRow,
  values: readonly { attribute: string; value: string | null }[],
  image: ImageRow | null,
  variationAttributes: readonly ProductAttribute[],
): Variation {
  const chosen = new Map(values.map((entry) => [entry.attribute, entry.value ?? '']));
  const stockLeft = row.stock_quantity !== null && row.stock_quantity > 0 ? row.stock_quantity : null;
  const available = purchasableQuantity({ stockStatus: row.stock_status, stockQuantity: row.stock_quantity });
  return {
    id: row.id,
    sku: row.sku,
    // Every attribute the parent varies by is present; one the variation leaves open is '' ("any").
    attributes: Object.fromEntries(
      variationAttributes.map((attribute) => [
        attributeFieldName(attribute.slug),
        chosen.get(attribute.slug) ?? '',
      ]),
    ),
    price: row.sale_price ?? row.regular_price,
    regularPrice: row.regular_price,
    salePrice: row.sale_price,
    is_in_stock: available !== 0,
    max_qty: row.sold_individually === 1 ? 1 : available,
    variation_stock_left: stockLeft,
    image: image ? toImage(image) : null,
  };
}

/** An image row as the database returns it: `stored_key` names its resized files, when the import stored any. */
export interface ImageRow {
  id: number;
  alt: string;
  stored_key?: string | null;
}

export function toImage(row: ImageRow): ProductImage {
  if (!row.stored_key) return { id: row.id, src: `/images/${row.id}.svg`, alt: row.alt };
  return { id: row.id, alt: row.alt, ...storedImageSources(row.stored_key) };
}

/** The columns a product card shows: what a listing reads (a card never shows the description). */
export const SUMMARY_COLUMNS = [
  'id',
  'type',
  'slug',
  'name',
  'sku',
  'featured',
  'visibility',
  'short_description',
  'regular_price',
  'sale_price',
  'price_min',
  'price_max',
  'stock_status',
  'rating_average',
  'rating_count',
  'total_sales',
] as const satisfies readonly (keyof ProductRow)[];

export type SummaryRow = Pick<ProductRow, (typeof SUMMARY_COLUMNS)[number]>;

/**
 * A product row as a summary: its first image, and whether a variable product has a variation on sale (asked only
 * for a variable product, since on SQLite that is one more query).
 */
export function toSummary(
  row: SummaryRow,
  image: ImageRow | undefined,
  variableOnSale: () => boolean,
): ProductSummary {
  let regular: number | null = null;
  let onSale = false;
  if (row.type === 'simple' || row.type === 'external') {
    onSale = row.sale_price !== null && row.regular_price !== null && row.sale_price < row.regular_price;
    regular = onSale ? row.regular_price : null;
  } else if (row.type === 'variable') onSale = variableOnSale();
  return {
    id: row.id,
    type: row.type === 'variation' ? 'simple' : row.type,
    slug: row.slug,
    name: row.name,
    sku: row.sku,
    featured: row.featured === 1,
    visibility: row.visibility,
    shortDescription: row.short_description,
    price: { min: row.price_min, max: row.price_max, regular, onSale },
    stockStatus: row.stock_status,
    image: image ? toImage(image) : null,
    ratingAverage: row.rating_average,
    ratingCount: row.rating_count,
    totalSales: row.total_sales,
  };
}
