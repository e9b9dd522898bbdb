import { ShopError } from '../../../shared/errors/ShopError';
import { cleanForSlug } from '../../../shared/validation/cleanForSlug';
import { checkPostPassword, hashPostPassword } from '../../content/postPassword';
import { placeholderColor } from '../placeholderColor';
import { sanitizeRichText } from '../sanitizeRichText';
import {
  type CatalogImport,
  describeReference,
  type ImportProduct,
  type ImportRowError,
  type ImportSummary,
  type ProductReference,
} from './catalogImport';
import { asciiLower } from './catalogSnapshot';
import { changedRelations, productRowChanged, sameIds, withStoredImageText } from './importDiff';
import type {
  ImportAttributeRef,
  ImportAttributeTermRef,
  ImportCatalogReader,
  ImportOperation,
  ImportPlan,
  ImportProductRelations,
  ImportProductRow,
  StoredProduct,
  TermOperation,
} from './importPlan';

/**
 * Decides what an import writes, engine-free. Products are matched by SKU, then by ID, so a re-import updates rows
 * instead of duplicating them; an ID that belongs to another product (another SKU) is not overwritten. A stored
 * product is written only where the file differs from it (its row, or one of its lists), so an unchanged file
 * writes nothing; with `removeMissing` the products the file leaves out are deleted. Throws a
 * ShopError `import_failed` listing every row that cannot be imported (a variation without its variable parent, a
 * grouped child that does not exist), before anything is written.
 */
