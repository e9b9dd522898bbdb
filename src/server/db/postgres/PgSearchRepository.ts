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
import {
  CHANGE_LOG_PART_ROWS_PG,
  CHANGE_LOG_ROWS,
  type ChangeLogRow,
  changesOfPart,
  changesOfRows,
} from '../sql/pageChangeSql';
import { PgImportHandoffs } from './importHandoffs';
import { inTransaction, type PgClient, type PgPool, type Queryable } from './openPostgres';
import { withoutLockWait } from './withoutLockWait';

/** How long changesSince waits for catalog writers in flight before answering "nothing yet" (next search retries). */
const CHANGE_LOG_LOCK_TIMEOUT = '200ms';
/** Advisory lock of the relevance rules (the migrations hold 7263001, search bursts 7263002). */
const RULES_LOCK = 7263004;

/** Products per page of a full load, as SqliteSearchRepository reads them. */
const LOAD_PAGE = 250;

type TermDocumentRow = { id: number; taxonomy: Taxonomy; name: string; products: number };
type VendorDocumentRow = { id: number; name: string; city: string | null; products: number };

/** Which rows of a side table (by a product id column) a read of products takes. */
interface SideCondition {
  where: (column: string) => string;
  params: unknown[];
}

/**
 * A list of product ids as a condition: `= ANY` of the list and, redundantly, between its lowest and highest id,
 * which lets PostgreSQL take an index range when the ids lie close together (an import's new products): measured
 * at 52,000 products for 1,000 new ones, 5.4 ms for the four statements of a read instead of 16 ms, where the list
 * alone made it scan each side table whole. Ids spread over the table keep the plan the list alone gives.
 */
function idList(ids: readonly number[]): SideCondition & { ids: readonly number[] } {
  let lowest = Number.POSITIVE_INFINITY;
  let highest = Number.NEGATIVE_INFINITY;
  for (const id of ids) {
    if (id < lowest) lowest = id;
    if (id > highest) highest = id;
  }
  return {
    ids,
    where: (column) => `${column} = ANY($1::bigint[]) AND ${column} BETWEEN $2 AND $3`,
    params: [ids, lowest, highest],
  };
}

/**
 * A suggestion's product cards, by id. Whether a variable product has a variation on sale is looked up under each
 * card's product (`LIMIT 1`: a scalar subquery, never hashed), not with EXISTS: while an import writes, the
 * statistics still describe the catalog before it, and PostgreSQL then hashed every published product to answer
 * EXISTS for a few cards, a read that grew with the import (100–700 ms per suggestion at 26,000 products).
 */
export const PRODUCT_CARDS_SQL = `SELECT p.id, p.type, p.slug, p.name, p.sku, p.short_description, p.featured,
  p.stock_status, p.vendor_id, p.price_min, p.price_max, p.regular_price, p.sale_price, p.rating_average, p.rating_count,
  (SELECT i.id FROM product_images i WHERE i.product_id = p.id ORDER BY i.position LIMIT 1) AS image_id,
  (SELECT i.stored_key FROM product_images i WHERE i.product_id = p.id ORDER BY i.position LIMIT 1) AS image_key,
  CASE WHEN p.type = 'variable' THEN (SELECT true FROM products v WHERE v.parent_id = p.id AND v.status = 'publish'
    AND v.sale_price IS NOT NULL AND v.sale_price < v.regular_price LIMIT 1) IS NOT NULL END AS variation_on_sale
FROM products p WHERE p.id = ANY($1::bigint[]) AND p.type <> 'variation'`;

