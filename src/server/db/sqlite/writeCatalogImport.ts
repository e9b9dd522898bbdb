import type Database from 'better-sqlite3';
import type { CatalogImport, ImportSummary } from '../../catalog/import/catalogImport';
import {
  type CatalogSnapshot,
  SnapshotImportReader,
  type StoredCatalogRows,
} from '../../catalog/import/catalogSnapshot';
import type {
  ImportAttributeRef,
  ImportAttributeTermRef,
  ImportOperation,
  ImportPlan,
  ImportProductRow,
} from '../../catalog/import/importPlan';
import { planCatalogImport } from '../../catalog/import/planCatalogImport';
import { SNAPSHOT_POSTS, SNAPSHOT_PRODUCTS, SNAPSHOT_STORED, SNAPSHOT_TERMS } from '../sql/importSnapshotSql';
import { HAS_APPROVED_REVIEW } from '../sql/reviewSql';
import { termInsertSql, termInsertValues } from '../sql/termInsert';
import { ENQUEUE_WEBHOOK_EVENT, webhookEventParams } from '../sql/webhookSql';
import { refreshDerivedFields } from './refreshDerivedFields';

/**
 * Imports a catalog into SQLite: plans it against a snapshot of the stored catalog, then writes the plan — only what
 * differs from what is stored. Runs inside the caller's transaction; any error (a ShopError for rows that cannot
 * be imported) rolls the whole import back.
 */
export function writeCatalogImport(
  database: Database.Database,
  catalog: CatalogImport,
  onProgress: (done: number, total: number) => void,
): ImportSummary {
  const db = withStatementCache(database);
  const plan = planCatalogImport(catalog, new SnapshotImportReader(readSnapshot(db)));
  // The per-row change triggers stand aside for this transaction: the import records its changes itself below.
  db.prepare('INSERT INTO search_capture_paused (paused) VALUES (1)').run();
  try {
    const sidecar = executeImportPlan(db, plan, onProgress);
    recordChanges(db, 'product', [...new Set([...plan.changedProducts, ...sidecar.products])]);
    recordChanges(db, 'term', plan.changedTerms);
    recordChanges(db, 'vendor', [...new Set([...plan.changedVendors, ...sidecar.vendors])]);
  } finally {
    db.prepare('DELETE FROM search_capture_paused').run();
  }
  return plan.summary;
}

function readSnapshot(db: Database.Database): CatalogSnapshot {
  const all = <T>(sql: string) => db.prepare(sql).all() as T[];
  const stored = Object.fromEntries(
    Object.entries(SNAPSHOT_STORED).map(([list, sql]) => [list, all(sql)]),
  ) as unknown as StoredCatalogRows;
  return {
    products: all(SNAPSHOT_PRODUCTS),
    terms: all(SNAPSHOT_TERMS),
    posts: all(SNAPSHOT_POSTS),
    stored,
  };
}

/**
 * One statement per kind: each entity moves to a new seq once, however many of its rows the import wrote. A changed
 * product is a wide change (its listings may show it differently); a term or vendor is recorded because its count of
 * searchable products changed, which changes its archive alone, so it keeps its older wide_seq (migrations 0037,
 * 0042). A vendor the import itself created or edited was recorded wide by its own trigger, and stays wide.
 */
function recordChanges(db: Database.Database, kind: 'product' | 'term' | 'vendor', ids: readonly number[]) {
  if (ids.length === 0) return;
  const json = JSON.stringify(ids);
  const narrow = kind !== 'product';
  if (narrow)
    db.prepare(
      `INSERT INTO search_change_carry (kind, ref_id, wide_seq)
       SELECT ?, value, coalesce((SELECT wide_seq FROM search_changes WHERE kind = ? AND ref_id = value), 0)
       FROM json_each(?)`,
    ).run(kind, kind, json);
  db.prepare('DELETE FROM search_changes WHERE kind = ? AND ref_id IN (SELECT value FROM json_each(?))').run(
    kind,
    json,
  );
  db.prepare(
    `INSERT INTO search_changes (kind, ref_id, wide_seq)
     SELECT ?, value, (SELECT wide_seq FROM search_change_carry WHERE kind = ? AND ref_id = value) FROM json_each(?)`,
  ).run(kind, kind, json);
  if (narrow) db.prepare('DELETE FROM search_change_carry WHERE kind = ?').run(kind);
}

/**
 * Writes a plan's rows in order; the caller holds the transaction. Returns the products the sidecar changed and the
 * vendors it moved products between.
 */
function executeImportPlan(
  db: Database.Database,
  plan: ImportPlan,
  onProgress: (done: number, total: number) => void,
): { products: number[]; vendors: number[] } {
  const writer = new SqlitePlanWriter(db);
  let done = 0;
  for (const operation of plan.operations) {
    writer.write(operation);
    if (operation.kind === 'productRelations') onProgress(++done, plan.total);
  }
  return { products: writer.sidecarChanged, vendors: writer.sidecarVendors };
}