export function planCatalogImport(
  { products, site, storedImages, removeMissing = false }: CatalogImport,
  reader: ImportCatalogReader,
): ImportPlan {
  const operations: ImportOperation[] = [];
  const summary: ImportSummary = {
    created: 0,
    updated: 0,
    unchanged: 0,
    removed: 0,
    variations: 0,
    categories: 0,
    posts: 0,
  };
  const errors: ImportRowError[] = [];
  const catalog = new PlannedProducts(reader);

  const terms = new TermPlanner(reader);
  for (const category of site.categories) {
    terms.category(splitPath(category.path), category.description);
  }
  for (const brand of site.brands) terms.brand(brand.name, brand.slug, brand.description);
  operations.push(...terms.drain());
  for (const vendor of site.vendors) operations.push({ kind: 'upsertVendor', ...vendor });

  const attributes = new AttributePlanner(site.attributes);
  // Filled in once every row has named its attributes; written before any product links to them.
  const attributeDefinitionsAt = operations.length;

  // Parents and simple products first, so variations and grouped products can find them whatever the row order.
  const ordered = [...products].sort(
    (a, b) => Number(a.type === 'variation') - Number(b.type === 'variation'),
  );
  const idByCsvId = new Map<number, number>();
  const idBySku = new Map<string, number>();
  const resolve = (reference: ProductReference): number | undefined => {
    if ('sku' in reference) return idBySku.get(reference.sku) ?? catalog.bySku(reference.sku)?.id;
    return idByCsvId.get(reference.csvId) ?? catalog.byId(reference.csvId)?.id;
  };

  // Products whose listing price and stock are recomputed at the end, once their variations and children exist.
  const touchedProducts = new Set<number>();
  // Products whose search entry (and pages) change: a variation counts as its parent.
  const changedProducts = new Set<number>();
  // Stored products whose webhook hears of the change.
  const updatedStored = new Set<number>();
  // Terms that gain or lose a product (their search entry counts products).
  const changedTerms = new Set<number>();
  const termsChanged = (before: readonly number[], after: readonly number[]) => {
    const held = new Set(before);
    const next = new Set(after);
    for (const termId of held) if (!next.has(termId)) changedTerms.add(termId);
    for (const termId of next) if (!held.has(termId)) changedTerms.add(termId);
  };
  const linkedTerms = (relations: ImportProductRelations) => relations.termLinks.map((link) => link.termId);
  // Stored vendors whose count of searchable products changes (the sidecar's moves are the executor's to add).
  const changedVendors = new Set<number>();
  /** A stored product that becomes searchable or stops being so: every term it had or has, and its vendor. */
  const searchabilityChanged = (stored: StoredProduct, termIds: readonly number[]) => {
    for (const termId of [...stored.termIds, ...termIds]) changedTerms.add(termId);
    if (stored.vendorId != null) changedVendors.add(stored.vendorId);
  };
  // Every product the file names, for an import that removes the rest.
  const named = new Set<number>();
  const changed = (id: number, parentId: number | null, pricing = true) => {
    const owner = parentId ?? id;
    changedProducts.add(owner);
    touchedProducts.add(owner);
    // A grouped product's price range and stock follow its children's prices, stock and status.
    if (!pricing) return;
    for (const groupId of reader.groupedParentsOf(owner)) {
      changedProducts.add(groupId);
      touchedProducts.add(groupId);
    }
  };
  for (const product of ordered) {
    let parentId: number | null = null;
    if (product.type === 'variation' && product.parent) {
      parentId = resolve(product.parent) ?? null;
      const parentType = parentId === null ? null : catalog.byId(parentId)?.type;
      if (parentId === null || parentType !== 'variable') {
        errors.push({
          line: product.line,
          column: 'Parent',
          message: `No variable product "${describeReference(product.parent)}" to attach this variation to`,
        });
        continue;
      }
    }

    // Found by SKU: the same product. Found by ID only: the same product unless it has another SKU.
    const bySku = product.sku !== null ? catalog.bySku(product.sku) : undefined;
    const byId = bySku === undefined && product.csvId !== null ? catalog.byId(product.csvId) : undefined;
    const existingId =
      bySku?.id ??
      (byId && (product.sku === null || byId.sku === null || byId.sku === product.sku) ? byId.id : undefined);
    // Written a second time in this file (the same SKU twice): compared with what the first row wrote.
    const stored =
      existingId === undefined || named.has(existingId) ? undefined : reader.storedProduct(existingId);
    const row = productRow(product, parentId, site.products[product.sku ?? ''], stored?.row);
    let id: number;
    // After the product row: the terms it links to may be new rows of their own.
    const relations = productRelations(product, terms, attributes, storedImages);
    if (existingId !== undefined) {
      id = existingId;
      const rowChanged = !stored || productRowChanged(stored.row, row);
      const change = stored ? changedRelations(stored, withStoredImageText(relations, stored)) : relations;
      if (rowChanged) operations.push({ kind: 'updateProduct', id, row });
      if (change.termLinks) termsChanged(stored?.termIds ?? [], linkedTerms(relations));
      if (stored && rowChanged && countsInSearch(stored.row) !== countsInSearch(row)) {
        searchabilityChanged(stored, linkedTerms(relations));
      }
      operations.push({ kind: 'productRelations', productId: id, ...change });
      catalog.wrote(id, row, null);
      if (rowChanged || Object.keys(change).length > 0) {
        summary.updated++;
        changed(id, parentId, !stored || PRICING.some((key) => stored.row[key] !== row[key]));
        updatedStored.add(parentId ?? id);
        // A variation moved to another parent leaves its old one changed too.
        const storedParent = stored?.row.parentId ?? null;
        if (storedParent !== null && storedParent !== parentId) changed(storedParent, null);
      } else summary.unchanged++;
    } else {
      id = product.csvId !== null && !catalog.idTaken(product.csvId) ? product.csvId : catalog.nextId();
      const slug = product.type === 'variation' ? null : catalog.uniqueSlug(product.name);
      operations.push({ kind: 'insertProduct', id, slug, row });
      operations.push({ kind: 'productRelations', productId: id, ...relations });
      catalog.wrote(id, row, slug);
      termsChanged([], linkedTerms(relations));
      summary.created++;
      changed(id, parentId);
    }
    named.add(id);
    if (product.type === 'variation') summary.variations++;
    if (product.csvId !== null) idByCsvId.set(product.csvId, id);
    if (product.sku !== null) idBySku.set(product.sku, id);
  }

  // Grouped children, in the order the row lists them.
  for (const product of products) {
    if (product.type !== 'grouped') continue;
    const parentId = resolve(product.sku !== null ? { sku: product.sku } : { csvId: product.csvId ?? -1 });
    if (parentId === undefined) continue;
    const children: { childId: number; position: number }[] = [];
    product.groupedChildren.forEach((reference, position) => {
      const childId = resolve(reference);
      if (childId === undefined) {
        errors.push({
          line: product.line,
          column: 'Grouped products',
          message: `No product "${describeReference(reference)}" to group`,
        });
      } else children.push({ childId, position });
    });
    const stored = reader.storedProduct(parentId);
    const childIds = children.map((child) => child.childId);
    if (stored && sameIds(stored.groupedChildren, childIds)) continue;
    operations.push({ kind: 'groupedChildren', parentId, children });
    changed(parentId, null);
    if (stored) updatedStored.add(parentId);
  }
  // Upsells and cross-sells, once every row of the file has its id; only when the file has the column.
  for (const product of products) {
    if (product.type === 'variation') continue;
    const productId = resolve(product.sku !== null ? { sku: product.sku } : { csvId: product.csvId ?? -1 });
    if (productId === undefined) continue;
    const lists = [
      ['upsell', 'Upsells', product.upsells],
      ['cross_sell', 'Cross-sells', product.crossSells],
    ] as const;
    for (const [linkKind, column, references] of lists) {
      if (references === undefined) continue;
      const linkedIds: number[] = [];
      for (const reference of references) {
        const linkedId = resolve(reference);
        if (linkedId === undefined) {
          errors.push({
            line: product.line,
            column,
            message: `No product "${describeReference(reference)}" to link`,
          });
        } else if (linkedId !== productId && !linkedIds.includes(linkedId)) linkedIds.push(linkedId);
      }
      const stored = reader.storedProduct(productId);
      if (stored && sameIds(linkKind === 'upsell' ? stored.upsells : stored.crossSells, linkedIds)) continue;
      operations.push({ kind: 'productLinks', productId, linkKind, linkedIds });
      changed(productId, null);
      if (stored) updatedStored.add(productId);
    }
  }
  if (removeMissing) {
    const gone = reader.productIds().filter((id) => !named.has(id));
    const goneSet = new Set(gone);
    if (gone.length > 0) operations.push({ kind: 'deleteProducts', ids: gone });
    for (const id of gone) {
      const stored = reader.storedProduct(id);
      const parentId = stored?.row.parentId ?? null;
      termsChanged(stored?.termIds ?? [], []);
      if (stored?.vendorId != null && countsInSearch(stored.row)) changedVendors.add(stored.vendorId);
      if (parentId === null) {
        summary.removed++;
        // The index drops it; its grouped parents' price ranges follow.
        changed(id, null);
      } else if (!goneSet.has(parentId)) changed(id, parentId);
    }
    // Nothing is left of a deleted product to refresh or report.
    for (const id of gone) {
      touchedProducts.delete(id);
      updatedStored.delete(id);
    }
  }
  for (const productId of touchedProducts) operations.push({ kind: 'refreshProduct', productId });
  for (const productId of updatedStored) {
    if (catalog.byId(productId)?.type !== 'variation') operations.push({ kind: 'productUpdated', productId });
  }
  operations.splice(attributeDefinitionsAt, 0, {
    kind: 'attributeDefinitions',
    ...attributes.definitions(),
  });

  if (errors.length > 0) {
    throw new ShopError('import_failed', `${errors.length} row(s) could not be imported`, { errors });
  }

  if (site.vendors.length > 0 || Object.keys(site.products).length > 0) {
    for (const [sku, meta] of Object.entries(site.products)) {
      operations.push({
        kind: 'productSidecar',
        sku,
        vendor: meta.vendor ?? null,
        average: meta.rating?.average ?? null,
        count: meta.rating?.count ?? null,
      });
    }
  }

  const plannedHashes = new Map<string, string | null>();
  for (const post of site.posts) {
    // An unchanged password keeps its hash, so visitors who unlocked the page stay unlocked after a re-import.
    const stored = plannedHashes.has(post.slug)
      ? plannedHashes.get(post.slug)
      : reader.postPasswordHash(post.slug);
    const keep = post.password !== undefined && stored && checkPostPassword(post.password, stored);
    const passwordHash = keep ? stored : post.password ? hashPostPassword(post.password) : null;
    plannedHashes.set(post.slug, passwordHash);
    operations.push({
      kind: 'upsertPost',
      type: post.type,
      slug: post.slug,
      title: post.title,
      excerpt: post.excerpt,
      content: sanitizeRichText(post.content),
      passwordHash,
      publishedAt: post.publishedAt,
    });
    summary.posts++;
  }
  summary.categories = terms.categoryCount();
  return {
    operations,
    changedProducts: [...changedProducts],
    changedTerms: [...changedTerms],
    changedVendors: [...changedVendors],
    summary,
    total: products.length,
  };
}

