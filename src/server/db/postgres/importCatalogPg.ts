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
} from '../../catalog/import/importPlan';
import { planCatalogImport } from '../../catalog/import/planCatalogImport';
import { SNAPSHOT_POSTS, SNAPSHOT_PRODUCTS, SNAPSHOT_STORED, SNAPSHOT_TERMS } from '../sql/importSnapshotSql';
import { HAS_APPROVED_REVIEW } from '../sql/reviewSql';
import { handOffImport, namesBeforeImport, type PendingHandoff } from './handOffImport';
import { inTransaction, type PgClient, type PgPool } from './openPostgres';
import { refreshProductsPg } from './refreshDerivedFields';

/*
 * A catalog import on PostgreSQL: the same plan as on SQLite (catalog/import/planCatalogImport.ts), made from a
 * snapshot of the rows it compares with and written in set-based batches, all inside one transaction that holds the catalog
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

/**
 * Products an import creates or removes past which it refreshes the planner's statistics of the catalog tables
 * before it commits (ANALYZE counts the transaction's own rows; the statistics commit with them). Right after 20,000
 * new rows the planner still counted the old few: each page of the processes' index rebuilds (products after an id,
 * by id) became a bitmap scan of every later row and a sort, 38 ms a page instead of 0.5 ms, until autovacuum came by
 * a minute later. ANALYZE of the catalog takes ~0.4 s at 20,000 products alone, 0.85 s under the live-import bench's
 * shoppers. Changed products are not counted: an update keeps the row counts the plans went wrong on, as the owner's
 * bulk edits through the REST API do (autovacuum's analyze follows them), and a re-import of 5,805 changed products
 * spent an eighth of its time on it.
 */
const ANALYZE_AFTER_PRODUCTS = 1000;

export interface ImportOptions {
  /** How long the import waits for the server processes to build from its handoff (handOffImport.ts). */
  handoffWaitMs?: number;
}

export async function importCatalogPg(
  pool: PgPool,
  catalog: CatalogImport,
  onProgress: (done: number, total: number) => void,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  // Set once the import handed its documents over; cleared whatever the outcome.
  const handed: { off: PendingHandoff | null } = { off: null };
  try {
    return await inTransaction(pool, (client) =>
      importInTransaction(pool, client, catalog, onProgress, options, handed),
    );
  } finally {
    // Committed or rolled back: the processes read the catalog itself from now on.
    await handed.off?.clear().catch(() => undefined);
  }
}

async function importInTransaction(
  pool: PgPool,
  client: PgClient,
  catalog: CatalogImport,
  onProgress: (done: number, total: number) => void,
  options: ImportOptions,
  handed: { off: PendingHandoff | null },
): Promise<ImportSummary> {
  await client.query(`LOCK TABLE ${CATALOG_TABLES.join(', ')} IN SHARE ROW EXCLUSIVE MODE`);
  // With the catalog locked, every change-log row after this position is the import's own.
  const recordedAfter =
    (await client.query<{ seq: number | null }>('SELECT max(seq)::int AS seq FROM search_changes')).rows[0]
      ?.seq ?? 0;
  const namesBefore = await namesBeforeImport(client);
  // New rows get the ids SQLite would give them (one past the highest), as the plan's own ids assume; and the
  // sequences end past the ids the plan chose, so rows added later do not collide with them.
  await moveSequencesPastRows(client);
  const plan = planCatalogImport(catalog, new SnapshotImportReader(await readSnapshot(client)));
  // The per-row change triggers stand aside for this transaction (their WHEN clause reads the setting, which
  // ends with it): the import records its changes itself below.
  await client.query("SET LOCAL shop.search_capture = 'paused'");
  const writer = new PgPlanWriter(client);
  await writer.writePlan(plan, onProgress);
  await recordChanges(client, 'product', [...new Set([...plan.changedProducts, ...writer.sidecarChanged])]);
  await recordChanges(client, 'term', plan.changedTerms);
  await recordChanges(client, 'vendor', [...new Set([...plan.changedVendors, ...writer.sidecarVendors])]);
  // The running processes build their search index from the import's documents while it finishes, and it waits
  // for them (a bounded time) before it commits, rather than all of them reading the catalog back afterwards. The
  // statistics first: the documents are read by the import's own statements, planned with them.
  const { created, removed } = plan.summary;
  if (created + removed >= ANALYZE_AFTER_PRODUCTS) {
    await client.query(`ANALYZE ${[...CATALOG_TABLES, 'search_changes'].join(', ')}`);
  }
  handed.off = await handOffImport(pool, client, recordedAfter, namesBefore, {
    waitMs: options.handoffWaitMs,
  });
  await moveSequencesPastRows(client);
  await handed.off?.waitForReplicas();
  return plan.summary;
}

