import type {
  AdminProduct,
  AdminProductChange,
  AdminProductListItem,
  AdminProductListQuery,
  AdminSaveResult,
  ImportJob,
  ImportJobStatus,
  ImportJobSummary,
} from '../../../shared/catalog/adminProducts';
import type {
  Post,
  ProductDetail,
  ProductOrdering,
  ProductSummary,
  Taxonomy,
  Term,
  Vendor,
} from '../../../shared/catalog/types';
import type { CatalogImport, ImportSummary } from '../../catalog/import/catalogImport';
import type { ExportProduct } from '../sql/catalogExportSql';

export interface ProductListQuery {
  /** Which catalog visibility applies: the shop's archives or search results (docs/contract.md "Pages"). */
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

/** A product page the sitemap lists, with when its product last changed. */
export interface SitemapProduct {
  slug: string;
  updatedAt: string;
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
  /**
   * A post or page for its own page. Like every `Post`, a protected one has no excerpt or content; only here is
   * its body handed out, as `protectedContent`, for the page to show once the visitor has given the password.
   */
  getPostBySlug(
    slug: string,
  ): Promise<(Post & { passwordHash: string | null; protectedContent: string | null }) | null>;
  listPosts(type: Post['type'], limit: number): Promise<Post[]>;
  /** Published products a search engine may index (every visibility but `hidden`), newest change first. */
  listSitemapProducts(limit: number): Promise<SitemapProduct[]>;
  getImagePlaceholder(imageId: number): Promise<ImagePlaceholder | null>;
  /** The placeholder drawn for an attribute term's swatch image (its id is in `AttributeOption.image`). */
  getSwatchImagePlaceholder(termId: number): Promise<ImagePlaceholder | null>;
  /** Writes a whole import in one transaction: a failure leaves the catalog as it was. */
  importCatalog(
    catalog: CatalogImport,
    onProgress?: (done: number, total: number) => void,
    options?: ImportCatalogOptions,
  ): Promise<ImportSummary>;

  /** The owner's products table: every status, by name or SKU, newest first. */
  listAdminProducts(query: AdminProductListQuery): Promise<{ items: AdminProductListItem[]; total: number }>;
  /** A parent product (any status) with its variations, as the owner's edit form shows it. */
  getAdminProduct(id: number): Promise<AdminProduct | null>;
  /**
   * Writes the owner's change to a product (id null: creates a simple product) in one transaction, with its
   * variations, categories and listing price; a SKU or slug another product holds is refused in words.
   */
  saveAdminProduct(id: number | null, change: AdminProductChange): Promise<AdminSaveResult>;
  /** When a parent product was made and last changed, and when it went to the trash (null: it is not there). */
  getProductLifecycle(
    id: number,
  ): Promise<{ createdAt: string | null; modifiedAt: string | null; trashedAt: string | null }>;
  /** Moves a parent product to WooCommerce's trash (hidden from shoppers, kept). False when there is none. */
  trashProduct(id: number): Promise<boolean>;
  /** Deletes a parent product for good, with its variations. False when there is none. */
  deleteProduct(id: number): Promise<boolean>;
  /** Every product and variation as the CSV import reads them, for the CSV export. */
  readCatalogForExport(): Promise<ExportProduct[]>;
  createImportJob(job: { id: string; fileName: string; csv: string; now: number }): Promise<void>;
  updateImportJob(job: {
    id: string;
    status: ImportJobStatus;
    done: number;
    total: number;
    summary: ImportJobSummary | null;
    error: string | null;
    now: number;
  }): Promise<void>;
  getImportJob(id: string): Promise<ImportJob | null>;
}

export interface ImportCatalogOptions {
  /**
   * The caller has its connection to itself while the import runs (`npm run import`, a process of its own): on
   * SQLite the import may then hold its transaction open across awaits, to hand its search documents to the server
   * processes before it commits (docs/search-engine.md "Imports handed over"). PostgreSQL's import always may: its
   * transaction has a connection of its own. Left out, a SQLite import runs in one synchronous transaction. On
   * SQLite, the import's process also copies what it wrote from the WAL into the database file once it committed.
   */
  ownConnection?: boolean;
  /** How long the import waits for the server processes to build from its handoff (10 s when left out). */
  handoffWaitMs?: number;
}
