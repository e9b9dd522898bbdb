import type Database from 'better-sqlite3';
import type { CatalogImport, ImportSummary } from '../../catalog/import/catalogImport';
import type {
  ImportAttributeRef,
  ImportAttributeTermRef,
  ImportCatalogReader,
  ImportOperation,
  ImportPlan,
  ImportProductRow,
} from '../../catalog/import/importPlan';
import { planCatalogImport } from '../../catalog/import/planCatalogImport';
import { HAS_APPROVED_REVIEW } from '../sql/reviewSql';
import { termInsertSql, termInsertValues } from '../sql/termInsert';
import { ENQUEUE_WEBHOOK_EVENT, webhookEventParams } from '../sql/webhookSql';
import { refreshDerivedFields } from './refreshDerivedFields';

/**
 * Imports a catalog into SQLite: plans it against the stored catalog, then writes the plan. Runs inside the
 * caller's transaction; any error (a ShopError for rows that cannot be imported) rolls the whole import back.
 */
export function writeCatalogImport(
  database: Database.Database,
  catalog: CatalogImport,
  onProgress: (done: number, total: number) => void,
): ImportSummary {
  const db = withStatementCache(database);
  const plan = planCatalogImport(catalog, new SqliteImportReader(db));
  executeImportPlan(db, plan, onProgress);
  return plan.summary;
}

/** What the planner reads, straight from the tables. */
class SqliteImportReader implements ImportCatalogReader {
  #db: Database.Database;
  constructor(db: Database.Database) {
    this.#db = db;
  }

  productBySku(sku: string) {
    return this.#db.prepare('SELECT id, type FROM products WHERE sku = ?').get(sku) as
      | { id: number; type: string }
      | undefined;
  }

  productById(id: number) {
    return this.#db.prepare('SELECT id, type, sku FROM products WHERE id = ?').get(id) as
      | { id: number; type: string; sku: string | null }
      | undefined;
  }

  productSlugTaken(slug: string): boolean {
    return this.#db.prepare('SELECT 1 FROM products WHERE slug = ?').get(slug) !== undefined;
  }

  maxProductId(): number {
    return this.#db.prepare('SELECT COALESCE(MAX(id), 0) FROM products').pluck().get() as number;
  }

  termByName(taxonomy: string, name: string, parentId: number | null) {
    const found = this.#db
      .prepare(
        'SELECT id FROM terms WHERE taxonomy = ? AND lower(name) = lower(?) AND parent_id IS ? LIMIT 1',
      )
      .pluck()
      .get(taxonomy, name, parentId);
    return found as number | undefined;
  }

  rootTermBySlug(taxonomy: string, slug: string) {
    const found = this.#db
      .prepare('SELECT id FROM terms WHERE taxonomy = ? AND slug = ? AND parent_id IS NULL LIMIT 1')
      .pluck()
      .get(taxonomy, slug);
    return found as number | undefined;
  }

  termSlugTaken(taxonomy: string, slug: string): boolean {
    return (
      this.#db.prepare('SELECT 1 FROM terms WHERE taxonomy = ? AND slug = ?').get(taxonomy, slug) !==
      undefined
    );
  }

  maxTermId(): number {
    return this.#db.prepare('SELECT COALESCE(MAX(id), 0) FROM terms').pluck().get() as number;
  }

  postPasswordHash(slug: string) {
    return this.#db.prepare('SELECT password_hash FROM posts WHERE slug = ?').pluck().get(slug) as
      | string
      | null
      | undefined;
  }
}

/** Writes a plan's rows in order; the caller holds the transaction. */
function executeImportPlan(
  db: Database.Database,
  plan: ImportPlan,
  onProgress: (done: number, total: number) => void,
): void {
  let done = 0;
  for (const operation of plan.operations) {
    writeOperation(db, operation);
    if (operation.kind === 'productRelations') onProgress(++done, plan.total);
  }
}