async function moveSequencesPastRows(client: PgClient) {
  await client.query(
    `SELECT ${IDENTITY_TABLES.map(
      (table) =>
        `setval(pg_get_serial_sequence('${table}', 'id'), COALESCE((SELECT MAX(id) FROM ${table}), 0) + 1, false)`,
    ).join(', ')}`,
  );
}

async function readSnapshot(client: PgClient): Promise<CatalogSnapshot> {
  const all = async <T>(sql: string) => (await client.query(sql)).rows as T[];
  const stored: Record<string, unknown[]> = {};
  for (const [list, sql] of Object.entries(SNAPSHOT_STORED)) stored[list] = await all(sql);
  return {
    products: await all(SNAPSHOT_PRODUCTS),
    terms: await all(SNAPSHOT_TERMS),
    posts: await all(SNAPSHOT_POSTS),
    stored: stored as unknown as StoredCatalogRows,
  };
}

/**
 * Each entity takes one new seq, however many of its rows the import wrote: the stored entries move, then the new
 * ones are added (an INSERT … ON CONFLICT alone would draw two sequence values for every entry that exists).
 */
async function recordChanges(client: PgClient, kind: 'product' | 'term' | 'vendor', ids: readonly number[]) {
  if (ids.length === 0) return;
  // A changed product is a wide change (NULL); a term or vendor is recorded because its count of searchable products
  // changed, which changes its archive alone: -1 keeps its older wide_seq (migrations 0037, 0042). A vendor the
  // import itself created or edited was recorded wide by its own trigger, and stays wide.
  const wide = kind === 'product' ? null : -1;
  await client.query(
    `WITH moved AS (
       UPDATE search_changes SET seq = nextval(pg_get_serial_sequence('search_changes', 'seq')), wide_seq = $3::integer
       WHERE kind = $1 AND ref_id = ANY($2::bigint[]) RETURNING ref_id
     )
     INSERT INTO search_changes (kind, ref_id, wide_seq)
     SELECT $1, id, $3::integer FROM unnest($2::bigint[]) AS id WHERE id NOT IN (SELECT ref_id FROM moved) ORDER BY id
     ON CONFLICT (kind, ref_id) DO UPDATE
       SET seq = nextval(pg_get_serial_sequence('search_changes', 'seq')), wide_seq = $3::integer`,
    [kind, ids, wide],
  );
}

/** Product rows per batch: each batch is a handful of statements whatever its size. */
const BATCH_PRODUCTS = 500;

type Relations = Extract<ImportOperation, { kind: 'productRelations' }>;

/**
 * Writes a plan in set-based batches: consecutive product rows, their links and the listing refreshes are
 * gathered and written a few statements per batch (rows travel as JSON), in the order their keys need — new
 * terms, then product rows, then what links to them. Anything else flushes the batch and is written on its own,
 * in plan order. On PostgreSQL each statement is a round trip: one per row made an import of 20,000 products
 * cost hundreds of thousands of them.
 */
class PgPlanWriter {
  #client: PgClient;
  #attributeIds = new Map<string, number>();
  #attributeTermIds = new Map<string, number>();
  #terms: Extract<ImportOperation, { kind: 'insertTerm' }>[] = [];
  #inserts: Extract<ImportOperation, { kind: 'insertProduct' }>[] = [];
  #updates: Extract<ImportOperation, { kind: 'updateProduct' }>[] = [];
  #relations: Relations[] = [];
  #refresh: number[] = [];
  #updated: number[] = [];
  #sidecars: Extract<ImportOperation, { kind: 'productSidecar' }>[] = [];
  sidecarChanged: number[] = [];
  /** The vendors a sidecar row moved a product from or to (their counts change). */
  sidecarVendors: number[] = [];
  constructor(client: PgClient) {
    this.#client = client;
  }