const VENDOR_ID = 'COALESCE((SELECT id FROM vendors WHERE slug = @vendor), vendor_id)';
const RATING_AVERAGE = `CASE WHEN ${HAS_APPROVED_REVIEW} THEN rating_average ELSE COALESCE(@average, rating_average) END`;
const RATING_COUNT = `CASE WHEN ${HAS_APPROVED_REVIEW} THEN rating_count ELSE COALESCE(@count, rating_count) END`;

class SqlitePlanWriter {
  #db: Database.Database;
  #attributeIds = new Map<string, number>();
  #attributeTermIds = new Map<string, number>();
  sidecarChanged: number[] = [];
  /** The vendors a sidecar row moved a product from or to (their counts change). */
  sidecarVendors: number[] = [];
  constructor(db: Database.Database) {
    this.#db = db;
  }

  write(operation: ImportOperation): void {
    const db = this.#db;
    switch (operation.kind) {
      case 'insertTerm':
        db.prepare(termInsertSql('sqlite')).run(...termInsertValues(operation));
        return;
      case 'setTermDescription':
        db.prepare('UPDATE terms SET description = ? WHERE id = ? AND description <> ?').run(
          operation.description,
          operation.id,
          operation.description,
        );
        return;
      case 'upsertVendor':
        db.prepare(
          `INSERT INTO vendors (slug, name, store_url, city) VALUES (@slug, @name, @storeUrl, @city)
           ON CONFLICT (slug) DO UPDATE SET name = excluded.name, store_url = excluded.store_url, city = excluded.city
           WHERE (name, store_url, city) IS NOT (excluded.name, excluded.store_url, excluded.city)`,
        ).run({
          slug: operation.slug,
          name: operation.name,
          storeUrl: operation.storeUrl,
          city: operation.city,
        });
        return;
      case 'attributeDefinitions':
        for (const attribute of operation.attributes) this.#ensureAttribute(attribute);
        for (const { attribute, term } of operation.terms) {
          this.#ensureAttributeTerm(this.#attributeId(attribute), term);
        }
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
        return;
      case 'productUpdated':
        // In the import's transaction, once per changed product (its variations go with it, as in the back office).
        db.prepare(ENQUEUE_WEBHOOK_EVENT).run(webhookEventParams('product.updated', operation.productId));
        return;
      case 'productRelations':
        this.#writeRelations(operation);
        return;
      case 'deleteProducts':
        db.prepare('DELETE FROM products WHERE id IN (SELECT value FROM json_each(?))').run(
          JSON.stringify(operation.ids),
        );
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
      case 'productSidecar': {
        // Written only where it changes something, and then reported to the change feed.
        const before = db
          .prepare('SELECT vendor_id FROM products WHERE sku = ?')
          .pluck()
          .get(operation.sku) as number | null | undefined;
        const changed = db
          .prepare(
            `UPDATE products SET vendor_id = ${VENDOR_ID},
               rating_imported_average = COALESCE(@average, rating_imported_average),
               rating_imported_count = COALESCE(@count, rating_imported_count),
               rating_average = ${RATING_AVERAGE}, rating_count = ${RATING_COUNT}
             WHERE sku = @sku AND (vendor_id, rating_imported_average, rating_imported_count, rating_average,
               rating_count) IS NOT (${VENDOR_ID}, COALESCE(@average, rating_imported_average),
               COALESCE(@count, rating_imported_count), ${RATING_AVERAGE}, ${RATING_COUNT})
             RETURNING coalesce(parent_id, id) AS id, vendor_id`,
          )
          .all({
            sku: operation.sku,
            vendor: operation.vendor,
            average: operation.average,
            count: operation.count,
          }) as { id: number; vendor_id: number | null }[];
        for (const row of changed) {
          this.sidecarChanged.push(row.id);
          if (row.vendor_id === (before ?? null)) continue;
          if (before != null) this.sidecarVendors.push(before);
          if (row.vendor_id !== null) this.sidecarVendors.push(row.vendor_id);
        }
        return;
      }
      case 'upsertPost':
        db.prepare(
          `INSERT INTO posts (type, slug, title, excerpt, content, password_hash, published_at)
           VALUES (@type, @slug, @title, @excerpt, @content, @passwordHash, @publishedAt)
           ON CONFLICT (slug) DO UPDATE SET type = excluded.type, title = excluded.title, excerpt = excluded.excerpt,
             content = excluded.content, password_hash = excluded.password_hash, published_at = excluded.published_at
           WHERE (type, title, excerpt, content, password_hash, published_at) IS NOT (excluded.type,
             excluded.title, excluded.excerpt, excluded.content, excluded.password_hash, excluded.published_at)`,
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

  /** The lists the plan gives (the others are as stored): terms by difference, the rest replaced. */
  #writeRelations(relations: Extract<ImportOperation, { kind: 'productRelations' }>): void {
    const db = this.#db;
    const id = relations.productId;
    if (relations.termLinks) {
      for (const { newTerms } of relations.termLinks) for (const term of newTerms) this.write(term);
      const termIds = JSON.stringify(relations.termLinks.map((link) => link.termId));
      db.prepare(
        'DELETE FROM product_terms WHERE product_id = ? AND term_id NOT IN (SELECT value FROM json_each(?))',
      ).run(id, termIds);
      db.prepare(
        'INSERT OR IGNORE INTO product_terms (product_id, term_id) SELECT ?, value FROM json_each(?)',
      ).run(id, termIds);
    }

    if (relations.images) {
      // Updated in place by position, so image ids (and the addresses pages link to) survive.
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
    }

    if (relations.downloads) {
      db.prepare('DELETE FROM product_downloads WHERE product_id = ?').run(id);
      const addDownload = db.prepare(
        'INSERT INTO product_downloads (product_id, position, name, url) VALUES (?, ?, ?, ?)',
      );
      for (const download of relations.downloads)
        addDownload.run(id, download.position, download.name, download.url);
    }

    if (relations.variationAttributes) {
      db.prepare('DELETE FROM variation_attributes WHERE variation_id = ?').run(id);
      const add = db.prepare(
        'INSERT INTO variation_attributes (variation_id, attribute_id, term_id) VALUES (?, ?, ?)',
      );
      for (const { attribute, term } of relations.variationAttributes) {
        const attributeId = this.#attributeId(attribute.slug);
        add.run(id, attributeId, term === null ? null : this.#attributeTermId(attributeId, term.slug));
      }
    }
    if (relations.attributes) {
      db.prepare('DELETE FROM product_attribute_terms WHERE product_id = ?').run(id);
      db.prepare('DELETE FROM product_attributes WHERE product_id = ?').run(id);
      const addAttribute = db.prepare(
        'INSERT INTO product_attributes (product_id, attribute_id, position, visible) VALUES (?, ?, ?, ?)',
      );
      const addTerm = db.prepare(
        'INSERT OR IGNORE INTO product_attribute_terms (product_id, attribute_id, term_id, position) VALUES (?, ?, ?, ?)',
      );
      for (const { attribute, position, visible, terms } of relations.attributes) {
        const attributeId = this.#attributeId(attribute.slug);
        addAttribute.run(id, attributeId, position, visible);
        for (const { term, position: termPosition } of terms) {
          addTerm.run(id, attributeId, this.#attributeTermId(attributeId, term.slug), termPosition);
        }
      }
    }
  }

  #attributeId(slug: string): number {
    const id = this.#attributeIds.get(slug);
    if (id === undefined) throw new Error(`Attribute "${slug}" was not defined by the import plan`);
    return id;
  }

  #attributeTermId(attributeId: number, slug: string): number {
    const id = this.#attributeTermIds.get(`${attributeId}\u0000${slug}`);
    if (id === undefined) throw new Error(`Attribute term "${slug}" was not defined by the import plan`);
    return id;
  }

  /** Found or created by slug; the swatch type the file sets replaces the stored one, when it differs. */
  #ensureAttribute(attribute: ImportAttributeRef): void {
    const db = this.#db;
    db.prepare(
      `INSERT INTO attributes (slug, name, swatch_type) VALUES (?, ?, ?)
       ON CONFLICT (slug) DO UPDATE SET swatch_type = excluded.swatch_type
       WHERE ? AND swatch_type <> excluded.swatch_type`,
    ).run(attribute.slug, attribute.name, attribute.swatchType, Number(attribute.swatchTypeSet));
    const id = db.prepare('SELECT id FROM attributes WHERE slug = ?').pluck().get(attribute.slug) as number;
    this.#attributeIds.set(attribute.slug, id);
  }

  /** Found or created by slug; a colour, image or swatch type the file gives replaces the stored one. */
  #ensureAttributeTerm(attributeId: number, term: ImportAttributeTermRef): void {
    const db = this.#db;
    db.prepare(
      `INSERT INTO attribute_terms (attribute_id, slug, name, color, image, swatch_type) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (attribute_id, slug) DO UPDATE SET
         color = COALESCE(excluded.color, color), image = COALESCE(excluded.image, image),
         swatch_type = COALESCE(excluded.swatch_type, swatch_type)
       WHERE (color, image, swatch_type) IS NOT (COALESCE(excluded.color, color), COALESCE(excluded.image, image),
         COALESCE(excluded.swatch_type, swatch_type))`,
    ).run(attributeId, term.slug, term.name, term.color, term.image, term.swatchType);
    const id = db
      .prepare('SELECT id FROM attribute_terms WHERE attribute_id = ? AND slug = ?')
      .pluck()
      .get(attributeId, term.slug) as number;
    this.#attributeTermIds.set(`${attributeId}\u0000${term.slug}`, id);
  }
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