function writeOperation(db: Database.Database, operation: ImportOperation): void {
  switch (operation.kind) {
    case 'insertTerm':
      db.prepare(termInsertSql('sqlite')).run(...termInsertValues(operation));
      return;
    case 'setTermDescription':
      db.prepare('UPDATE terms SET description = ? WHERE id = ?').run(operation.description, operation.id);
      return;
    case 'upsertVendor':
      db.prepare(
        `INSERT INTO vendors (slug, name, store_url, city) VALUES (@slug, @name, @storeUrl, @city)
         ON CONFLICT (slug) DO UPDATE SET name = excluded.name, store_url = excluded.store_url, city = excluded.city`,
      ).run({
        slug: operation.slug,
        name: operation.name,
        storeUrl: operation.storeUrl,
        city: operation.city,
      });
      return;
    case 'insertProduct':
      db.prepare(
        `INSERT INTO products (id, type, parent_id, sku, slug, name, status, featured, visibility, short_description,
           description, regular_price, sale_price, stock_status, stock_quantity, sold_individually, is_virtual,
           is_downloadable, external_url, button_text, menu_order, total_sales, is_private)
         VALUES (@id, @type, @parentId, @sku, @slug, @name, @status, @featured, @visibility, @shortDescription,
           @description, @regularPrice, @salePrice, @stockStatus, @stockQuantity, @soldIndividually, @virtual,
           @downloadable, @externalUrl, @buttonText, @menuOrder, COALESCE(@totalSales, 0), @isPrivate)`,
      ).run({ ...operation.row, id: operation.id, slug: operation.slug });
      return;
    case 'updateProduct':
      db.prepare(
        `UPDATE products SET type = @type, parent_id = @parentId, sku = @sku, name = @name, status = @status,
           featured = @featured, visibility = @visibility, short_description = @shortDescription,
           description = @description, regular_price = @regularPrice, sale_price = @salePrice,
           stock_status = @stockStatus, stock_quantity = @stockQuantity, sold_individually = @soldIndividually,
           is_virtual = @virtual, is_downloadable = @downloadable, external_url = @externalUrl,
           button_text = @buttonText, menu_order = @menuOrder,
           total_sales = COALESCE(@totalSales, total_sales), is_private = @isPrivate
         WHERE id = @id`,
      ).run({ ...(operation.row satisfies ImportProductRow), id: operation.id });
      // An import that changes an existing product reports it, in the import's transaction (its variations go
      // with their parent's event, as the back office's edit does).
      if (operation.row.type !== 'variation')
        db.prepare(ENQUEUE_WEBHOOK_EVENT).run(webhookEventParams('product.updated', operation.id));
      return;
    case 'productRelations':
      writeRelations(db, operation);
      return;
    case 'groupedChildren': {
      db.prepare('DELETE FROM grouped_children WHERE parent_id = ?').run(operation.parentId);
      const addChild = db.prepare(
        'INSERT INTO grouped_children (parent_id, child_id, position) VALUES (?, ?, ?)',
      );
      for (const { childId, position } of operation.children)
        addChild.run(operation.parentId, childId, position);
      return;
    }
    case 'productLinks': {
      db.prepare('DELETE FROM product_links WHERE product_id = ? AND kind = ?').run(
        operation.productId,
        operation.linkKind,
      );
      const addLink = db.prepare(
        'INSERT INTO product_links (product_id, kind, linked_id, position) VALUES (?, ?, ?, ?)',
      );
      for (const [position, linkedId] of operation.linkedIds.entries())
        addLink.run(operation.productId, operation.linkKind, linkedId, position);
      return;
    }
    case 'refreshProduct':
      db.prepare(
        `UPDATE product_attributes SET for_variations = EXISTS (
           SELECT 1 FROM products v JOIN variation_attributes va ON va.variation_id = v.id
           WHERE v.parent_id = product_attributes.product_id AND va.attribute_id = product_attributes.attribute_id)
         WHERE product_id = ?`,
      ).run(operation.productId);
      refreshDerivedFields(db, operation.productId);
      return;
    case 'productSidecar':
      db.prepare(
        `UPDATE products SET
           vendor_id = COALESCE((SELECT id FROM vendors WHERE slug = @vendor), vendor_id),
           rating_imported_average = COALESCE(@average, rating_imported_average),
           rating_imported_count = COALESCE(@count, rating_imported_count),
           rating_average = CASE WHEN ${HAS_APPROVED_REVIEW} THEN rating_average ELSE COALESCE(@average, rating_average) END,
           rating_count = CASE WHEN ${HAS_APPROVED_REVIEW} THEN rating_count ELSE COALESCE(@count, rating_count) END
         WHERE sku = @sku`,
      ).run({
        sku: operation.sku,
        vendor: operation.vendor,
        average: operation.average,
        count: operation.count,
      });
      return;
    case 'upsertPost':
      db.prepare(
        `INSERT INTO posts (type, slug, title, excerpt, content, password_hash, published_at)
         VALUES (@type, @slug, @title, @excerpt, @content, @passwordHash, @publishedAt)
         ON CONFLICT (slug) DO UPDATE SET type = excluded.type, title = excluded.title, excerpt = excluded.excerpt,
           content = excluded.content, password_hash = excluded.password_hash, published_at = excluded.published_at`,
      ).run({
        type: operation.type,
        slug: operation.slug,
        title: operation.title,
        excerpt: operation.excerpt,
        content: operation.content,
        passwordHash: operation.passwordHash,
        publishedAt: operation.publishedAt,
      });
      return;
  }
}