/** Whether the product counts in its terms' and vendor's search entries (searchDocumentRows.ts, SEARCHABLE). */
function countsInSearch(row: Pick<ImportProductRow, 'type' | 'status' | 'visibility'>): boolean {
  return (
    row.type !== 'variation' &&
    row.status === 'publish' &&
    (row.visibility === 'visible' || row.visibility === 'search')
  );
}

/** The columns a grouped product's derived price range and stock status are computed from. */
const PRICING = ['regularPrice', 'salePrice', 'stockStatus', 'status', 'type'] as const;

/**
 * The file's product as a row. `stored`: the row the product has, whose texts are sanitizer output already (every path
 * that writes them sanitizes); a text the file gives exactly as stored is kept without parsing it again — a
 * re-import of an unchanged catalog spent a third of its planning in the HTML sanitizer.
 */
function productRow(
  product: ImportProduct,
  parentId: number | null,
  meta: { totalSales?: number } | undefined,
  stored: Pick<ImportProductRow, 'shortDescription' | 'description'> | undefined,
): ImportProductRow {
  const richText = (text: string, storedText: string | undefined) =>
    text === storedText ? storedText : sanitizeRichText(text);
  return {
    type: product.type,
    parentId,
    sku: product.sku,
    name: product.name,
    status: product.published ? 'publish' : 'draft',
    isPrivate: product.private ? 1 : 0,
    featured: Number(product.featured),
    visibility: product.visibility,
    shortDescription: richText(product.shortDescription, stored?.shortDescription),
    description: richText(product.description, stored?.description),
    regularPrice: product.regularPrice,
    salePrice: product.salePrice,
    stockStatus: product.stockStatus,
    stockQuantity: product.stockQuantity,
    soldIndividually: Number(product.soldIndividually),
    virtual: Number(product.virtual),
    downloadable: Number(product.downloadable),
    externalUrl: product.externalUrl,
    buttonText: product.buttonText,
    menuOrder: product.position,
    totalSales: meta?.totalSales ?? null,
  };
}

