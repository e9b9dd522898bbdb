import type { StockStatus } from './types';

/* The owner's view of products in the back office: every status, the columns the edit form changes. */

export const ADMIN_PRODUCT_STATUSES = ['publish', 'draft', 'private'] as const;
export type AdminProductStatus = (typeof ADMIN_PRODUCT_STATUSES)[number];
export const BACKORDER_OPTIONS = ['no', 'notify', 'yes'] as const;
export type Backorders = (typeof BACKORDER_OPTIONS)[number];
export const ADMIN_PAGE_SIZE = 50;

export const STATUS_LABELS: Record<AdminProductStatus, string> = {
  publish: 'Published',
  draft: 'Draft',
  private: 'Private',
};

/** One row of the products table. */
export interface AdminProductListItem {
  id: number;
  type: string;
  name: string;
  sku: string | null;
  status: AdminProductStatus;
  stockStatus: StockStatus;
  stockQuantity: number | null;
  priceMin: number | null;
  priceMax: number | null;
}

export interface AdminProductListQuery {
  search: string;
  status: AdminProductStatus | null;
  page: number;
  perPage: number;
  /** Exactly this SKU (the product's own, or one of its variations'). */
  sku?: string;
  /** In this product category (directly, as WooCommerce's REST filter reads it). */
  categoryId?: number;
  stockStatus?: StockStatus;
  /** Only products of this type (simple, variable, grouped, external). */
  type?: string;
  /** true: only products in the trash; false: none of them; absent: every product (the back office's table). */
  trashed?: boolean;
}

/** What a variation's row of the edit form changes. */
export interface AdminVariationFields {
  regularPrice: number | null;
  salePrice: number | null;
  sku: string | null;
  stockQuantity: number | null;
}

export interface AdminVariation extends AdminVariationFields {
  id: number;
  /** "Blue, Large": the variation's attribute values, for the table's row header. */
  label: string;
}

/** What the edit form changes on a product. */
export interface AdminProductFields {
  name: string;
  slug: string;
  description: string;
  shortDescription: string;
  regularPrice: number | null;
  salePrice: number | null;
  sku: string | null;
  /** Null when stock is not managed. */
  stockQuantity: number | null;
  stockStatus: StockStatus;
  backorders: Backorders;
  status: AdminProductStatus;
  categoryIds: number[];
}

export interface AdminProduct extends AdminProductFields {
  id: number;
  type: string;
  /** The first image's address (an uploaded file under /wp-content/uploads/ or where an import took it from). */
  imageUrl: string | null;
  variations: AdminVariation[];
}

/** A product change to write: the product's fields, its variations' by id, and a new first image if any. */
export interface AdminProductChange {
  fields: AdminProductFields;
  variations: ({ id: number } & AdminVariationFields)[];
  /** `storedKey` names its resized files for the shop's pages (see storeCatalogImage). */
  image: { url: string; alt: string; storedKey: string | null } | null;
}

/** A write refused for a reason tied to a field (a SKU or slug another product has), in words. */
export type AdminSaveResult = { ok: true; id: number } | { ok: false; fieldErrors: Record<string, string> };

export type ImportJobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface ImportJobSummary {
  created: number;
  updated: number;
  /** Rows naming a stored product exactly as it is: nothing written (absent in jobs stored before it was counted). */
  unchanged?: number;
  skipped: { line: number; name: string; reason: string }[];
}

export interface ImportJob {
  id: string;
  status: ImportJobStatus;
  fileName: string;
  done: number;
  total: number;
  summary: ImportJobSummary | null;
  error: string | null;
}

/** The form's own values, as typed: what the page shows again next to the errors. */
export interface ProductFormValues {
  name: string;
  slug: string;
  description: string;
  short_description: string;
  regular_price: string;
  sale_price: string;
  sku: string;
  manage_stock: boolean;
  stock_quantity: string;
  stock_status: string;
  backorders: string;
  status: string;
  categories: string[];
  variations: {
    id: number;
    label: string;
    regular_price: string;
    sale_price: string;
    sku: string;
    stock: string;
  }[];
}
