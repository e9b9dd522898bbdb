import type { CatalogVisibility, StockStatus } from '../../../shared/catalog/types';
import type { SiteSidecar } from './siteSidecarSchema';

/* A catalog ready to write: what the WooCommerce CSV and the sidecar JSON say, parsed and checked, before ids. */

/** A reference to another row of the import, as WooCommerce's CSV writes it: a SKU, or `id:N` for an ID. */
export type ProductReference = { sku: string } | { csvId: number };

export interface ImportAttribute {
  name: string;
  /** All values for a parent; for a variation one value, or none for "any value". */
  values: string[];
  visible: boolean;
}

export interface ImportProduct {
  /** Where the row starts in the file, for error messages. */
  line: number;
  csvId: number | null;
  type: 'simple' | 'variable' | 'grouped' | 'external' | 'variation';
  virtual: boolean;
  downloadable: boolean;
  sku: string | null;
  name: string;
  published: boolean;
  /** WooCommerce's Published -1: only the owner sees it (stored as a draft that the back office lists as private). */
  private?: boolean;
  featured: boolean;
  visibility: CatalogVisibility;
  shortDescription: string;
  description: string;
  regularPrice: number | null;
  salePrice: number | null;
  stockStatus: StockStatus;
  stockQuantity: number | null;
  soldIndividually: boolean;
  categories: string[][];
  tags: string[];
  brands: string[];
  images: string[];
  parent: ProductReference | null;
  groupedChildren: ProductReference[];
  /**
   * WooCommerce's `Upsells` and `Cross-sells` columns (SKUs, or `id:N`), in their order. Undefined when the file
   * has no such column: the stored links are kept.
   */
  upsells?: ProductReference[];
  crossSells?: ProductReference[];
  externalUrl: string | null;
  buttonText: string | null;
  position: number;
  attributes: ImportAttribute[];
  downloads: { name: string; url: string }[];
}

export interface CatalogImport {
  products: ImportProduct[];
  site: SiteSidecar;
  /** Images fetched and stored resized before the import, by their `Images` value: the key of their files. */
  storedImages?: ReadonlyMap<string, string>;
  /**
   * The file is the whole catalog: stored products it does not name (and variations its variable products no
   * longer list) are deleted. Off for the back office's batched import, whose batches each hold a part of a file.
   */
  removeMissing?: boolean;
}

export interface ImportSummary {
  created: number;
  /** Stored products the file changes. */
  updated: number;
  /** Stored products the file names exactly as they are: nothing is written for them. */
  unchanged: number;
  /** Stored products deleted because the file, read as the whole catalog, no longer has them. */
  removed: number;
  variations: number;
  categories: number;
  posts: number;
}

export interface ImportRowError {
  line: number;
  column: string;
  message: string;
}

export function describeReference(reference: ProductReference): string {
  return 'sku' in reference ? reference.sku : `id:${reference.csvId}`;
}