function productRelations(
  product: ImportProduct,
  terms: TermPlanner,
  attributes: AttributePlanner,
  storedImages: ReadonlyMap<string, string> | undefined,
): ImportProductRelations {
  // Each link with the terms it creates, so they are written just before it.
  const link = (termId: number) => ({ termId, newTerms: terms.drain() });
  const termLinks = [
    ...product.categories.map((path) => link(terms.category(path))),
    ...product.tags.map((tag) => link(terms.tag(tag))),
    ...product.brands.map((brand) => link(terms.brand(brand))),
  ];
  const isVariation = product.type === 'variation';
  return {
    termLinks,
    images: product.images.map((url, position) => ({
      position,
      sourceUrl: url,
      alt: product.name,
      color: placeholderColor(url, product.name),
      storedKey: storedImages?.get(url) ?? null,
    })),
    downloads: product.downloads.map((download, position) => ({ position, ...download })),
    attributes: isVariation
      ? null
      : product.attributes.map((attribute, position) => ({
          attribute: attributes.attribute(attribute.name),
          position,
          visible: Number(attribute.visible),
          terms: attribute.values.map((value, termPosition) => ({
            term: attributes.term(attribute.name, value),
            position: termPosition,
          })),
        })),
    variationAttributes: isVariation
      ? product.attributes.map((attribute) => {
          const value = attribute.values[0];
          return {
            attribute: attributes.attribute(attribute.name),
            term: value === undefined ? null : attributes.term(attribute.name, value),
          };
        })
      : null,
  };
}

