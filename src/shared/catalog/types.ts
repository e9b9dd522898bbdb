/* The shop's catalog as the pages and the cart see it: no database rows, no CSV columns. Money in minor units. */

export type ProductType = 'simple' | 'variable' | 'grouped' | 'external';
export type StockStatus = 'instock' | 'outofstock' | 'onbackorder';
export type CatalogVisibility = 'visible' | 'catalog' | 'search' | 'hidden';
export type Taxonomy = 'product_cat' | 'product_tag' | 'product_brand';
export type SwatchType = 'color' | 'image' | 'label' | 'radio' | 'select';

export interface ProductImage {
  id: number;
  src: string;
  /** Every stored size (`… 300w, … 600w, …`) of an image the import stored; absent for a placeholder. */
  srcSet?: string;
  alt: string;
}

export interface Term {
  id: number;
  taxonomy: Taxonomy;
  slug: string;
  name: string;
  parentId: number | null;
  description: string;
  /** Slugs from the root down to this term, e.g. ['clothing', 'hoodies'], for /product-category/{path}/. */
  path: string[];
}

export interface Vendor {
  id: number;
  slug: string;
  name: string;
  storeUrl: string | null;
  city: string | null;
}

/** Lowest and highest current price: equal for a simple product, a range for variable and grouped ones. */
export interface PriceRange {
  min: number | null;
  max: number | null;
  /** The regular price when the product is on sale, for the struck-through display. */
  regular: number | null;
  onSale: boolean;
}

export interface ProductSummary {
  id: number;
  type: ProductType;
  slug: string;
  name: string;
  sku: string | null;
  featured: boolean;
  visibility: CatalogVisibility;
  shortDescription: string;
  price: PriceRange;
  stockStatus: StockStatus;
  image: ProductImage | null;
  ratingAverage: number;
  ratingCount: number;
  totalSales: number;
  /** Swatches of a variable product's card on archives, when `swatches.showOnArchive` asks for them. */
  archiveSwatches?: ArchiveSwatches;
}

/** One attribute of a variable product shown on its archive card; each value carries what the card shows for it. */
export interface ArchiveSwatches {
  attribute: ProductAttribute;
  values: {
    slug: string;
    /** The image of the first in-stock variation with this value (else the first one), if any. */
    image: ProductImage | null;
    price: { min: number; max: number } | null;
    inStock: boolean;
  }[];
}

export interface AttributeOption {
  slug: string;
  name: string;
  color: string | null;
  /** A local address of the term's swatch image (drawn like product images), or null. */
  image: string | null;
  /** This term's own swatch type, overriding its attribute's; null keeps the attribute's. */
  swatchType: SwatchType | null;
}

export interface ProductAttribute {
  id: number;
  slug: string;
  name: string;
  swatchType: SwatchType;
  visible: boolean;
  forVariations: boolean;
  options: AttributeOption[];
}

/**
 * A variation in the shape the browser receives. `attributes` is keyed by the
 * form field name `attribute_{slug}`; an empty value means "any value".
 */
export interface Variation {
  id: number;
  sku: string | null;
  attributes: Record<string, string>;
  price: number | null;
  regularPrice: number | null;
  salePrice: number | null;
  is_in_stock: boolean;
  /** Most a shopper may buy at once: stock quantity, 1 when sold individually, null when unlimited. */
  max_qty: number | null;
  variation_stock_left: number | null;
  image: ProductImage | null;
}

export interface Download {
  name: string;
  url: string;
}

export interface ProductDetail extends ProductSummary {
  description: string;
  images: ProductImage[];
  categories: Term[];
  tags: Term[];
  brands: Term[];
  vendor: Vendor | null;
  attributes: ProductAttribute[];
  variations: Variation[];
  groupedChildren: ProductSummary[];
  externalUrl: string | null;
  buttonText: string | null;
  virtual: boolean;
  downloadable: boolean;
  downloads: Download[];
  stockQuantity: number | null;
  soldIndividually: boolean;
}

export interface Post {
  id: number;
  type: 'post' | 'page';
  slug: string;
  title: string;
  excerpt: string;
  content: string;
  protected: boolean;
  publishedAt: string;
}

export const PRODUCT_ORDERINGS = [
  'menu_order',
  'popularity',
  'rating',
  'date',
  'price',
  'price-desc',
] as const;
export type ProductOrdering = (typeof PRODUCT_ORDERINGS)[number];

export function attributeFieldName(attributeSlug: string): string {
  return `attribute_${attributeSlug}`;
}