  async writePlan(plan: ImportPlan, onProgress: (done: number, total: number) => void) {
    let done = 0;
    for (const operation of plan.operations) {
      // A product the batch already writes (the same SKU twice in a file): the earlier row goes first.
      if (this.#holds(operation)) await this.#flush();
      if (operation.kind === 'productRelations') {
        for (const { newTerms } of operation.termLinks ?? []) {
          for (const term of newTerms) {
            if (term.kind === 'insertTerm') this.#terms.push(term);
            else {
              await this.#flush();
              await this.#write(term);
            }
          }
        }
      }
      if (!this.#buffer(operation)) {
        await this.#flush();
        await this.#write(operation);
      }
      if (operation.kind === 'productRelations') {
        done++;
        if (this.#relations.length >= BATCH_PRODUCTS) {
          await this.#flush();
          onProgress(done, plan.total);
        }
      }
    }
    await this.#flush();
    onProgress(done, plan.total);
  }

  #holds(operation: ImportOperation): boolean {
    if (operation.kind === 'updateProduct') return this.#updates.some((update) => update.id === operation.id);
    if (operation.kind === 'productRelations') {
      return this.#relations.some((relations) => relations.productId === operation.productId);
    }
    return false;
  }

  /** Gathers an operation a batch writes; false for one written on its own. */
  #buffer(operation: ImportOperation): boolean {
    switch (operation.kind) {
      case 'insertTerm':
        this.#terms.push(operation);
        return true;
      case 'insertProduct':
        this.#inserts.push(operation);
        return true;
      case 'updateProduct':
        this.#updates.push(operation);
        return true;
      case 'productRelations':
        this.#relations.push(operation);
        return true;
      case 'refreshProduct':
        this.#refresh.push(operation.productId);
        return true;
      case 'productUpdated':
        this.#updated.push(operation.productId);
        return true;
      case 'productSidecar':
        this.#sidecars.push(operation);
        return true;
      default:
        return false;
    }
  }

  async #flush() {
    const db = this.#client;
    if (this.#terms.length > 0) {
      await db.query(
        `INSERT INTO terms (id, taxonomy, slug, name, parent_id, description)
         SELECT t.id, t.taxonomy, t.slug, t.name, t."parentId", t.description
         FROM jsonb_to_recordset($1::jsonb)
           AS t(id bigint, taxonomy text, slug text, name text, "parentId" bigint, description text)`,
        [JSON.stringify(this.#terms)],
      );
      this.#terms = [];
    }
    if (this.#inserts.length > 0) {
      await db.query(
        `INSERT INTO products (id, type, parent_id, sku, slug, name, status, featured, visibility, short_description,
           description, regular_price, sale_price, stock_status, stock_quantity, sold_individually, is_virtual,
           is_downloadable, external_url, button_text, menu_order, total_sales, is_private)
         SELECT r.id, r.type, r."parentId", r.sku, r.slug, r.name, r.status, r.featured, r.visibility,
           r."shortDescription", r.description, r."regularPrice", r."salePrice", r."stockStatus", r."stockQuantity",
           r."soldIndividually", r.virtual, r.downloadable, r."externalUrl", r."buttonText", r."menuOrder",
           COALESCE(r."totalSales", 0), r."isPrivate"
         FROM jsonb_to_recordset($1::jsonb) AS r(${PRODUCT_RECORD}, slug text)`,
        [JSON.stringify(this.#inserts.map(({ id, slug, row }) => ({ ...row, id, slug })))],
      );
      this.#inserts = [];
    }
    if (this.#updates.length > 0) {
      await db.query(
        `UPDATE products p SET type = r.type, parent_id = r."parentId", sku = r.sku, name = r.name,
           status = r.status, featured = r.featured, visibility = r.visibility,
           short_description = r."shortDescription", description = r.description,
           regular_price = r."regularPrice", sale_price = r."salePrice", stock_status = r."stockStatus",
           stock_quantity = r."stockQuantity", sold_individually = r."soldIndividually", is_virtual = r.virtual,
           is_downloadable = r.downloadable, external_url = r."externalUrl", button_text = r."buttonText",
           menu_order = r."menuOrder", total_sales = COALESCE(r."totalSales", p.total_sales),
           is_private = r."isPrivate"
         FROM jsonb_to_recordset($1::jsonb) AS r(${PRODUCT_RECORD})
         WHERE p.id = r.id`,
        [JSON.stringify(this.#updates.map(({ id, row }) => ({ ...row, id })))],
      );
      this.#updates = [];
    }
    if (this.#relations.length > 0) {
      await this.#writeRelations(this.#relations);
      this.#relations = [];
    }
    if (this.#refresh.length > 0) {
      await refreshProductsPg(db, this.#refresh);
      this.#refresh = [];
    }
    if (this.#updated.length > 0) {
      // Once per changed product, in the import's transaction (variations go with their parent's event).
      await db.query(
        `INSERT INTO webhook_deliveries (webhook_id, topic, resource_id, next_attempt_at, created_at)
         SELECT w.id, w.topic, p.id, $2::bigint, $2::bigint
         FROM unnest($1::bigint[]) WITH ORDINALITY AS p(id, n) CROSS JOIN webhooks w
         WHERE w.status = 'active' AND w.topic = 'product.updated' ORDER BY p.n, w.id`,
        [this.#updated, Date.now()],
      );
      this.#updated = [];
    }
    if (this.#sidecars.length > 0) {
      // Written only where it changes something, and then reported to the change feed.
      const { rows } = await db.query<{ id: number; vendor_before: number | null; vendor_id: number | null }>(
        `WITH given AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS g(sku text, vendor text, average float8, count bigint)
         ), next AS (
           SELECT products.id, products.vendor_id AS vendor_before,
             COALESCE((SELECT id FROM vendors WHERE slug = g.vendor), vendor_id) AS vendor_id,
             COALESCE(g.average, rating_imported_average) AS imported_average,
             COALESCE(g.count, rating_imported_count) AS imported_count,
             CASE WHEN ${HAS_APPROVED_REVIEW} THEN rating_average ELSE COALESCE(g.average, rating_average) END AS average,
             CASE WHEN ${HAS_APPROVED_REVIEW} THEN rating_count ELSE COALESCE(g.count, rating_count) END AS count
           FROM products JOIN given g ON g.sku = products.sku
         )
         UPDATE products p SET vendor_id = n.vendor_id, rating_imported_average = n.imported_average,
           rating_imported_count = n.imported_count, rating_average = n.average, rating_count = n.count
         FROM next n
         WHERE p.id = n.id AND (p.vendor_id, p.rating_imported_average, p.rating_imported_count, p.rating_average,
           p.rating_count) IS DISTINCT FROM (n.vendor_id, n.imported_average, n.imported_count, n.average, n.count)
         RETURNING coalesce(p.parent_id, p.id) AS id, n.vendor_before, p.vendor_id`,
        [JSON.stringify(this.#sidecars)],
      );
      for (const row of rows) {
        this.sidecarChanged.push(row.id);
        if (row.vendor_before === row.vendor_id) continue;
        if (row.vendor_before !== null) this.sidecarVendors.push(row.vendor_before);
        if (row.vendor_id !== null) this.sidecarVendors.push(row.vendor_id);
      }
      this.#sidecars = [];
    }
  }

  /** Writes an operation no batch gathers, in plan order. */
  async #write(operation: ImportOperation): Promise<void> {
    const db = this.#client;
    switch (operation.kind) {
      case 'setTermDescription':
        await db.query('UPDATE terms SET description = $1 WHERE id = $2 AND description <> $1', [
          operation.description,
          operation.id,
        ]);
        return;
      case 'upsertVendor': {
        const values = [operation.slug, operation.name, operation.storeUrl, operation.city];
        await this.#upsert({
          update: `UPDATE vendors SET name = $2, store_url = $3, city = $4
            WHERE slug = $1 AND (name, store_url, city) IS DISTINCT FROM ($2, $3, $4)`,
          updateValues: values,
          select: 'SELECT id FROM vendors WHERE slug = $1',
          key: [operation.slug],
          insert: 'INSERT INTO vendors (slug, name, store_url, city) VALUES ($1, $2, $3, $4)',
          insertValues: values,
        });
        return;
      }
      case 'attributeDefinitions':
        for (const attribute of operation.attributes) await this.#ensureAttribute(attribute);
        for (const { attribute, term } of operation.terms) {
          await this.#ensureAttributeTerm(this.#attributeId(attribute), term);
        }
        return;
      case 'deleteProducts':
        await db.query('DELETE FROM products WHERE id = ANY($1::bigint[])', [operation.ids]);
        return;
      case 'groupedChildren':
        await db.query(
          `WITH removed AS (DELETE FROM grouped_children WHERE parent_id = $1)
           INSERT INTO grouped_children (parent_id, child_id, position)
           SELECT $1, child_id, position - 1 FROM unnest($2::bigint[]) WITH ORDINALITY AS c(child_id, position)`,
          [operation.parentId, operation.children.map((child) => child.childId)],
        );
        return;
      case 'productLinks':
        await db.query(
          `WITH removed AS (DELETE FROM product_links WHERE product_id = $1 AND kind = $2)
           INSERT INTO product_links (product_id, kind, linked_id, position)
           SELECT $1, $2, linked_id, position - 1 FROM unnest($3::bigint[]) WITH ORDINALITY AS l(linked_id, position)`,
          [operation.productId, operation.linkKind, operation.linkedIds],
        );
        return;
      case 'upsertPost': {
        const values = [
          operation.type,
          operation.slug,
          operation.title,
          operation.excerpt,
          operation.content,
          operation.passwordHash,
          operation.publishedAt,
        ];
        await this.#upsert({
          update: `UPDATE posts SET type = $1, title = $3, excerpt = $4, content = $5, password_hash = $6,
              published_at = $7
            WHERE slug = $2 AND (type, title, excerpt, content, password_hash, published_at)
              IS DISTINCT FROM ($1, $3, $4, $5, $6, $7)`,
          updateValues: values,
          select: 'SELECT id FROM posts WHERE slug = $1',
          key: [operation.slug],
          insert: `INSERT INTO posts (type, slug, title, excerpt, content, password_hash, published_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          insertValues: values,
        });
        return;
      }
      default:
        throw new Error(`An import operation no writer handles: ${operation.kind}`);
    }
  }

  /**
   * SQLite's conditional upsert, as an update where something differs, else the stored row, else an insert:
   * PostgreSQL's INSERT … ON CONFLICT takes an identity value even when it updates, which would leave gaps SQLite
   * does not. The tables are locked, so nothing comes in between.
   */
  async #upsert(statements: {
    update: string;
    updateValues: unknown[];
    /** Finds the row by its key. */
    select: string;
    key: unknown[];
    insert: string;
    insertValues: unknown[];
  }): Promise<number> {
    const db = this.#client;
    const row =
      (await db.query<{ id: number }>(`${statements.update} RETURNING id`, statements.updateValues))
        .rows[0] ??
      (await db.query<{ id: number }>(statements.select, statements.key)).rows[0] ??
      (await db.query<{ id: number }>(`${statements.insert} RETURNING id`, statements.insertValues)).rows[0];
    return (row as { id: number }).id;
  }

  /** The lists each product's operation gives (the others are as stored), a few statements for the batch. */
  async #writeRelations(batch: readonly Relations[]) {
    const db = this.#client;
    const withTerms = batch.filter((relations) => relations.termLinks);
    if (withTerms.length > 0) {
      const links = withTerms.map((relations) => ({
        productId: relations.productId,
        termIds: (relations.termLinks ?? []).map((link) => link.termId),
      }));
      await db.query(
        `WITH given AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS g("productId" bigint, "termIds" bigint[])
         ), removed AS (
           DELETE FROM product_terms pt USING given g
           WHERE pt.product_id = g."productId" AND NOT (pt.term_id = ANY (g."termIds"))
         )
         INSERT INTO product_terms (product_id, term_id)
         SELECT DISTINCT g."productId", t.term_id FROM given g CROSS JOIN unnest(g."termIds") AS t(term_id)
         ON CONFLICT DO NOTHING`,
        [JSON.stringify(links)],
      );
    }

    const withImages = batch.filter((relations) => relations.images);
    if (withImages.length > 0) {
      // Updated in place by position (image ids survive), added where new in plan order, removed past the last.
      const images = withImages.flatMap((relations) =>
        (relations.images ?? []).map((image) => ({ productId: relations.productId, ...image })),
      );
      const counts = withImages.map((relations) => ({
        productId: relations.productId,
        count: relations.images?.length ?? 0,
      }));
      await db.query(
        `WITH given AS (
           SELECT * FROM ROWS FROM (jsonb_to_recordset($1::jsonb)
             AS ("productId" bigint, position bigint, "sourceUrl" text, alt text, color text, "storedKey" text))
             WITH ORDINALITY AS g("productId", position, "sourceUrl", alt, color, "storedKey", n)
         ), updated AS (
           UPDATE product_images i SET source_url = g."sourceUrl", alt = g.alt, color = g.color,
             stored_key = g."storedKey"
           FROM given g WHERE i.product_id = g."productId" AND i.position = g.position
           RETURNING i.product_id, i.position
         ), removed AS (
           DELETE FROM product_images i USING jsonb_to_recordset($2::jsonb) AS c("productId" bigint, count bigint)
           WHERE i.product_id = c."productId" AND i.position >= c.count
         )
         INSERT INTO product_images (product_id, position, source_url, alt, color, stored_key)
         SELECT g."productId", g.position, g."sourceUrl", g.alt, g.color, g."storedKey" FROM given g
         WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.product_id = g."productId" AND u.position = g.position)
         ORDER BY g.n`,
        [JSON.stringify(images), JSON.stringify(counts)],
      );
    }

    const withDownloads = batch.filter((relations) => relations.downloads);
    if (withDownloads.length > 0) {
      const downloads = withDownloads.flatMap((relations) =>
        (relations.downloads ?? []).map((download) => ({ productId: relations.productId, ...download })),
      );
      await db.query(
        `WITH removed AS (DELETE FROM product_downloads WHERE product_id = ANY($1::bigint[]))
         INSERT INTO product_downloads (product_id, position, name, url)
         SELECT d."productId", d.position, d.name, d.url
         FROM jsonb_to_recordset($2::jsonb) AS d("productId" bigint, position bigint, name text, url text)`,
        [withDownloads.map((relations) => relations.productId), JSON.stringify(downloads)],
      );
    }

    const withVariationAttributes = batch.filter((relations) => relations.variationAttributes);
    if (withVariationAttributes.length > 0) {
      const values = withVariationAttributes.flatMap((relations) =>
        (relations.variationAttributes ?? []).map(({ attribute, term }) => {
          const attributeId = this.#attributeId(attribute.slug);
          return {
            variationId: relations.productId,
            attributeId,
            termId: term === null ? null : this.#attributeTermId(attributeId, term.slug),
          };
        }),
      );
      await db.query(
        `WITH removed AS (DELETE FROM variation_attributes WHERE variation_id = ANY($1::bigint[]))
         INSERT INTO variation_attributes (variation_id, attribute_id, term_id)
         SELECT v."variationId", v."attributeId", v."termId"
         FROM jsonb_to_recordset($2::jsonb) AS v("variationId" bigint, "attributeId" bigint, "termId" bigint)`,
        [withVariationAttributes.map((relations) => relations.productId), JSON.stringify(values)],
      );
    }

    const withAttributes = batch.filter((relations) => relations.attributes);
    if (withAttributes.length > 0) {
      const attributes: { productId: number; attributeId: number; position: number; visible: number }[] = [];
      const terms: { productId: number; attributeId: number; termId: number; position: number }[] = [];
      for (const relations of withAttributes) {
        for (const { attribute, position, visible, terms: values } of relations.attributes ?? []) {
          const attributeId = this.#attributeId(attribute.slug);
          attributes.push({ productId: relations.productId, attributeId, position, visible });
          for (const { term, position: termPosition } of values) {
            terms.push({
              productId: relations.productId,
              attributeId,
              termId: this.#attributeTermId(attributeId, term.slug),
              position: termPosition,
            });
          }
        }
      }
      const ids = withAttributes.map((relations) => relations.productId);
      await db.query(
        `WITH terms_removed AS (DELETE FROM product_attribute_terms WHERE product_id = ANY($1::bigint[]))
         DELETE FROM product_attributes WHERE product_id = ANY($1::bigint[])`,
        [ids],
      );
      if (attributes.length > 0) {
        await db.query(
          `INSERT INTO product_attributes (product_id, attribute_id, position, visible)
           SELECT a."productId", a."attributeId", a.position, a.visible
           FROM jsonb_to_recordset($1::jsonb)
             AS a("productId" bigint, "attributeId" bigint, position bigint, visible bigint)`,
          [JSON.stringify(attributes)],
        );
      }
      if (terms.length > 0) {
        await db.query(
          `INSERT INTO product_attribute_terms (product_id, attribute_id, term_id, position)
           SELECT t."productId", t."attributeId", t."termId", t.position
           FROM ROWS FROM (jsonb_to_recordset($1::jsonb)
             AS ("productId" bigint, "attributeId" bigint, "termId" bigint, position bigint))
             WITH ORDINALITY AS t("productId", "attributeId", "termId", position, n)
           ORDER BY t.n
           ON CONFLICT DO NOTHING`,
          [JSON.stringify(terms)],
        );
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
  async #ensureAttribute(attribute: ImportAttributeRef): Promise<void> {
    const id = await this.#upsert({
      update: 'UPDATE attributes SET swatch_type = $2 WHERE slug = $1 AND $3::boolean AND swatch_type <> $2',
      updateValues: [attribute.slug, attribute.swatchType, attribute.swatchTypeSet],
      select: 'SELECT id FROM attributes WHERE slug = $1',
      key: [attribute.slug],
      insert: 'INSERT INTO attributes (slug, name, swatch_type) VALUES ($1, $2, $3)',
      insertValues: [attribute.slug, attribute.name, attribute.swatchType],
    });
    this.#attributeIds.set(attribute.slug, id);
  }

  /** Found or created by slug; a colour, image or swatch type the file gives replaces the stored one. */
  async #ensureAttributeTerm(attributeId: number, term: ImportAttributeTermRef): Promise<void> {
    const id = await this.#upsert({
      update: `UPDATE attribute_terms SET color = COALESCE($3, color), image = COALESCE($4, image),
          swatch_type = COALESCE($5, swatch_type)
        WHERE attribute_id = $1 AND slug = $2 AND (color, image, swatch_type)
          IS DISTINCT FROM (COALESCE($3, color), COALESCE($4, image), COALESCE($5, swatch_type))`,
      updateValues: [attributeId, term.slug, term.color, term.image, term.swatchType],
      select: 'SELECT id FROM attribute_terms WHERE attribute_id = $1 AND slug = $2',
      key: [attributeId, term.slug],
      insert: `INSERT INTO attribute_terms (attribute_id, slug, name, color, image, swatch_type)
        VALUES ($1, $2, $3, $4, $5, $6)`,
      insertValues: [attributeId, term.slug, term.name, term.color, term.image, term.swatchType],
    });
    this.#attributeTermIds.set(`${attributeId}\u0000${term.slug}`, id);
  }
}

/** The columns of a product row as jsonb_to_recordset reads them (ImportProductRow plus its id). */
const PRODUCT_RECORD = `id bigint, type text, "parentId" bigint, sku text, name text, status text, featured bigint,
  visibility text, "shortDescription" text, description text, "regularPrice" bigint, "salePrice" bigint,
  "stockStatus" text, "stockQuantity" bigint, "soldIndividually" bigint, virtual bigint, downloadable bigint,
  "externalUrl" text, "buttonText" text, "menuOrder" bigint, "totalSales" bigint, "isPrivate" bigint`;