function splitPath(path: string): string[] {
  return path
    .split('>')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The products as the plan leaves them: the reader's rows, overlaid with the rows the plan writes. */
class PlannedProducts {
  #reader: ImportCatalogReader;
  #written = new Map<number, { id: number; type: string; sku: string | null }>();
  #idBySku = new Map<string, number>();
  #slugs = new Set<string>();
  #maxId: number;
  constructor(reader: ImportCatalogReader) {
    this.#reader = reader;
    this.#maxId = reader.maxProductId();
  }

  bySku(sku: string): { id: number; type: string } | undefined {
    const planned = this.#idBySku.get(sku);
    if (planned !== undefined) return this.#written.get(planned);
    const stored = this.#reader.productBySku(sku);
    // A stored product the plan rewrites no longer has this SKU (else the plan's own index would hold it).
    return stored && !this.#written.has(stored.id) ? stored : undefined;
  }

  byId(id: number): { id: number; type: string; sku: string | null } | undefined {
    return this.#written.get(id) ?? this.#reader.productById(id);
  }

  idTaken(id: number): boolean {
    return this.byId(id) !== undefined;
  }

  /** The id SQLite gives a row inserted without one: one past the highest. */
  nextId(): number {
    return this.#maxId + 1;
  }

  uniqueSlug(name: string): string {
    const base = cleanForSlug(name) || 'product';
    const taken = (slug: string) => this.#slugs.has(slug) || this.#reader.productSlugTaken(slug);
    let slug = base;
    for (let n = 2; taken(slug); n++) slug = `${base}-${n}`;
    return slug;
  }

  /** Records a row the plan writes (slug: a new product's, null for an update or a variation). */
  wrote(id: number, { sku, type }: ImportProductRow, slug: string | null) {
    const previous = this.#written.get(id);
    if (previous?.sku != null && this.#idBySku.get(previous.sku) === id) this.#idBySku.delete(previous.sku);
    this.#written.set(id, { id, type, sku });
    if (sku !== null) this.#idBySku.set(sku, id);
    if (slug !== null) this.#slugs.add(slug);
    this.#maxId = Math.max(this.#maxId, id);
  }
}

/** Finds or plans taxonomy terms by name (and path, for hierarchical categories). */
class TermPlanner {
  #reader: ImportCatalogReader;
  /** Term writes planned since the last drain. */
  #pending: TermOperation[] = [];
  #cache = new Map<string, number>();
  #categories = new Set<number>();
  #planned: { id: number; taxonomy: string; slug: string; name: string; parentId: number | null }[] = [];
  #plannedSlugs = new Set<string>();
  #maxId: number;
  constructor(reader: ImportCatalogReader) {
    this.#reader = reader;
    this.#maxId = reader.maxTermId();
  }

  /** The term writes planned since the last call, in order. */
  drain(): TermOperation[] {
    const pending = this.#pending;
    this.#pending = [];
    return pending;
  }

  category(path: string[], description?: string): number {
    let parentId: number | null = null;
    for (const [index, name] of path.entries()) {
      const isLeaf = index === path.length - 1;
      parentId = this.#ensure(
        'product_cat',
        name,
        cleanForSlug(path.slice(0, index + 1).join('-')),
        parentId,
        isLeaf ? description : undefined,
        cleanForSlug(name),
      );
      this.#categories.add(parentId);
    }
    if (parentId === null) throw new ShopError('import_failed', 'An empty category path');
    return parentId;
  }

  tag(name: string): number {
    return this.#ensure('product_tag', name, cleanForSlug(name), null);
  }

  brand(name: string, slug?: string, description?: string): number {
    return this.#ensure('product_brand', name, slug ?? cleanForSlug(name), null, description);
  }

  categoryCount(): number {
    return this.#categories.size;
  }

  /**
   * Categories are found by name under their parent. A new one gets the plain slug of its name when it is free
   * (WooCommerce's URLs), and the slug of its whole path when another branch already uses that name.
   */
  #ensure(
    taxonomy: string,
    name: string,
    fallbackSlug: string,
    parentId: number | null,
    description?: string,
    preferredSlug?: string,
  ): number {
    const cacheKey = `${taxonomy}\u0000${parentId ?? ''}\u0000${name.toLowerCase()}`;
    const cached = this.#cache.get(cacheKey);
    if (cached !== undefined && description === undefined) return cached;
    const found = this.#find(taxonomy, name, parentId, fallbackSlug);
    let id: number;
    if (found !== undefined) {
      id = found;
      if (description !== undefined && description !== '') {
        this.#pending.push({ kind: 'setTermDescription', id, description });
      }
    } else {
      const taken = (slug: string) =>
        this.#plannedSlugs.has(`${taxonomy}\u0000${slug}`) || this.#reader.termSlugTaken(taxonomy, slug);
      const first = preferredSlug ?? fallbackSlug;
      let slug = taken(first) ? fallbackSlug : first;
      for (let n = 2; taken(slug); n++) slug = `${fallbackSlug}-${n}`;
      id = ++this.#maxId;
      const term = { id, taxonomy, slug: slug || 'term', name, parentId };
      this.#planned.push(term);
      this.#plannedSlugs.add(`${taxonomy}\u0000${term.slug}`);
      this.#pending.push({ kind: 'insertTerm', ...term, description: description ?? '' });
    }
    this.#cache.set(cacheKey, id);
    return id;
  }

  /** By name under the parent, else (at the root) by slug; stored terms before planned ones. */
  #find(taxonomy: string, name: string, parentId: number | null, slug: string): number | undefined {
    const folded = asciiLower(name);
    const byName =
      this.#reader.termByName(taxonomy, name, parentId) ??
      this.#planned.find(
        (term) =>
          term.taxonomy === taxonomy && term.parentId === parentId && asciiLower(term.name) === folded,
      )?.id;
    if (byName !== undefined || parentId !== null) return byName;
    return (
      this.#reader.rootTermBySlug(taxonomy, slug) ??
      this.#planned.find((term) => term.taxonomy === taxonomy && term.parentId === null && term.slug === slug)
        ?.id
    );
  }
}

