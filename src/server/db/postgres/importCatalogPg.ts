import type { CatalogImport, ImportSummary } from '../../catalog/import/catalogImport';
import { type CatalogSnapshot, SnapshotImportReader } from '../../catalog/import/catalogSnapshot';
import type {
  ImportAttributeRef,
  ImportAttributeTermRef,
  ImportOperation,
  ImportPlan,
  ImportProductRow,
} from '../../catalog/import/importPlan';
import { planCatalogImport } from '../../catalog/import/planCatalogImport';
import { HAS_APPROVED_REVIEW } from '../sql/reviewSql';
import { termInsertSql, termInsertValues } from '../sql/termInsert';
import { ENQUEUE_WEBHOOK_EVENT, webhookEventParams } from '../sql/webhookSql';
import { queryNamed } from './namedQuery';
import { inTransaction, type PgClient, type PgPool } from './openPostgres';
import { refreshDerivedFieldsPg } from './refreshDerivedFields';

/*
 * A catalog import on PostgreSQL: the same plan as on SQLite (catalog/import/planCatalogImport.ts), made from a
 * snapshot of the columns it reads and written row by row, all inside one transaction that holds the catalog
 * tables locked against other writers. A failure anywhere leaves the catalog as it was; an order placed meanwhile
 * (stock, total sales) waits for the import instead of being overwritten by it; and the snapshot cannot go stale
 * between planning and writing.
 */

/** The catalog tables, parents before children. */
export const CATALOG_TABLES = [
  'vendors',
  'terms',
  'attributes',
  'attribute_terms',
  'products',
  'product_terms',
  'product_images',
  'product_downloads',
  'grouped_children',
  'product_links',
  'product_attributes',
  'product_attribute_terms',
  'variation_attributes',
  'posts',
] as const;

/** Tables whose `id` is an identity column. */
const IDENTITY_TABLES = [
  'vendors',
  'terms',
  'attributes',
  'attribute_terms',
  'products',
  'product_images',
  'posts',
];

export async function importCatalogPg(
  pool: PgPool,
  catalog: CatalogImport,
  onProgress: (done: number, total: number) => void,
): Promise<ImportSummary> {
  return inTransaction(pool, async (client) => {
    await client.query(`LOCK TABLE ${CATALOG_TABLES.join(', ')} IN SHARE ROW EXCLUSIVE MODE`);
    // New rows get the ids SQLite would give them (one past the highest), as the plan's own ids assume; and the
    // sequences end past the ids the plan chose, so rows added later do not collide with them.
    await moveSequencesPastRows(client);
    const plan = planCatalogImport(catalog, new SnapshotImportReader(await readSnapshot(client)));
    await executeImportPlanPg(client, plan, onProgress);
    await moveSequencesPastRows(client);
    return plan.summary;
  });
}