/** The PostgreSQL twin of SqliteSearchRepository, query for query (id lists as `bigint[]` instead of JSON). */
export class PgSearchRepository implements SearchRepository {
  /** The event loop runs other requests while a read is in flight: fewer, larger reads (and round trips). */
  readonly scopedReadSize = 1000;
  readonly handoffs: PgImportHandoffs;
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
    this.handoffs = new PgImportHandoffs(pool);
  }

  /**
   * The documents of `scope` as a transaction sees them, its own uncommitted rows included: an import hands its
   * changed documents to the replicas before it commits (handOffImport.ts).
   */
  static loadDocumentsIn(client: PgClient, scope: SearchScope) {
    // Only `query` is used by a scoped read: the client stands in for the pool, one statement at a time (the
    // pool's reads send several at once, which one connection does not take).
    let last: Promise<unknown> = Promise.resolve();
    const serial = {
      query(sql: string, params?: unknown[]) {
        const next = last.then(() => client.query(sql, params));
        last = next.catch(() => undefined);
        return next;
      },
    };
    return new PgSearchRepository(serial as unknown as PgPool).loadDocuments(scope);
  }

  async #rows<R>(sql: string, params: unknown[] = [], db: Queryable = this.#pool): Promise<R[]> {
    return (await db.query(sql, params)).rows as R[];
  }

  async revision(db: Queryable = this.#pool) {
    const [row] = await this.#rows<{ catalog: number | null; rules: string | null; rebuild: string | null }>(
      `SELECT (SELECT max(seq) FROM search_changes) AS catalog,
         (SELECT value FROM search_settings WHERE key = 'revision') AS rules,
         (SELECT value FROM search_settings WHERE key = 'rebuild') AS rebuild`,
      [],
      db,
    );
    return {
      catalog: row?.catalog ?? 0,
      rules: Number(row?.rules ?? 0),
      rebuild: Number(row?.rebuild ?? 0),
    };
  }

  async requestRebuild(): Promise<void> {
    await this.#pool.query(
      `INSERT INTO search_settings (key, value) VALUES ('rebuild', '1')
       ON CONFLICT (key) DO UPDATE SET value = (CAST(search_settings.value AS BIGINT) + 1)::text`,
    );
  }

  async changesSince(seq: number, limit: number, part?: { wideAfter: number }): Promise<SearchChanges> {
    const none = changesOfRows([], seq);
    try {
      return await inTransaction(this.#pool, async (client) => {
        // Sequence values are taken before commit: a writer still in flight may commit a seq below one already
        // visible. The SHARE lock waits for every writer of the log to finish, so nothing below is skipped.
        await client.query(`SET LOCAL lock_timeout = '${CHANGE_LOG_LOCK_TIMEOUT}'`);
        await client.query('LOCK TABLE search_changes IN SHARE MODE');
        const rows = part
          ? await this.#rows<ChangeLogRow>(CHANGE_LOG_PART_ROWS_PG, [seq, limit + 1, part.wideAfter], client)
          : await this.#rows<ChangeLogRow>(CHANGE_LOG_ROWS.postgres, [seq, limit + 1], client);
        if (part) return changesOfPart(rows, seq, limit);
        if (rows.length > limit) return { ...none, full: true, seq: (await this.revision(client)).catalog };
        return changesOfRows(rows, seq);
      });
    } catch (error) {
      // A long catalog write (an import) holds the log: report nothing new now; the next search asks again.
      if ((error as { code?: string }).code === '55P03') return none;
      throw error;
    }
  }

  async loadDocuments(
    scope?: SearchScope,
    onProgress: (done: number, total: number) => void = () => {},
    pause?: () => Promise<void>,
  ) {
    const documents: SearchDocument[] = [];
    const removedKeys: string[] = [];
    // Asked for now and awaited with the products' own statements: one round trip less per read, which a merge's
    // twenty reads of a thousand products each pay on a database busy with shoppers.
    const vendors = this.#rows<{ id: number; name: string }>('SELECT id, name FROM vendors').then(
      (rows) => new Map(rows.map((row) => [row.id, row.name])),
    );
    vendors.catch(() => undefined);
    // A full load counts each term's searchable products from the links it reads.
    const termCounts = new Map<number, number>();
    let productCount = 0;
    if (scope) {
      // One list of ids (a union of the scope's lists that are not empty), looked up by primary key, as
      // SqliteSearchRepository reads it: an OR of the three conditions could make PostgreSQL scan every product on
      // each scoped read.
      const editedTerms = scope.editedTerms ?? scope.terms;
      const editedVendors = scope.editedVendors ?? scope.vendors;
      let products: ProductRow[];
      if (editedTerms.length + editedVendors.length === 0) {
        // Products only (a merge reads its changed products so, a thousand at a time): the side tables are read for
        // the same ids at the same time as the products, four statements in flight instead of one after another.
        const ids = idList(scope.products);
        products =
          ids.ids.length === 0
            ? []
            : await this.#productDocuments(`${ids.where('p.id')} ORDER BY p.id`, ids.params, ids, {
                vendors,
                documents,
                termCounts: null,
              });
      } else {
        const lists: string[] = [];
        const listParams: number[][] = [];
        const addList = (ids: number[], select: (param: string) => string) => {
          if (ids.length === 0) return;
          listParams.push(ids);
          lists.push(select(`$${listParams.length}::bigint[]`));
        };
        addList(scope.products, (param) => `SELECT unnest(${param})`);
        addList(editedTerms, (param) => `SELECT product_id FROM product_terms WHERE term_id = ANY(${param})`);
        addList(editedVendors, (param) => `SELECT id FROM products WHERE vendor_id = ANY(${param})`);
        products = await this.#productDocuments(
          `p.id IN (${lists.join(' UNION ')}) ORDER BY p.id`,
          listParams,
          (rows) => idList(rows.map((row) => row.id)),
          { vendors, documents, termCounts: null },
        );
      }
      const found = new Set(products.map((row) => row.id));
      for (const id of scope.products) {
        if (!found.has(id)) removedKeys.push(suggestionObjectId({ type: 'product', postId: id }));
      }
      productCount = products.length;
    } else {
      // Everything, in pages of products by id, as SqliteSearchRepository reads it (its comment says why).
      const [count] = await this.#rows<{ total: string }>(
        `SELECT count(*) AS total FROM products p WHERE p.type <> 'variation' AND ${SEARCHABLE}`,
      );
      const total = Number(count?.total ?? 0);
      for (let after = 0; ; ) {
        const page = await this.#productDocuments(
          `p.id > $1 ORDER BY p.id LIMIT ${LOAD_PAGE}`,
          [after],
          // The page's id range: an index range of each side table.
          (rows) => ({
            where: (column) => `${column} BETWEEN $1 AND $2`,
            params: [rows[0]?.id ?? 0, rows.at(-1)?.id ?? 0],
          }),
          { vendors, documents, termCounts },
        );
        if (page.length === 0) break;
        after = page.at(-1)?.id ?? after;
        productCount += page.length;
        onProgress(productCount, Math.max(total, productCount));
        if (pause) await pause();
      }
    }

    // A scoped read of products only (a merge's) asks for no term, vendor or post: no statement for those.
    const notAsked = <R>(ids: readonly number[] | undefined): R[] | null =>
      scope && ids?.length === 0 ? [] : null;
    const termRows =
      notAsked<TermDocumentRow>(scope?.terms) ??
      (await this.#rows<TermDocumentRow>(
        scope
          ? `SELECT t.id, t.taxonomy, t.name, (SELECT count(*) FROM product_terms x JOIN products p ON p.id = x.product_id
             WHERE x.term_id = t.id AND p.type <> 'variation' AND ${SEARCHABLE}) AS products
           FROM terms t WHERE t.id = ANY($1::bigint[]) ORDER BY t.id`
          : 'SELECT t.id, t.taxonomy, t.name, 0 AS products FROM terms t ORDER BY t.id',
        scope ? [scope.terms] : [],
      ));
    addTermDocuments({ documents, removedKeys }, termRows, scope?.terms, scope ? null : termCounts);

    // A scoped read counts each of its vendors' products through products_vendor (migration 0042), a few index
    // entries per vendor; a full load counts every vendor in one grouped pass over the products.
    const vendorRows =
      notAsked<VendorDocumentRow>(scope?.vendors) ??
      (await this.#rows<VendorDocumentRow>(
        scope
          ? `SELECT v.id, v.name, v.city, (SELECT count(*) FROM products p
             WHERE p.vendor_id = v.id AND p.type <> 'variation' AND ${SEARCHABLE}) AS products
           FROM vendors v WHERE v.id = ANY($1::bigint[]) ORDER BY v.id`
          : `SELECT v.id, v.name, v.city, coalesce(c.products, 0) AS products FROM vendors v
           LEFT JOIN (SELECT p.vendor_id, count(*) AS products FROM products p
             WHERE p.type <> 'variation' AND ${SEARCHABLE} GROUP BY p.vendor_id) c ON c.vendor_id = v.id
           ORDER BY v.id`,
        scope ? [scope.vendors] : [],
      ));
    addVendorDocuments({ documents, removedKeys }, vendorRows, scope?.vendors);

    const postRows =
      notAsked<PostDocumentRow>(scope?.posts) ??
      (await this.#rows<PostDocumentRow>(
        `SELECT id, type, title, excerpt, content, password_hash FROM posts
       ${scope ? 'WHERE id = ANY($1::bigint[])' : ''} ORDER BY id`,
        scope ? [scope.posts] : [],
      ));
    addPostDocuments({ documents, removedKeys }, postRows, scope?.posts);
    onProgress(productCount, productCount);
    return { documents, removedKeys };
  }

  /**
   * The documents of the products matching `filter` (on `products p`, with its ORDER BY) with their side tables,
   * read for just those products (`sideOf` gives the condition on a product id column that selects them: known
   * beforehand, the four statements run at once; otherwise told by the product rows, read first); adds the links'
   * counts to `termCounts` when given. Returns the product rows read.
   */
  async #productDocuments(
    filter: string,
    params: unknown[],
    sideOf: SideCondition | ((rows: ProductRow[]) => SideCondition),
    into: {
      vendors: Promise<Map<number, string>>;
      documents: SearchDocument[];
      termCounts: Map<number, number> | null;
    },
  ): Promise<ProductRow[]> {
    const productRows = this.#rows<ProductRow>(
      `SELECT p.id, p.type, p.parent_id, p.sku, p.name, p.featured, p.short_description, p.description,
         p.stock_status, p.total_sales, p.vendor_id
       FROM products p WHERE p.type <> 'variation' AND ${SEARCHABLE} AND ${filter}`,
      params,
    );
    let side: SideCondition;
    if (typeof sideOf === 'function') {
      const rows = await productRows;
      if (rows.length === 0) return rows;
      side = sideOf(rows);
    } else side = sideOf;
    // Side tables in bulk, grouped by product: one pass each instead of a query per product.
    const [products, termLinks, attributeRows, variationRows, vendors] = await Promise.all([
      productRows,
      this.#rows<{ owner: number; text: string; term_id: number }>(
        `SELECT x.product_id AS owner, t.name AS text, x.term_id FROM product_terms x JOIN terms t ON t.id = x.term_id
         WHERE ${side.where('x.product_id')} ORDER BY x.product_id, x.term_id`,
        side.params,
      ),
      this.#rows<{ owner: number; text: string }>(
        `SELECT x.product_id AS owner, t.name AS text FROM product_attribute_terms x
         JOIN attribute_terms t ON t.id = x.term_id WHERE ${side.where('x.product_id')}
         ORDER BY x.product_id, x.attribute_id, x.term_id`,
        side.params,
      ),
      this.#rows<{ id: number; parent_id: number; sku: string; stock_status: string }>(
        `SELECT v.id, v.parent_id, v.sku, v.stock_status FROM products v
         WHERE v.type = 'variation' AND v.status = 'publish' AND v.sku IS NOT NULL AND v.sku <> ''
         AND ${side.where('v.parent_id')} ORDER BY v.id`,
        side.params,
      ),
      into.vendors,
    ]);
    if (into.termCounts) {
      const found = new Set(products.map((row) => row.id));
      for (const link of termLinks) {
        if (found.has(link.owner))
          into.termCounts.set(link.term_id, (into.termCounts.get(link.term_id) ?? 0) + 1);
      }
    }
    const attributeValues = groupBy(attributeRows);
    const variations = groupVariations(variationRows);
    const sideTables = { termNames: groupBy(termLinks), attributeValues, variations, vendors };
    for (const row of products) into.documents.push(...productDocuments(row, sideTables));
    return products;
  }

  async describeProducts(ids: readonly number[]): Promise<ProductCard[]> {
    if (ids.length === 0) return [];
    // Not prepared: planned for its ids at every run, as PostgreSQL did for a prepared one while the catalog's
    // statistics were current (its generic plan looked costlier). A generic plan made from a new shop's statistics
    // scanned every product, and stayed while a first import wrote 26,000 more (100–250 ms a suggestion).
    const { rows } = await this.#pool.query<ProductCardRow & { variation_on_sale: boolean | null }>(
      PRODUCT_CARDS_SQL,
      [[...ids]],
    );
    return rows.map((row) => toProductCard(row, row.variation_on_sale === true));
  }

  async getRules(): Promise<RelevanceRules | null> {
    const settings = new Map(
      (await this.#rows<{ key: string; value: string }>('SELECT key, value FROM search_settings')).map(
        (row) => [row.key, row.value],
      ),
    );
    if (!settings.has('seeded')) return null;
    const boosts = { ...DEFAULT_BOOSTS };
    for (const row of await this.#rows<{ field: keyof typeof boosts; weight: number }>(
      'SELECT field, weight FROM search_boosts',
    )) {
      if (SEARCH_FIELDS.includes(row.field)) boosts[row.field] = row.weight;
    }
    const [synonyms, stopWords, pins] = await Promise.all([
      this.#rows<{ words: string }>('SELECT words FROM search_synonyms ORDER BY id'),
      // COLLATE "C": byte order, as SQLite's default BINARY collation sorts.
      this.#rows<{ word: string }>('SELECT word FROM search_stop_words ORDER BY word COLLATE "C"'),
      this.#rows<{ query: string; product_ids: string }>('SELECT query, product_ids FROM search_pins'),
    ]);
    return {
      synonyms: synonyms.map((row) => JSON.parse(row.words) as string[]),
      stopWords: stopWords.map((row) => row.word),
      boosts,
      outOfStock: (settings.get('out_of_stock') ?? 'normal') as OutOfStockHandling,
      pins: Object.fromEntries(pins.map((row) => [row.query, JSON.parse(row.product_ids) as number[]])),
    };
  }

  async saveRules(rules: RelevanceRules): Promise<void> {
    await inTransaction(this.#pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [RULES_LOCK]);
      await this.#writeRules(client, rules);
    });
  }

  async seedRules(rules: RelevanceRules): Promise<boolean> {
    return inTransaction(this.#pool, async (client) => {
      // Processes starting together take turns here; the ones after the first find the rules seeded.
      await client.query('SELECT pg_advisory_xact_lock($1)', [RULES_LOCK]);
      const seeded = await client.query("SELECT 1 FROM search_settings WHERE key = 'seeded'");
      if (seeded.rowCount) return false;
      await this.#writeRules(client, rules);
      return true;
    });
  }

  async #writeRules(client: PgClient, rules: RelevanceRules): Promise<void> {
    await client.query(
      'DELETE FROM search_synonyms; DELETE FROM search_stop_words; DELETE FROM search_boosts; DELETE FROM search_pins;',
    );
    for (const group of rules.synonyms) {
      await client.query('INSERT INTO search_synonyms (words) VALUES ($1)', [JSON.stringify(group)]);
    }
    for (const word of rules.stopWords) {
      await client.query('INSERT INTO search_stop_words (word) VALUES ($1) ON CONFLICT DO NOTHING', [word]);
    }
    for (const field of SEARCH_FIELDS) {
      await client.query('INSERT INTO search_boosts (field, weight) VALUES ($1, $2)', [
        field,
        rules.boosts[field],
      ]);
    }
    for (const [query, productIds] of Object.entries(rules.pins)) {
      await client.query('INSERT INTO search_pins (query, product_ids) VALUES ($1, $2)', [
        query,
        JSON.stringify(productIds),
      ]);
    }
    const setting = `INSERT INTO search_settings (key, value) VALUES ($1, $2)
      ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
    await client.query(setting, ['out_of_stock', rules.outOfStock]);
    await client.query(setting, ['seeded', '1']);
    // Every process compares this revision before a search and reloads the rules when it moved.
    await client.query(
      `INSERT INTO search_settings (key, value) VALUES ('revision', '1')
       ON CONFLICT (key) DO UPDATE SET value = (CAST(search_settings.value AS BIGINT) + 1)::text`,
    );
  }

  async recordQuery(record: SearchQueryRecord): Promise<void> {
    await this.recordQueries([record]);
  }

  async recordQueries(records: readonly SearchQueryRecord[]): Promise<void> {
    if (records.length === 0) return;
    await inTransaction(this.#pool, async (client) => {
      await withoutLockWait(client);
      // One burst per session: concurrent batches of one session (two processes) take turns here. Every session's
      // lock in one sorted statement, so two batches never wait for each other in opposite orders.
      const sessions = [
        ...new Set(records.filter((r) => r.source === 'suggestions').map((r) => r.sessionHash)),
      ].sort();
      if (sessions.length > 0)
        await client.query(
          'SELECT pg_advisory_xact_lock(7263002, hashtext(session)) FROM unnest($1::text[]) AS session ORDER BY session',
          [sessions],
        );
      // Rows that cannot join a burst (results pages, a burst's first query) go in one statement per run of them,
      // in the order given.
      let inserts: SearchQueryRecord[] = [];
      for (const record of records) {
        if (record.source === 'suggestions') {
          // Once per suggestion typed: prepared, so each connection parses and plans it once.
          const [last] = (
            await client.query<{ id: number; query: string; updated_at: string | number }>({
              name: 'search-burst-last',
              text: `SELECT id, query, updated_at FROM search_queries WHERE session_hash = $1 AND source = 'suggestions' AND updated_at >= $2
             ORDER BY updated_at DESC LIMIT 1`,
              values: [record.sessionHash, record.now - record.burstMs],
            })
          ).rows;
          if (last && (record.query.startsWith(last.query) || last.query.startsWith(record.query))) {
            // A keystroke older than the burst's row (another process's batch committed first) is not its last.
            if (record.now < Number(last.updated_at)) continue;
            await this.#insertQueries(inserts, client);
            inserts = [];
            await client.query(
              'UPDATE search_queries SET query = $1, results = $2, updated_at = $3 WHERE id = $4',
              [record.query, record.results, record.now, last.id],
            );
            continue;
          }
          // The next query of this session reads this row: write what is pending first.
          await this.#insertQueries([...inserts, record], client);
          inserts = [];
          continue;
        }
        inserts.push(record);
      }
      await this.#insertQueries(inserts, client);
    });
  }

  async #insertQueries(records: readonly SearchQueryRecord[], client: PgClient): Promise<void> {
    if (records.length === 0) return;
    await client.query(
      `INSERT INTO search_queries (query, results, source, session_hash, created_at, updated_at)
       SELECT query, results, source, session_hash, at, at
       FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::bigint[])
         AS record (query, results, source, session_hash, at)`,
      [
        records.map((record) => record.query),
        records.map((record) => record.results),
        records.map((record) => record.source),
        records.map((record) => record.sessionHash),
        records.map((record) => record.now),
      ],
    );
  }

  async deleteQueriesBefore(before: number): Promise<void> {
    await this.#pool.query('DELETE FROM search_queries WHERE updated_at < $1', [before]);
    // A search's cart adds go with it (they are only ever read joined to it).
    await this.#pool.query('DELETE FROM search_cart_adds WHERE created_at < $1', [before]);
  }

  async topQueries(options: { limit: number; since: number; zeroResults: boolean }): Promise<QueryStat[]> {
    // A query's result count is that of its latest search (the catalog may have changed since the first).
    return this.#rows<QueryStat>(
      `SELECT * FROM (
         SELECT query, count(*) AS count, max(updated_at) AS "lastSeen",
           (SELECT results FROM search_queries l WHERE l.query = q.query ORDER BY updated_at DESC LIMIT 1) AS results
         FROM search_queries q WHERE updated_at >= $1 GROUP BY query) s
       ${options.zeroResults ? 'WHERE results = 0' : ''}
       ORDER BY count DESC, "lastSeen" DESC, query COLLATE "C" LIMIT $2`,
      [options.since, options.limit],
    );
  }

  async successfulQueries(options: {
    limit: number;
    since: number;
  }): Promise<{ query: string; searches: number }[]> {
    const rows = await this.#rows<{ query: string; searches: string }>(
      `SELECT query, count(*) AS searches FROM search_queries
       WHERE updated_at >= $1 AND results > 0 GROUP BY query ORDER BY searches DESC, query COLLATE "C" LIMIT $2`,
      [options.since, options.limit],
    );
    return rows.map((row) => ({ query: row.query, searches: Number(row.searches) }));
  }
}