function writeRelations(
  db: Database.Database,
  relations: Extract<ImportOperation, { kind: 'productRelations' }>,
): void {
  const id = relations.productId;
  db.prepare('DELETE FROM product_terms WHERE product_id = ?').run(id);
  const link = db.prepare('INSERT OR IGNORE INTO product_terms (product_id, term_id) VALUES (?, ?)');
  for (const { termId, newTerms } of relations.termLinks) {
    for (const term of newTerms) writeOperation(db, term);
    link.run(id, termId);
  }

  const upsertImage = db.prepare(
    `INSERT INTO product_images (product_id, position, source_url, alt, color, stored_key) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (product_id, position) DO UPDATE SET source_url = excluded.source_url, alt = excluded.alt,
       color = excluded.color, stored_key = excluded.stored_key`,
  );
  for (const image of relations.images) {
    upsertImage.run(id, image.position, image.sourceUrl, image.alt, image.color, image.storedKey);
  }
  db.prepare('DELETE FROM product_images WHERE product_id = ? AND position >= ?').run(
    id,
    relations.images.length,
  );

  db.prepare('DELETE FROM product_downloads WHERE product_id = ?').run(id);
  const addDownload = db.prepare(
    'INSERT INTO product_downloads (product_id, position, name, url) VALUES (?, ?, ?, ?)',
  );
  for (const download of relations.downloads)
    addDownload.run(id, download.position, download.name, download.url);

  if (relations.variationAttributes !== null) {
    db.prepare('DELETE FROM variation_attributes WHERE variation_id = ?').run(id);
    const add = db.prepare(
      'INSERT INTO variation_attributes (variation_id, attribute_id, term_id) VALUES (?, ?, ?)',
    );
    for (const { attribute, term } of relations.variationAttributes) {
      const attributeId = ensureAttribute(db, attribute);
      add.run(id, attributeId, term === null ? null : ensureAttributeTerm(db, attributeId, term));
    }
  }
  if (relations.attributes !== null) {
    db.prepare('DELETE FROM product_attribute_terms WHERE product_id = ?').run(id);
    db.prepare('DELETE FROM product_attributes WHERE product_id = ?').run(id);
    const addAttribute = db.prepare(
      'INSERT INTO product_attributes (product_id, attribute_id, position, visible) VALUES (?, ?, ?, ?)',
    );
    const addTerm = db.prepare(
      'INSERT OR IGNORE INTO product_attribute_terms (product_id, attribute_id, term_id, position) VALUES (?, ?, ?, ?)',
    );
    for (const { attribute, position, visible, terms } of relations.attributes) {
      const attributeId = ensureAttribute(db, attribute);
      addAttribute.run(id, attributeId, position, visible);
      for (const { term, position: termPosition } of terms) {
        addTerm.run(id, attributeId, ensureAttributeTerm(db, attributeId, term), termPosition);
      }
    }
  }
}

function ensureAttribute(db: Database.Database, attribute: ImportAttributeRef): number {
  db.prepare(
    `INSERT INTO attributes (slug, name, swatch_type) VALUES (?, ?, ?)
     ON CONFLICT (slug) DO UPDATE SET swatch_type = CASE WHEN ? THEN excluded.swatch_type ELSE swatch_type END`,
  ).run(attribute.slug, attribute.name, attribute.swatchType, Number(attribute.swatchTypeSet));
  return (db.prepare('SELECT id FROM attributes WHERE slug = ?').get(attribute.slug) as { id: number }).id;
}

function ensureAttributeTerm(
  db: Database.Database,
  attributeId: number,
  term: ImportAttributeTermRef,
): number {
  db.prepare(
    `INSERT INTO attribute_terms (attribute_id, slug, name, color, image, swatch_type) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (attribute_id, slug) DO UPDATE SET
       color = COALESCE(excluded.color, color), image = COALESCE(excluded.image, image),
       swatch_type = COALESCE(excluded.swatch_type, swatch_type)`,
  ).run(attributeId, term.slug, term.name, term.color, term.image, term.swatchType);
  return (
    db
      .prepare('SELECT id FROM attribute_terms WHERE attribute_id = ? AND slug = ?')
      .get(attributeId, term.slug) as {
      id: number;
    }
  ).id;
}

/**
 * The same database with `prepare` memoized for the length of one import: compiling a statement (and the search
 * index's triggers on the tables it writes) cost more than running it, once per row of a 100,000-product import.
 */
function withStatementCache(db: Database.Database): Database.Database {
  const statements = new Map<string, Database.Statement>();
  return new Proxy(db, {
    get(target, property) {
      if (property === 'prepare') {
        return (sql: string) => {
          let statement = statements.get(sql);
          if (!statement) {
            statement = target.prepare(sql);
            statements.set(sql, statement);
          }
          return statement;
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