async function moveSequencesPastRows(client: PgClient) {
  for (const table of IDENTITY_TABLES) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence('${table}', 'id'), COALESCE((SELECT MAX(id) FROM ${table}), 0) + 1, false)`,
    );
  }
}

async function readSnapshot(client: PgClient): Promise<CatalogSnapshot> {
  const products = await client.query<CatalogSnapshot['products'][number]>(
    'SELECT id, sku, slug, type FROM products',
  );
  const terms = await client.query<CatalogSnapshot['terms'][number]>(
    'SELECT id, taxonomy, slug, name, parent_id AS "parentId" FROM terms',
  );
  const posts = await client.query<CatalogSnapshot['posts'][number]>(
    'SELECT slug, password_hash AS "passwordHash" FROM posts',
  );
  return { products: products.rows, terms: terms.rows, posts: posts.rows };
}

/** Writes a plan's rows in order; the caller holds the transaction. */
async function executeImportPlanPg(
  client: PgClient,
  plan: ImportPlan,
  onProgress: (done: number, total: number) => void,
): Promise<void> {
  const writer = new PgPlanWriter(client);
  let done = 0;
  for (const operation of plan.operations) {
    await writer.write(operation);
    if (operation.kind === 'productRelations') onProgress(++done, plan.total);
  }
}

/** A product row's values in the column order both the insert and the update list them (after the id). */
function productRowValues(row: ImportProductRow): unknown[] {
  return [
    row.type,
    row.parentId,
    row.sku,
    row.name,
    row.status,
    row.featured,
    row.visibility,
    row.shortDescription,
    row.description,
    row.regularPrice,
    row.salePrice,
    row.stockStatus,
    row.stockQuantity,
    row.soldIndividually,
    row.virtual,
    row.downloadable,
    row.externalUrl,
    row.buttonText,
    row.menuOrder,
    row.totalSales,
    row.isPrivate,
  ];
}

class PgPlanWriter {
  #client: PgClient;
  /** The last attribute (and attribute term) written per slug: writing the same one again changes nothing. */
  #attributes = new Map<string, { written: string; id: number }>();
  #attributeTerms = new Map<string, { written: string; id: number }>();
  constructor(client: PgClient) {
    this.#client = client;
  }

  async write(operation: ImportOperation): Promise<void> {
    const db = this.#client;
    switch (operation.kind) {
      case 'insertTerm':
        await db.query(termInsertSql('postgres'), termInsertValues(operation));
        return;
      case 'setTermDescription':
        await db.query('UPDATE terms SET description = $1 WHERE id = $2', [
          operation.description,
          operation.id,
        ]);
        return;
      case 'upsertVendor':
        await this.#upsert(
          'UPDATE vendors SET name = $2, store_url = $3, city = $4 WHERE slug = $1',
          'INSERT INTO vendors (slug, name, store_url, city) VALUES ($1, $2, $3, $4)',
          [operation.slug, operation.name, operation.storeUrl, operation.city],
        );
        return;
      case 'insertProduct':
        await db.query(
          `INSERT INTO products (id, type, parent_id, sku, name, status, featured, visibility, short_description,
             description, regular_price, sale_price, stock_status, stock_quantity, sold_individually, is_virtual,
             is_downloadable, external_url, button_text, menu_order, total_sales, is_private, slug)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
             COALESCE($21::bigint, 0), $22, $23)`,
          [operation.id, ...productRowValues(operation.row), operation.slug],
        );
        return;
      case 'updateProduct':
        await db.query(
          `UPDATE products SET type = $2, parent_id = $3, sku = $4, name = $5, status = $6, featured = $7,
             visibility = $8, short_description = $9, description = $10, regular_price = $11, sale_price = $12,
             stock_status = $13, stock_quantity = $14, sold_individually = $15, is_virtual = $16,
             is_downloadable = $17, external_url = $18, button_text = $19, menu_order = $20,
             total_sales = COALESCE($21::bigint, total_sales), is_private = $22
           WHERE id = $1`,
          [operation.id, ...productRowValues(operation.row)],
        );
        if (operation.row.type !== 'variation')
          await queryNamed(db, ENQUEUE_WEBHOOK_EVENT, webhookEventParams('product.updated', operation.id));
        return;
      case 'productRelations':
        await this.#writeRelations(operation);
        return;
      case 'groupedChildren':
        await db.query('DELETE FROM grouped_children WHERE parent_id = $1', [operation.parentId]);
        for (const { childId, position } of operation.children) {
          await db.query('INSERT INTO grouped_children (parent_id, child_id, position) VALUES ($1, $2, $3)', [
            operation.parentId,
            childId,
            position,
          ]);
        }
        return;
      case 'productLinks':
        await db.query('DELETE FROM product_links WHERE product_id = $1 AND kind = $2', [
          operation.productId,
          operation.linkKind,
        ]);
        for (const [position, linkedId] of operation.linkedIds.entries()) {
          await db.query(
            'INSERT INTO product_links (product_id, kind, linked_id, position) VALUES ($1, $2, $3, $4)',
            [operation.productId, operation.linkKind, linkedId, position],
          );
        }
        return;
      case 'refreshProduct':
        await db.query(
          `UPDATE product_attributes SET for_variations = (EXISTS (
             SELECT 1 FROM products v JOIN variation_attributes va ON va.variation_id = v.id
             WHERE v.parent_id = product_attributes.product_id AND va.attribute_id = product_attributes.attribute_id
           ))::int
           WHERE product_id = $1`,
          [operation.productId],
        );
        await refreshDerivedFieldsPg(db, operation.productId);
        return;
      case 'productSidecar':
        await db.query(
          `UPDATE products SET
             vendor_id = COALESCE((SELECT id FROM vendors WHERE slug = $2), vendor_id),
             rating_imported_average = COALESCE($3::float8, rating_imported_average),
             rating_imported_count = COALESCE($4::bigint, rating_imported_count),
             rating_average = CASE WHEN ${HAS_APPROVED_REVIEW} THEN rating_average ELSE COALESCE($3::float8, rating_average) END,
             rating_count = CASE WHEN ${HAS_APPROVED_REVIEW} THEN rating_count ELSE COALESCE($4::bigint, rating_count) END
           WHERE sku = $1`,
          [operation.sku, operation.vendor, operation.average, operation.count],
        );
        return;
      case 'upsertPost':
        await this.#upsert(
          `UPDATE posts SET type = $1, title = $3, excerpt = $4, content = $5, password_hash = $6, published_at = $7
           WHERE slug = $2`,
          `INSERT INTO posts (type, slug, title, excerpt, content, password_hash, published_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [
            operation.type,
            operation.slug,
            operation.title,
            operation.excerpt,
            operation.content,
            operation.passwordHash,
            operation.publishedAt,
          ],
        );
        return;
    }
  }

  /**
   * SQLite's upsert, as an update else an insert: PostgreSQL's INSERT … ON CONFLICT takes an identity value even
   * when it updates, which would leave gaps SQLite does not. The tables are locked, so nothing comes in between.
   */
  async #upsert(
    update: string,
    insert: string,
    values: unknown[],
    updateValues: unknown[] = values,
  ): Promise<number> {
    const updated = await this.#client.query<{ id: number }>(`${update} RETURNING id`, updateValues);
    const row =
      updated.rows[0] ?? (await this.#client.query<{ id: number }>(`${insert} RETURNING id`, values)).rows[0];
    return (row as { id: number }).id;
  }

  /** A product's links, a few statements each (rows travel as arrays): an import writes one per row. */
  async #writeRelations(relations: Extract<ImportOperation, { kind: 'productRelations' }>) {
    const db = this.#client;
    const id = relations.productId;
    for (const { newTerms } of relations.termLinks) for (const term of newTerms) await this.write(term);
    await db.query('DELETE FROM product_terms WHERE product_id = $1', [id]);
    if (relations.termLinks.length > 0) {
      await db.query(
        `INSERT INTO product_terms (product_id, term_id) SELECT $1, term_id FROM unnest($2::bigint[]) AS term_id
         ON CONFLICT DO NOTHING`,
        [id, relations.termLinks.map((link) => link.termId)],
      );
    }

    // Updated in place by position (image ids survive), added where new, removed past the last.
    await db.query(
      `WITH given AS (
         SELECT * FROM jsonb_to_recordset($2::jsonb)
           AS g(position bigint, "sourceUrl" text, alt text, color text, "storedKey" text)
       ), updated AS (
         UPDATE product_images i SET source_url = g."sourceUrl", alt = g.alt, color = g.color,
           stored_key = g."storedKey"
         FROM given g WHERE i.product_id = $1 AND i.position = g.position RETURNING i.position
       ), removed AS (
         DELETE FROM product_images WHERE product_id = $1 AND position >= $3
       )
       INSERT INTO product_images (product_id, position, source_url, alt, color, stored_key)
       SELECT $1, g.position, g."sourceUrl", g.alt, g.color, g."storedKey" FROM given g
       WHERE g.position NOT IN (SELECT position FROM updated) ORDER BY g.position`,
      [id, JSON.stringify(relations.images), relations.images.length],
    );

    await db.query('DELETE FROM product_downloads WHERE product_id = $1', [id]);
    if (relations.downloads.length > 0) {
      await db.query(
        `INSERT INTO product_downloads (product_id, position, name, url)
         SELECT $1, d.position, d.name, d.url FROM jsonb_to_recordset($2::jsonb) AS d(position bigint, name text, url text)`,
        [id, JSON.stringify(relations.downloads)],
      );
    }

    if (relations.variationAttributes !== null) {
      const values: { attributeId: number; termId: number | null }[] = [];
      for (const { attribute, term } of relations.variationAttributes) {
        const attributeId = await this.#ensureAttribute(attribute);
        values.push({
          attributeId,
          termId: term === null ? null : await this.#ensureAttributeTerm(attributeId, term),
        });
      }
      await db.query('DELETE FROM variation_attributes WHERE variation_id = $1', [id]);
      if (values.length > 0) {
        await db.query(
          `INSERT INTO variation_attributes (variation_id, attribute_id, term_id)
           SELECT $1, v."attributeId", v."termId" FROM jsonb_to_recordset($2::jsonb) AS v("attributeId" bigint, "termId" bigint)`,
          [id, JSON.stringify(values)],
        );
      }
    }
    if (relations.attributes !== null) {
      const attributes: { attributeId: number; position: number; visible: number }[] = [];
      const terms: { attributeId: number; termId: number; position: number }[] = [];
      for (const { attribute, position, visible, terms: values } of relations.attributes) {
        const attributeId = await this.#ensureAttribute(attribute);
        attributes.push({ attributeId, position, visible });
        for (const { term, position: termPosition } of values) {
          terms.push({
            attributeId,
            termId: await this.#ensureAttributeTerm(attributeId, term),
            position: termPosition,
          });
        }
      }
      await db.query(
        `WITH terms_removed AS (DELETE FROM product_attribute_terms WHERE product_id = $1)
         DELETE FROM product_attributes WHERE product_id = $1`,
        [id],
      );
      if (attributes.length > 0) {
        await db.query(
          `INSERT INTO product_attributes (product_id, attribute_id, position, visible)
           SELECT $1, a."attributeId", a.position, a.visible
           FROM jsonb_to_recordset($2::jsonb) AS a("attributeId" bigint, position bigint, visible bigint)`,
          [id, JSON.stringify(attributes)],
        );
      }
      if (terms.length > 0) {
        await db.query(
          `INSERT INTO product_attribute_terms (product_id, attribute_id, term_id, position)
           SELECT $1, t."attributeId", t."termId", t.position
           FROM jsonb_to_recordset($2::jsonb) AS t("attributeId" bigint, "termId" bigint, position bigint)
           ON CONFLICT DO NOTHING`,
          [id, JSON.stringify(terms)],
        );
      }
    }
  }

  async #ensureAttribute(attribute: ImportAttributeRef): Promise<number> {
    const written = JSON.stringify(attribute);
    const last = this.#attributes.get(attribute.slug);
    if (last?.written === written) return last.id;
    const id = await this.#upsert(
      'UPDATE attributes SET swatch_type = CASE WHEN $3::boolean THEN $2 ELSE swatch_type END WHERE slug = $1',
      'INSERT INTO attributes (slug, name, swatch_type) VALUES ($1, $2, $3)',
      [attribute.slug, attribute.name, attribute.swatchType],
      [attribute.slug, attribute.swatchType, attribute.swatchTypeSet],
    );
    this.#attributes.set(attribute.slug, { written, id });
    return id;
  }

  async #ensureAttributeTerm(attributeId: number, term: ImportAttributeTermRef): Promise<number> {
    const key = `${attributeId}\u0000${term.slug}`;
    const written = JSON.stringify(term);
    const last = this.#attributeTerms.get(key);
    if (last?.written === written) return last.id;
    const id = await this.#upsert(
      `UPDATE attribute_terms SET color = COALESCE($3, color), image = COALESCE($4, image),
         swatch_type = COALESCE($5, swatch_type)
       WHERE attribute_id = $1 AND slug = $2`,
      `INSERT INTO attribute_terms (attribute_id, slug, name, color, image, swatch_type)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [attributeId, term.slug, term.name, term.color, term.image, term.swatchType],
      [attributeId, term.slug, term.color, term.image, term.swatchType],
    );
    this.#attributeTerms.set(key, { written, id });
    return id;
  }
}
