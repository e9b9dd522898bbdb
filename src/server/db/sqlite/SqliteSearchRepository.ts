import type Database from 'better-sqlite3';
import type { Taxonomy } from '../../../shared/catalog/types';
import { suggestionObjectId } from '../../../shared/search/suggestionObjectId';
import {
  DEFAULT_BOOSTS,
  type OutOfStockHandling,
  type RelevanceRules,
  SEARCH_FIELDS,
  type SearchDocument,
} from '../../search/SearchIndex';
import {
  addPostDocuments,
  addTermDocuments,
  addVendorDocuments,
  groupBy,
  groupVariations,
  type PostDocumentRow,
  type ProductCardRow,
  type ProductRow,
  productDocuments,
  SEARCHABLE,
  toProductCard,
} from '../../search/searchDocumentRows';
import type {
  ProductCard,
  QueryStat,
  SearchChanges,
  SearchQueryRecord,
  SearchRepository,
  SearchScope,
} from '../ports';
import { CHANGE_LOG_ROWS, type ChangeLogRow, changesOfPart, changesOfRows } from '../sql/pageChangeSql';
import type { SqliteImportHandoffs } from './SqliteImportHandoffs';
import { withoutBusyWait } from './withoutBusyWait';

/** Products per page of a full load: a few milliseconds of reading between two yields. */
const LOAD_PAGE = 250;

export class SqliteSearchRepository implements SearchRepository {
  #db: Database.Database;
  readonly handoffs?: SqliteImportHandoffs;
  constructor(db: Database.Database, handoffs?: SqliteImportHandoffs) {
    this.#db = db;
    this.handoffs = handoffs;
  }

  get databaseFile(): string | undefined {
    return this.#db.memory ? undefined : this.#db.name;
  }