/** Global attributes and their terms, with swatch types and colours from the sidecar. */
class AttributePlanner {
  #settings: CatalogImport['site']['attributes'];
  /** The first definition of each attribute (and attribute term) by slug: the one written. */
  #attributes = new Map<string, ImportAttributeRef>();
  #terms = new Map<string, { attribute: string; term: ImportAttributeTermRef }>();
  constructor(settings: CatalogImport['site']['attributes']) {
    this.#settings = settings;
  }

  attribute(name: string): ImportAttributeRef {
    const ref = {
      slug: cleanForSlug(name) || 'attribute',
      name,
      swatchType: this.#settings[name]?.swatchType ?? 'select',
      swatchTypeSet: name in this.#settings,
    };
    if (!this.#attributes.has(ref.slug)) this.#attributes.set(ref.slug, ref);
    return ref;
  }

  term(attributeName: string, value: string): ImportAttributeTermRef {
    const look = this.#settings[attributeName]?.terms[value];
    const ref = {
      slug: cleanForSlug(value) || 'value',
      name: value,
      color: look?.color ?? null,
      image: look?.image ?? null,
      swatchType: look?.swatchType ?? null,
    };
    const attribute = this.attribute(attributeName).slug;
    const key = `${attribute}\u0000${ref.slug}`;
    if (!this.#terms.has(key)) this.#terms.set(key, { attribute, term: ref });
    return ref;
  }

  definitions() {
    return { attributes: [...this.#attributes.values()], terms: [...this.#terms.values()] };
  }
}
