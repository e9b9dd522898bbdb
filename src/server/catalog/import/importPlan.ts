import type { ImportProduct, ImportSummary } from './catalogImport';

/*
 * What a catalog import will write, decided before any write: the planner (planCatalogImport) reads what exists
 * through an ImportCatalogReader and returns the rows to write in order; an engine's executor applies them in one
 * transaction. New products and terms carry the ids the planner chose (the next free id, as SQLite assigns them),
 * so rows written later in the plan can point at them, and a later row's ID can be checked against them.
 * Attributes and their terms are named by slug; the executor finds or creates them as it writes.
 */

/** What the planner reads of the catalog as it stands before the import. Lookups are synchronous. */
export interface ImportCatalogReader {
  productBySku(sku: string): { id: number; type: string } | undefined;
  productById(id: number): { id: number; type: string; sku: string | null } | undefined;
  productSlugTaken(slug: string): boolean;
  /** The highest product id, 0 for none. */
  maxProductId(): number;
  /**
   * A term of the taxonomy under this parent (null: at the root) whose name equals `name` with ASCII letters
   * folded to lower case (SQLite's lower(), which the import has always matched with).
   */
  termByName(taxonomy: string, name: string, parentId: number | null): number | undefined;
  /** A root term of the taxonomy with this slug. */
  rootTermBySlug(taxonomy: string, slug: string): number | undefined;
  termSlugTaken(taxonomy: string, slug: string): boolean;
  /** The highest term id, 0 for none. */
  maxTermId(): number;
  /** The stored password hash of a post (null: none), undefined when no post has the slug. */
  postPasswordHash(slug: string): string | null | undefined;
  /**
   * What a stored product holds, for the plan to leave an unchanged product unwritten; undefined when the reader
   * does not know (the product is then written as if it had changed).
   */
  storedProduct(id: number): StoredProduct | undefined;
  /** The grouped products that list this product among their children (their price range follows it). */
  groupedParentsOf(childId: number): readonly number[];
  /** Every stored product's id, variations included (an import that removes what the file leaves out). */
  productIds(): number[];
}

/** A stored product as an import compares it with its row in the file. */
export interface StoredProduct {
  row: ImportProductRow;
  /** Its vendor (null: none; left out by a reader that does not know). */
  vendorId?: number | null;
  /** The terms it links to, in no order. */
  termIds: number[];
  images: ImportProductRelations['images'];
  downloads: ImportProductRelations['downloads'];
  /** Attributes and their terms by slug, in position order. */
  attributes: {
    slug: string;
    position: number;
    visible: number;
    terms: { slug: string; position: number }[];
  }[];
  /** A variation's value per attribute, by slug (term null: any value). */
  variationAttributes: { attribute: string; term: string | null }[];
  /** Child ids in position order. */
  groupedChildren: number[];
  upsells: number[];
  crossSells: number[];
}

/** The columns a product stores as the import row has them. */
type ImportProductColumns = Pick<
  ImportProduct,
  | 'sku'
  | 'name'
  | 'visibility'
  | 'shortDescription'
  | 'description'
  | 'regularPrice'
  | 'salePrice'
  | 'stockStatus'
  | 'stockQuantity'
>;

/** A product's own columns, ready to store. */
export interface ImportProductRow extends ImportProductColumns {
  type: string;
  parentId: number | null;
  status: 'publish' | 'draft';
  /** 1 for a private product (its status is 'draft' too). */
  isPrivate: number;
  featured: number;
  soldIndividually: number;
  virtual: number;
  downloadable: number;
  externalUrl: string | null;
  buttonText: string | null;
  menuOrder: number;
  /** From the sidecar; null keeps the stored figure (0 for a new product). */
  totalSales: number | null;
}

/** A global attribute, found or created by slug when written. */
export interface ImportAttributeRef {
  slug: string;
  name: string;
  swatchType: string;
  /** Whether the sidecar sets the swatch type (then it replaces the stored one). */
  swatchTypeSet: boolean;
}

/** A term of a global attribute, found or created by slug; a colour, image or swatch type given replaces the stored one. */
export interface ImportAttributeTermRef {
  slug: string;
  name: string;
  color: string | null;
  image: string | null;
  swatchType: string | null;
}