  async revision() {
    const catalog =
      (this.#db.prepare('SELECT max(seq) FROM search_changes').pluck().get() as number | null) ?? 0;
    const counters = Object.fromEntries(
      (
        this.#db
          .prepare("SELECT key, value FROM search_settings WHERE key IN ('revision', 'rebuild')")
          .all() as {
          key: string;
          value: string;
        }[]
      ).map((row) => [row.key, Number(row.value)]),
    );
    return { catalog, rules: counters.revision ?? 0, rebuild: counters.rebuild ?? 0 };
  }

  async requestRebuild(): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO search_settings (key, value) VALUES ('rebuild', '1')
         ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`,
      )
      .run();
  }

  async changesSince(seq: number, limit: number, part?: { wideAfter: number }): Promise<SearchChanges> {
    const rows = this.#db
      .prepare(CHANGE_LOG_ROWS.sqlite)
      .all(part?.wideAfter ?? seq, seq, limit + 1) as ChangeLogRow[];
    if (part) return changesOfPart(rows, seq, limit);
    if (rows.length > limit)
      return { ...changesOfRows([], seq), full: true, seq: (await this.revision()).catalog };
    return changesOfRows(rows, seq);
  }

  async loadDocuments(
    scope?: SearchScope,
    onProgress: (done: number, total: number) => void = () => {},
    pause?: () => Promise<void>,
  ) {
    const db = this.#db;
    const documents: SearchDocument[] = [];
    const removedKeys: string[] = [];
    // A scope restricts every query to its ids through one JSON parameter (no SQL built from values).
    const ids = (list: number[]) => JSON.stringify(list);
    const vendors = new Map(
      (db.prepare('SELECT id, name FROM vendors').all() as { id: number; name: string }[]).map((row) => [
        row.id,
        row.name,
      ]),
    );
    // A full load counts each term's and each vendor's searchable products from the rows it reads (a grouped count
    // over every product after the pages would be one more long synchronous step: ~10 ms at 20,000 products).
    const termCounts = new Map<number, number>();
    const vendorCounts = new Map<number, number>();
    let productCount = 0;
    if (scope) {
      // One list of ids (a union of the lists the scope has), looked up by primary key: an OR of the three
      // conditions made SQLite scan every product on each scoped read (20-40 ms at 20,000 products, every update).
      const lists = ['SELECT value FROM json_each(?)'];
      const listParams = [ids(scope.products)];
      const termsRead = scope.editedTerms ?? scope.terms;
      if (termsRead.length > 0) {
        lists.push('SELECT product_id FROM product_terms WHERE term_id IN (SELECT value FROM json_each(?))');
        listParams.push(ids(termsRead));
      }
      const vendorsRead = scope.editedVendors ?? scope.vendors;
      if (vendorsRead.length > 0) {
        lists.push('SELECT id FROM products WHERE vendor_id IN (SELECT value FROM json_each(?))');
        listParams.push(ids(vendorsRead));
      }
      const products = this.#productDocuments(
        `p.id IN (${lists.join(' UNION ')}) ORDER BY p.id`,
        listParams,
        (rows) => ({
          where: (column) => `${column} IN (SELECT value FROM json_each(?))`,
          params: [ids(rows.map((row) => row.id))],
        }),
        { vendors, documents, termCounts: null, vendorCounts: null },
      );
      const found = new Set(products.map((row) => row.id));
      for (const id of scope.products) {
        if (!found.has(id)) removedKeys.push(suggestionObjectId({ type: 'product', postId: id }));
      }
      productCount = products.length;
    } else {
      // Everything, in pages of products by id (each read is short: searches answered by the old index run between
      // them). Pages are separate reads, not one snapshot: a product written meanwhile is in the change log after the
      // position the build started from, and its catch-up applies it.
      const total = db
        .prepare(`SELECT count(*) FROM products p WHERE p.type <> 'variation' AND ${SEARCHABLE}`)
        .pluck()
        .get() as number;
      for (let after = 0; ; ) {
        const page = this.#productDocuments(
          `p.id > ? ORDER BY p.id LIMIT ${LOAD_PAGE}`,
          [after],
          // The page's id range: an index range of each side table.
          (rows) => ({
            where: (column) => `${column} BETWEEN ? AND ?`,
            params: [rows[0]?.id ?? 0, rows.at(-1)?.id ?? 0],
          }),
          { vendors, documents, termCounts, vendorCounts },
        );
        if (page.length === 0) break;
        after = page.at(-1)?.id ?? after;
        productCount += page.length;
        onProgress(productCount, Math.max(total, productCount));
        if (pause) await pause();
      }
    }
    // Terms and vendors are suggested only while they hold a searchable product; popularity is that count: counted
    // from the rows read by a full load, per term or vendor through an index by a scoped one.
    const termRows = db
      .prepare(
        scope
          ? `SELECT t.id, t.taxonomy, t.name, (SELECT count(*) FROM product_terms x JOIN products p ON p.id = x.product_id
               WHERE x.term_id = t.id AND p.type <> 'variation' AND ${SEARCHABLE}) AS products
             FROM terms t WHERE t.id IN (SELECT value FROM json_each(?))`
          : 'SELECT t.id, t.taxonomy, t.name, 0 AS products FROM terms t',
      )
      .all(...(scope ? [ids(scope.terms)] : [])) as {
      id: number;
      taxonomy: Taxonomy;
      name: string;
      products: number;
    }[];
    addTermDocuments({ documents, removedKeys }, termRows, scope?.terms, scope ? null : termCounts);

    const vendorRows = db
      .prepare(
        scope
          ? // Per vendor, from the covering index products_vendor (migration 0042): a few index entries each.
            `SELECT v.id, v.name, v.city, (SELECT count(*) FROM products p
               WHERE p.vendor_id = v.id AND p.type <> 'variation' AND ${SEARCHABLE}) AS products
             FROM vendors v WHERE v.id IN (SELECT value FROM json_each(?))`
          : 'SELECT v.id, v.name, v.city, 0 AS products FROM vendors v',
      )
      .all(...(scope ? [ids(scope.vendors)] : [])) as {
      id: number;
      name: string;
      city: string | null;
      products: number;
    }[];
    if (!scope) for (const row of vendorRows) row.products = vendorCounts.get(row.id) ?? 0;
    addVendorDocuments({ documents, removedKeys }, vendorRows, scope?.vendors);

    const postRows = db
      .prepare(
        `SELECT id, type, title, excerpt, content, password_hash FROM posts
         ${scope ? 'WHERE id IN (SELECT value FROM json_each(?))' : ''}`,
      )
      .all(...(scope ? [ids(scope.posts)] : [])) as PostDocumentRow[];
    addPostDocuments({ documents, removedKeys }, postRows, scope?.posts);
    onProgress(productCount, productCount);
    return { documents, removedKeys };
  }

  /**
   * The documents of the products matching `filter` (on `products p`, with its ORDER BY) with
   * their side tables, read for just those products (`side` gives the condition on a product id column that selects
   * them); adds the links' counts to `termCounts` when given. Returns the product rows read.
   */
  #productDocuments(
    filter: string,
    params: unknown[],
    sideOf: (rows: ProductRow[]) => { where: (column: string) => string; params: unknown[] },
    into: {
      vendors: Map<number, string>;
      documents: SearchDocument[];
      termCounts: Map<number, number> | null;
      vendorCounts: Map<number, number> | null;
    },
  ): ProductRow[] {
    const db = this.#db;
    const products = db
      .prepare(
        `SELECT p.id, p.type, p.parent_id, p.sku, p.name, p.featured, p.short_description, p.description,
           p.stock_status, p.total_sales, p.vendor_id
         FROM products p WHERE p.type <> 'variation' AND ${SEARCHABLE} AND ${filter}`,
      )
      .all(...params) as ProductRow[];
    if (products.length === 0) return products;
    if (into.vendorCounts) {
      for (const row of products) {
        if (row.vendor_id !== null)
          into.vendorCounts.set(row.vendor_id, (into.vendorCounts.get(row.vendor_id) ?? 0) + 1);
      }
    }
    const side = sideOf(products);
    // Side tables in bulk, grouped by product: one pass each instead of a query per product.
    const termLinks = db
      .prepare(
        `SELECT x.product_id AS owner, t.name AS text, x.term_id FROM product_terms x JOIN terms t ON t.id = x.term_id
         WHERE ${side.where('x.product_id')}`,
      )
      .all(...side.params) as { owner: number; text: string; term_id: number }[];
    const found = new Set(products.map((row) => row.id));
    if (into.termCounts) {
      for (const link of termLinks) {
        if (found.has(link.owner))
          into.termCounts.set(link.term_id, (into.termCounts.get(link.term_id) ?? 0) + 1);
      }
    }
    const attributeValues = groupBy(
      db
        .prepare(
          `SELECT x.product_id AS owner, t.name AS text FROM product_attribute_terms x
           JOIN attribute_terms t ON t.id = x.term_id WHERE ${side.where('x.product_id')}`,
        )
        .all(...side.params) as { owner: number; text: string }[],
    );
    const variations = groupVariations(
      db
        .prepare(
          `SELECT v.id, v.parent_id, v.sku, v.stock_status FROM products v
           WHERE v.type = 'variation' AND v.status = 'publish' AND v.sku IS NOT NULL AND v.sku <> ''
           AND ${side.where('v.parent_id')}`,
        )
        .all(...side.params) as { id: number; parent_id: number; sku: string; stock_status: string }[],
    );
    const sideTables = { termNames: groupBy(termLinks), attributeValues, variations, vendors: into.vendors };
    for (const row of products) into.documents.push(...productDocuments(row, sideTables));
    return products;
  }

  async describeProducts(ids: readonly number[]): Promise<ProductCard[]> {
    if (ids.length === 0) return [];
    const rows = this.#db
      .prepare(
        `SELECT p.id, p.type, p.slug, p.name, p.sku, p.short_description, p.featured, p.stock_status, p.vendor_id,
           p.price_min, p.price_max, p.regular_price, p.sale_price, p.rating_average, p.rating_count,
           (SELECT i.id FROM product_images i WHERE i.product_id = p.id ORDER BY i.position LIMIT 1) AS image_id,
           (SELECT i.stored_key FROM product_images i WHERE i.product_id = p.id ORDER BY i.position LIMIT 1) AS image_key,
           CASE WHEN p.type = 'variable' THEN EXISTS (SELECT 1 FROM products v WHERE v.parent_id = p.id
             AND v.status = 'publish' AND v.sale_price IS NOT NULL AND v.sale_price < v.regular_price) END AS variation_on_sale
         FROM products p WHERE p.id IN (SELECT value FROM json_each(?)) AND p.type <> 'variation'`,
      )
      .all(JSON.stringify(ids)) as (ProductCardRow & { variation_on_sale: number | null })[];
    return rows.map((row) => toProductCard(row, row.variation_on_sale === 1));
  }

  async getRules(): Promise<RelevanceRules | null> {
    const db = this.#db;
    const seeded = db.prepare("SELECT value FROM search_settings WHERE key = 'seeded'").pluck().get();
    if (seeded === undefined) return null;
    const boosts = { ...DEFAULT_BOOSTS };
    for (const row of db.prepare('SELECT field, weight FROM search_boosts').all() as {
      field: keyof typeof boosts;
      weight: number;
    }[]) {
      if (SEARCH_FIELDS.includes(row.field)) boosts[row.field] = row.weight;
    }
    const outOfStock = (db
      .prepare("SELECT value FROM search_settings WHERE key = 'out_of_stock'")
      .pluck()
      .get() ?? 'normal') as OutOfStockHandling;
    return {
      synonyms: (db.prepare('SELECT words FROM search_synonyms ORDER BY id').pluck().all() as string[]).map(
        (words) => JSON.parse(words) as string[],
      ),
      stopWords: db.prepare('SELECT word FROM search_stop_words ORDER BY word').pluck().all() as string[],
      boosts,
      outOfStock,
      pins: Object.fromEntries(
        (
          db.prepare('SELECT query, product_ids FROM search_pins').all() as {
            query: string;
            product_ids: string;
          }[]
        ).map((row) => [row.query, JSON.parse(row.product_ids) as number[]]),
      ),
    };
  }

  async saveRules(rules: RelevanceRules): Promise<void> {
    this.#db.transaction(() => this.#writeRules(rules)).immediate();
  }

  async seedRules(rules: RelevanceRules): Promise<boolean> {
    // IMMEDIATE: a second process on the same file waits, then finds the rules seeded.
    return this.#db
      .transaction(() => {
        const seeded = this.#db.prepare("SELECT 1 FROM search_settings WHERE key = 'seeded'").get();
        if (seeded) return false;
        this.#writeRules(rules);
        return true;
      })
      .immediate();
  }

  #writeRules(rules: RelevanceRules): void {
    const db = this.#db;
    db.exec(
      'DELETE FROM search_synonyms; DELETE FROM search_stop_words; DELETE FROM search_boosts; DELETE FROM search_pins;',
    );
    const synonym = db.prepare('INSERT INTO search_synonyms (words) VALUES (?)');
    for (const group of rules.synonyms) synonym.run(JSON.stringify(group));
    const stopWord = db.prepare('INSERT OR IGNORE INTO search_stop_words (word) VALUES (?)');
    for (const word of rules.stopWords) stopWord.run(word);
    const boost = db.prepare('INSERT INTO search_boosts (field, weight) VALUES (?, ?)');
    for (const field of SEARCH_FIELDS) boost.run(field, rules.boosts[field]);
    const pin = db.prepare('INSERT INTO search_pins (query, product_ids) VALUES (?, ?)');
    for (const [query, productIds] of Object.entries(rules.pins)) pin.run(query, JSON.stringify(productIds));
    const setting = db.prepare('INSERT OR REPLACE INTO search_settings (key, value) VALUES (?, ?)');
    setting.run('out_of_stock', rules.outOfStock);
    setting.run('seeded', '1');
    // Every process compares this revision before a search and reloads the rules when it moved.
    db.prepare(
      `INSERT INTO search_settings (key, value) VALUES ('revision', '1')
       ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`,
    ).run();
  }

  async recordQuery(record: SearchQueryRecord): Promise<void> {
    await this.recordQueries([record]);
  }

  async recordQueries(records: readonly SearchQueryRecord[]): Promise<void> {
    const db = this.#db;
    const lastOfBurst = db.prepare(
      `SELECT id, query, updated_at FROM search_queries WHERE session_hash = ? AND source = 'suggestions' AND updated_at >= ?
       ORDER BY updated_at DESC LIMIT 1`,
    );
    const extendBurst = db.prepare(
      'UPDATE search_queries SET query = ?, results = ?, updated_at = ? WHERE id = ?',
    );
    const insert = db.prepare(
      `INSERT INTO search_queries (query, results, source, session_hash, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    // IMMEDIATE: the write lock before the read. A deferred transaction that has read cannot wait for the lock
    // (SQLite answers SQLITE_BUSY at once, whatever the busy timeout), so every query sent during an import was
    // lost. Busy now fails at once, without holding the process, and the caller's retry queue tries again.
    withoutBusyWait(db, () =>
      db
        .transaction(() => {
          for (const record of records) {
            if (record.source === 'suggestions') {
              const last = lastOfBurst.get(record.sessionHash, record.now - record.burstMs) as
                | { id: number; query: string; updated_at: number }
                | undefined;
              if (last && (record.query.startsWith(last.query) || last.query.startsWith(record.query))) {
                // A keystroke older than the burst's row (another process's batch committed first) is not its last.
                if (record.now >= last.updated_at)
                  extendBurst.run(record.query, record.results, record.now, last.id);
                continue;
              }
            }
            insert.run(
              record.query,
              record.results,
              record.source,
              record.sessionHash,
              record.now,
              record.now,
            );
          }
        })
        .immediate(),
    );
  }

  async deleteQueriesBefore(before: number): Promise<void> {
    // A search's cart adds go with it (they are only ever read joined to it).
    this.#db.transaction(() => {
      this.#db.prepare('DELETE FROM search_queries WHERE updated_at < ?').run(before);
      this.#db.prepare('DELETE FROM search_cart_adds WHERE created_at < ?').run(before);
    })();
  }

  async topQueries(options: { limit: number; since: number; zeroResults: boolean }): Promise<QueryStat[]> {
    // A query's result count is that of its latest search (the catalog may have changed since the first).
    return this.#db
      .prepare(
        `SELECT query, count(*) AS count, max(updated_at) AS lastSeen,
           (SELECT results FROM search_queries l WHERE l.query = q.query ORDER BY updated_at DESC LIMIT 1) AS results
         FROM search_queries q WHERE updated_at >= ? GROUP BY query
         HAVING ${options.zeroResults ? 'results = 0' : '1'}
         ORDER BY count DESC, lastSeen DESC, query LIMIT ?`,
      )
      .all(options.since, options.limit) as QueryStat[];
  }

  async successfulQueries(options: {
    limit: number;
    since: number;
  }): Promise<{ query: string; searches: number }[]> {
    return this.#db
      .prepare(
        `SELECT query, count(*) AS searches FROM search_queries
         WHERE updated_at >= ? AND results > 0 GROUP BY query ORDER BY searches DESC, query LIMIT ?`,
      )
      .all(options.since, options.limit) as { query: string; searches: number }[];
  }
}
