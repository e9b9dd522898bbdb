import type {
  CatalogVisibility,
  Post,
  ProductDetail,
  ProductOrdering,
  ProductSummary,
  Taxonomy,
  Term,
  Vendor,
} from '../../shared/catalog/types';
import type { BillingDetails, NewOrderLine, Order } from '../../shared/orders/orderTypes';
import type { CatalogImport, ImportSummary } from '../catalog/import/catalogImport';
import type { SearchRepository } from '../search/SearchRepository';

/*
 * The storage interfaces every feature goes through. Methods are async from day one so a PostgreSQL adapter can
 * implement the same interfaces; rows never leave an adapter: it returns the domain types of src/shared.
 */

export interface ProductListQuery {
  /** Which catalog visibility applies: the shop's archives or search results (CONTRACT.md "Pages"). */
  context: 'shop' | 'search';
  featured?: boolean;
  /** Restrict to a term; categories include their descendants, as WooCommerce's archives do. */
  term?: Term;
  vendorId?: number;
  /** Only these products (search results from the search index); `relevance` keeps their order. */
  ids?: readonly number[];
  relevance?: boolean;
  orderby: ProductOrdering;
  page: number;
  perPage: number;
}

export interface ProductList {
  items: ProductSummary[];
  total: number;
}

export interface ImagePlaceholder {
  label: string;
  color: string;
}

export interface CatalogRepository {
  countProducts(): Promise<number>;
  listProducts(query: ProductListQuery): Promise<ProductList>;
  /** A published parent product (not a variation) by its slug or id, whatever its catalog visibility. */
  getProductBySlug(slug: string): Promise<ProductDetail | null>;
  getProductById(id: number): Promise<ProductDetail | null>;
  getTermByPath(taxonomy: Taxonomy, path: readonly string[]): Promise<Term | null>;
  listTerms(taxonomy: Taxonomy): Promise<Term[]>;
  getVendorBySlug(slug: string): Promise<Vendor | null>;
  listVendors(): Promise<Vendor[]>;
  getPostBySlug(slug: string): Promise<(Post & { passwordHash: string | null }) | null>;
  listPosts(type: Post['type'], limit: number): Promise<Post[]>;
  getImagePlaceholder(imageId: number): Promise<ImagePlaceholder | null>;
  /** Writes a whole import in one transaction: a failure leaves the catalog as it was. */
  importCatalog(
    catalog: CatalogImport,
    onProgress?: (done: number, total: number) => void,
  ): Promise<ImportSummary>;
}

export interface CartLine {
  /** Stable key of the line: the same product, variation and attributes always give the same key. */
  key: string;
  productId: number;
  variationId: number | null;
  /** The chosen values, keyed `attribute_{slug}`, including values a variation left as "any". */
  attributes: Record<string, string>;
  quantity: number;
}

export interface Session {
  id: string;
  cart: CartLine[];
  expiresAt: number;
}

export interface SessionRepository {
  get(id: string, now: number): Promise<Session | null>;
  /** Creates the session if it does not exist yet, and pushes its expiry forward. */
  saveCart(id: string, cart: CartLine[], expiresAt: number): Promise<void>;
  deleteExpired(now: number): Promise<number>;
}

export interface NewOrder {
  orderKey: string;
  currency: string;
  paymentMethod: string;
  billing: BillingDetails;
  customerNote: string;
  sessionId: string;
  lines: NewOrderLine[];
}

export interface OrderRepository {
  /**
   * Creates the order, its lines, the stock and sales changes and empties the session's cart in one
   * transaction. Throws a ShopError (out_of_stock, not_purchasable) and writes nothing when a line can no longer
   * be bought.
   */
  placeOrder(order: NewOrder): Promise<Order>;
  getOrder(id: number): Promise<Order | null>;
}

export interface OptionRepository {
  get(key: string): Promise<string | null>;
  /** Sets the value only if the key has none yet, and returns the value that is stored (first writer wins). */
  setIfAbsent(key: string, value: string): Promise<string>;
}

export interface Repositories {
  catalog: CatalogRepository;
  sessions: SessionRepository;
  orders: OrderRepository;
  options: OptionRepository;
  search: SearchRepository;
  /** Answers when the database is reachable (GET /healthz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type { BillingDetails, CatalogVisibility, NewOrderLine, Order };