/** Everything a product row links to; each list replaces what the product had. */
export interface ImportProductRelations {
  /** Terms linked, each after the term rows it needs that the import creates (a new category and its parents). */
  termLinks: { termId: number; newTerms: TermOperation[] }[];
  /** Updated in place by position, so image ids (and the addresses pages link to) survive a re-import. */
  images: {
    position: number;
    sourceUrl: string;
    alt: string;
    color: string;
    /** The key of the image's resized files when the import stored them (catalog-images/), else null. */
    storedKey: string | null;
  }[];
  downloads: { position: number; name: string; url: string }[];
  /** A parent's (or simple product's) attributes with their values; null for a variation. */
  attributes:
    | {
        attribute: ImportAttributeRef;
        position: number;
        visible: number;
        terms: { term: ImportAttributeTermRef; position: number }[];
      }[]
    | null;
  /** A variation's value per attribute (term null: any value); null for anything else. */
  variationAttributes: { attribute: ImportAttributeRef; term: ImportAttributeTermRef | null }[] | null;
}

export type TermOperation =
  | {
      kind: 'insertTerm';
      id: number;
      taxonomy: string;
      slug: string;
      name: string;
      parentId: number | null;
      description: string;
    }
  | { kind: 'setTermDescription'; id: number; description: string };

export type ImportOperation =
  | TermOperation
  | { kind: 'upsertVendor'; slug: string; name: string; storeUrl: string | null; city: string | null }
  /** A new product with the id and slug the planner chose. */
  | { kind: 'insertProduct'; id: number; slug: string | null; row: ImportProductRow }
  /** A stored product's columns (its slug kept). */
  | { kind: 'updateProduct'; id: number; row: ImportProductRow }
  /**
   * What the product links to, once the product and its terms exist; one per imported row. A list left out is
   * the same as stored and is not written.
   */
  | ({ kind: 'productRelations'; productId: number } & Partial<ImportProductRelations>)
  /**
   * The global attributes and attribute terms the file names, found or created by slug (a swatch type or colour
   * the file sets replaces the stored one), before any product links to them.
   */
  | {
      kind: 'attributeDefinitions';
      attributes: ImportAttributeRef[];
      terms: { attribute: string; term: ImportAttributeTermRef }[];
    }
  /** Products (their variations with them) the file no longer has, in an import that removes what it leaves out. */
  | { kind: 'deleteProducts'; ids: number[] }
  | { kind: 'groupedChildren'; parentId: number; children: { childId: number; position: number }[] }
  /** Replaces the product's upsells or cross-sells with these, in this order. */
  | { kind: 'productLinks'; productId: number; linkKind: 'upsell' | 'cross_sell'; linkedIds: number[] }
  /** A stored product the import changed (its row, lists or variations): its webhook hears of it. */
  | { kind: 'productUpdated'; productId: number }
  /** Marks which attributes its variations use, then recomputes the listing price and stock. */
  | { kind: 'refreshProduct'; productId: number }
  | {
      kind: 'productSidecar';
      sku: string;
      vendor: string | null;
      average: number | null;
      count: number | null;
    }
  | {
      kind: 'upsertPost';
      type: 'post' | 'page';
      slug: string;
      title: string;
      excerpt: string;
      content: string;
      passwordHash: string | null;
      publishedAt: string;
    };

export interface ImportPlan {
  operations: ImportOperation[];
  /**
   * The products whose search entry changes (a variation's parent stands for it), each once: the executor writes
   * them to the change feed in one statement, where per-row triggers would write one change per joined row.
   */
  changedProducts: number[];
  /**
   * The terms whose count of searchable products changes: those a product joins or leaves, and every term of a
   * product that becomes searchable or stops being so (new terms are recorded by their own insert).
   */
  changedTerms: number[];
  /**
   * The stored vendors whose count of searchable products changes: the vendor of a product that becomes searchable
   * or stops being so, and of a searchable product removed. A product's vendor is set by the sidecar after its row
   * is written, so the executor adds the vendors its sidecar writes move products between (new products included).
   */
  changedVendors: number[];
  summary: ImportSummary;
  /** Rows in the import: progress counts productRelations operations written, out of this. */
  total: number;
}
