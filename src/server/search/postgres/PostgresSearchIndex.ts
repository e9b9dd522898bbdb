import { createHash } from 'node:crypto';
import type pg from 'pg';
import { suggestionObjectId } from '../../../shared/search/suggestionObjectId';
import type { VocabularyWord, WordVocabulary } from '../didYouMean';
import { normalizeQuery, parseSearchQuery, type QueryWord } from '../parseSearchQuery';
import {
  compileRules,
  EXACT,
  GROUP_NONE,
  groupOf,
  maxEditsOf,
  PREFIX_BASE,
  PREFIX_SPAN,
  RANK_BASE_LIMIT,
  rankBase,
  SCORE_LIMIT,
  SHORT_FIELDS,
  SHORT_TYPO_LENGTH,
  SHORT_WORD,
  SYNONYM,
  TYPO,
  TYPO_THRESHOLD,
  termsOf,
  titleKey,
  titleKeysOf,
  WHOLE_TITLE,
} from '../ranking';
import {
  DEFAULT_RULES,
  type RelevanceRules,
  SEARCH_GROUPS,
  type SearchDocument,
  type SearchHit,
  type SearchIndex,
  type SearchRequest,
  type SearchResult,
} from '../SearchIndex';
import { typoDistance } from './typoDistance';

/*
 * The search index in PostgreSQL, shared by every server process (several processes serve one shop). The same model
 * as the embedded MemorySearchIndex, in tables: one row per document (with the query-independent part of its
 * rank), one posting per (term, document) with the bit mask of the fields holding the term, and the term
 * dictionary with posting counts. Terms come from the same analyzer (termsOf), and a query is ranked with the
 * same factors from ranking.ts (exact 1, synonym 0.9, prefix 0.7–0.9, typo 0.45/0.3, × the best field boost; then featured,
 * in stock, sales), so both engines pass the same relevance tests. Why postings rather than a tsvector column:
 * the ranking needs each term's fields (5 boosts, tsvector has 4 weights), the analyzer's joined terms
 * (`t-shirt` → `tshirt`) and prefix scores by term length, which ts_rank cannot express; the postings table is
 * the same inverted index a GIN over a tsvector would be, with those facts kept.
 *
 * Typos: pg_trgm's similarity narrows the dictionary (terms with the word's first letter, as the embedded index
 * assumes) to candidates, and the exact edit distance (typoDistance) decides, as scanTypos does in memory.
 *
 * Shared: every write runs under one advisory lock in one transaction, so processes never interleave; a rebuild
 * whose documents equal the index's content (by hash) is skipped, so N processes starting at once rebuild once.
 * Rules are per process (SearchService reads them from the shared repository before each search).
 */

/** Terms at least this similar (pg_trgm) are checked for a typo; below it, no 1–2 edit neighbour was seen. */
const TRIGRAM_FLOOR = 0.2;
/** Rows per INSERT: bounds the parameter arrays. */
const BATCH = 5000;
/** pg_advisory_xact_lock key (two int4): 'srch' and the schema's hash, so test schemas do not share a lock. */
const LOCK_CLASS = 0x73726368;
/** pg_advisory_lock class of the background upkeep (`keepUp`): 'srku', with the same schema hash. */
const UPKEEP_LOCK_CLASS = 0x73726b75;
/**
 * Part of every document's hash: bump it when the analyzer or the stored columns change, so the next start
 * rebuilds an index whose documents are unchanged but whose terms would no longer be the same.
 */
const INDEX_FORMAT = 'v2: symbols not folded, title keys';
/** After every term with a prefix in code-point order (the dictionary is COLLATE "C"). */
const MAX_CHAR = String.fromCodePoint(0x10ffff);

interface PostgresSearchIndexOptions {
  /** The schema holding the tables (default `public`); tests give each index its own. */
  schema?: string;
  rules?: RelevanceRules;
}

interface DocumentRow {
  ord: number;
  key: string;
  kind: string;
  id: number;
  parentId: number | null;
  parentKey: string | null;
  taxonomy: string | null;
  postType: string | null;
  grp: number | null;
  inStock: boolean;
  rankBase: number;
  titleKeys: readonly string[];
  hash: string;
  terms: Map<string, number>;
}

interface HitRow {
  section: 'top' | 'pin' | 'total';
  ord: string | null;
  key: string | null;
  kind: SearchHit['kind'] | null;
  id: number | null;
  parent_id: number | null;
  taxonomy: SearchHit['taxonomy'];
  post_type: SearchHit['postType'];
  grp: number | null;
  score: number | null;
  total: string | null;
}

/** The SQL text and parameters of one query's matching, shared by search and searchProductIds. */
interface MatchPlan {
  params: unknown[];
  /** CTEs ending in `matched(doc, score)`. */
  sql: string;
  /** Some word has SHORT_TYPO_LENGTH letters: a plan with its typos is the fallback when this one finds nothing. */
  shortTypoWords: boolean;
}

export class PostgresSearchIndex implements SearchIndex {
  readonly #pool: pg.Pool;
  readonly #schema: string;
  readonly #lockKey: number;
  #rules: RelevanceRules = DEFAULT_RULES;
  #compiled = compileRules(DEFAULT_RULES);
  #schemaReady: Promise<void> | null = null;

  constructor(pool: pg.Pool, options: PostgresSearchIndexOptions = {}) {
    const schema = options.schema ?? 'public';
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`Invalid schema name: ${schema}`);
    this.#pool = pool;
    this.#schema = schema;
    this.#lockKey = createHash('sha1').update(schema).digest().readInt32BE(0);
    this.#setRules(options.rules ?? DEFAULT_RULES);
  }

  #table(name: 'state' | 'documents' | 'postings' | 'terms'): string {
    return `${this.#schema}.search_index_${name}`;
  }

  /**
   * Creates the tables once per process (idempotent, under the lock: concurrent CREATE EXTENSION races). Kept
   * here rather than in the shared migrations: the DDL is PostgreSQL-only (pg_trgm) and belongs to this engine.
   */
  ensureSchema(): Promise<void> {
    if (!this.#schemaReady) {
      this.#schemaReady = this.#write(async (client) => {
        // The extension is per database, whatever the schema: one more lock, shared by every schema's index.
        await client.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK_CLASS]);
        await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.#schema}`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${this.#table('state')} (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          content_hash TEXT,
          next_ord BIGINT NOT NULL
        )`);
        await client.query(
          `INSERT INTO ${this.#table('state')} (id, content_hash, next_ord) VALUES (1, NULL, 1) ON CONFLICT (id) DO NOTHING`,
        );
        // The change log's position the content is known to hold (see keepUp); NULL: not known.
        await client.query(`ALTER TABLE ${this.#table('state')} ADD COLUMN IF NOT EXISTS catalog_seq BIGINT`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${this.#table('documents')} (
          ord BIGINT PRIMARY KEY,
          key TEXT NOT NULL UNIQUE,
          kind TEXT NOT NULL,
          id INTEGER NOT NULL,
          parent_id INTEGER,
          parent_key TEXT,
          taxonomy TEXT,
          post_type TEXT,
          grp SMALLINT,
          in_stock BOOLEAN NOT NULL,
          rank_base BIGINT NOT NULL,
          hash TEXT NOT NULL
        )`);
        // Added after the first release: an index created before gets it here (and a rebuild, INDEX_FORMAT).
        await client.query(
          `ALTER TABLE ${this.#table('documents')} ADD COLUMN IF NOT EXISTS title_keys TEXT[] NOT NULL DEFAULT '{}'`,
        );
        await client.query(
          `CREATE INDEX IF NOT EXISTS search_index_documents_parent ON ${this.#table('documents')} (parent_key)`,
        );
        await client.query(`CREATE TABLE IF NOT EXISTS ${this.#table('postings')} (
          term TEXT COLLATE "C" NOT NULL,
          doc BIGINT NOT NULL,
          mask SMALLINT NOT NULL,
          PRIMARY KEY (term, doc)
        )`);
        await client.query(
          `CREATE INDEX IF NOT EXISTS search_index_postings_doc ON ${this.#table('postings')} (doc, term)`,
        );
        await client.query(`CREATE TABLE IF NOT EXISTS ${this.#table('terms')} (
          term TEXT COLLATE "C" PRIMARY KEY,
          docs INTEGER NOT NULL
        )`);
      }).catch((error: unknown) => {
        this.#schemaReady = null;
        throw error;
      });
    }
    return this.#schemaReady;
  }

  /** One write transaction under the index's advisory lock: writers from every process take turns. */
  async #write<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_CLASS, this.#lockKey]);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * A search statement, with JIT compilation off: on a large catalog the planner's estimates cross
   * jit_above_cost, and compiling would cost more than the whole query (measured: 80 of 110 ms).
   */
  async #read<T extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<T[]> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN READ ONLY');
      await client.query('SET LOCAL jit = off');
      const { rows } = await client.query<T>(sql, params);
      await client.query('COMMIT');
      return rows;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async count(): Promise<number> {
    await this.ensureSchema();
    const { rows } = await this.#pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${this.#table('documents')}`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  async keys(): Promise<string[]> {
    await this.ensureSchema();
    const { rows } = await this.#pool.query<{ key: string }>(`SELECT key FROM ${this.#table('documents')}`);
    return rows.map((row) => row.key);
  }

  async setRules(rules: RelevanceRules): Promise<void> {
    this.#setRules(rules);
  }

  #setRules(rules: RelevanceRules): void {
    this.#rules = rules;
    this.#compiled = compileRules(rules);
  }

  async replaceAll(documents: Iterable<SearchDocument>): Promise<void> {
    await this.ensureSchema();
    const rows = [...documents].map((document) => toRow(document));
    const contentHash = createHash('sha256');
    for (const row of rows) contentHash.update(row.hash);
    const digest = contentHash.digest('hex');
    await this.#write(async (client) => {
      const state = await client.query<{ content_hash: string | null }>(
        `SELECT content_hash FROM ${this.#table('state')} WHERE id = 1`,
      );
      // Another process already built exactly this content (N processes starting at once): nothing to do.
      if (state.rows[0]?.content_hash === digest) return;
      // DELETE, not TRUNCATE: searches keep reading the old index (MVCC) until this transaction commits.
      await client.query(`DELETE FROM ${this.#table('postings')}`);
      await client.query(`DELETE FROM ${this.#table('terms')}`);
      await client.query(`DELETE FROM ${this.#table('documents')}`);
      await this.#insert(client, rows);
      await client.query(
        `INSERT INTO ${this.#table('terms')} (term, docs) SELECT term, count(*) FROM ${this.#table('postings')} GROUP BY term`,
      );
      // Built from documents read at a position this index is not told: whatever it held before, not known now.
      await client.query(
        `UPDATE ${this.#table('state')} SET content_hash = $1, catalog_seq = NULL WHERE id = 1`,
        [digest],
      );
    });
  }

  /**
   * Upkeep shared by every process that keeps this index current in the background: each applies the same change
   * log, so without this each would analyze and compare the same tens of thousands of documents after an import
   * (measured: two processes doubled the database's work while the next import ran). One process at a time (a
   * session advisory lock, released if its process dies), and only when the index does not already hold `to`;
   * `to` is recorded after the work when the index is then known to hold it: after a whole fill (`from` null),
   * or after a catch-up from a position it held.
   */
  async keepUp(position: { from: number | null; to: number }, work: () => Promise<unknown>): Promise<void> {
    await this.ensureSchema();
    const client = await this.#pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1, $2)', [UPKEEP_LOCK_CLASS, this.#lockKey]);
      try {
        const { rows } = await client.query<{ catalog_seq: string | null }>(
          `SELECT catalog_seq FROM ${this.#table('state')} WHERE id = 1`,
        );
        const held = rows[0]?.catalog_seq == null ? null : Number(rows[0].catalog_seq);
        if (held !== null && held >= position.to) return;
        if ((await work()) === false) return;
        // A catch-up applied to an index older than its start leaves the changes between them out: the position
        // stays unknown or older until a whole fill records one.
        if (position.from === null || (held !== null && held >= position.from)) {
          await client.query(
            `UPDATE ${this.#table('state')} SET catalog_seq = GREATEST(COALESCE(catalog_seq, $1), $1) WHERE id = 1`,
            [position.to],
          );
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock($1, $2)', [UPKEEP_LOCK_CLASS, this.#lockKey]);
      }
    } finally {
      client.release();
    }
  }

  async update(upserts: readonly SearchDocument[], removedKeys: readonly string[]): Promise<void> {
    await this.ensureSchema();
    const rows = upserts.map((document) => toRow(document));
    await this.#write(async (client) => {
      const keys = [...new Set([...removedKeys, ...rows.map((row) => row.key)])];
      const existing = await client.query<{ ord: string; key: string; kind: string; hash: string }>(
        `SELECT ord, key, kind, hash FROM ${this.#table('documents')} WHERE key = ANY($1::text[])`,
        [keys],
      );
      const current = new Map(existing.rows.map((row) => [row.key, row]));
      // Unchanged documents stay as they are: N processes applying the same catalog change write it once.
      const changed = rows.filter((row) => current.get(row.key)?.hash !== row.hash);
      const upserted = new Set(rows.map((row) => row.key));
      const gone = existing.rows
        .filter((row) => !upserted.has(row.key) || changed.some((each) => each.key === row.key))
        .map((row) => row.ord);
      // A product's variations go with it: the caller sends the ones that still exist (as in memory).
      const productKeys = existing.rows.filter((row) => row.kind === 'product').map((row) => row.key);
      if (productKeys.length > 0) {
        const orphans = await client.query<{ ord: string; key: string }>(
          `SELECT ord, key FROM ${this.#table('documents')} WHERE kind = 'variation' AND parent_key = ANY($1::text[])`,
          [productKeys],
        );
        for (const row of orphans.rows) if (!upserted.has(row.key)) gone.push(row.ord);
      }
      // Each touched term's posting count moves by what was removed and added: counting a common term's postings
      // anew would read thousands of rows per update (an import's upkeep ran hundreds of such updates).
      const delta = new Map<string, number>();
      if (gone.length > 0) {
        const removed = await client.query<{ term: string; n: string }>(
          `WITH removed AS (DELETE FROM ${this.#table('postings')} WHERE doc = ANY($1::bigint[]) RETURNING term)
           SELECT term, count(*) AS n FROM removed GROUP BY term`,
          [gone],
        );
        for (const row of removed.rows) delta.set(row.term, -Number(row.n));
        await client.query(`DELETE FROM ${this.#table('documents')} WHERE ord = ANY($1::bigint[])`, [gone]);
      }
      await this.#insert(client, changed);
      for (const row of changed) {
        for (const term of row.terms.keys()) delta.set(term, (delta.get(term) ?? 0) + 1);
      }
      const moved = [...delta].filter(([, n]) => n !== 0);
      if (moved.length > 0) {
        const terms = moved.map(([term]) => term);
        await client.query(
          `INSERT INTO ${this.#table('terms')} AS t (term, docs)
           SELECT * FROM unnest($1::text[], $2::int[])
           ON CONFLICT (term) DO UPDATE SET docs = t.docs + excluded.docs`,
          [terms, moved.map(([, n]) => n)],
        );
        await client.query(`DELETE FROM ${this.#table('terms')} WHERE term = ANY($1::text[]) AND docs <= 0`, [
          terms,
        ]);
      }
      if (gone.length > 0 || changed.length > 0) {
        await client.query(`UPDATE ${this.#table('state')} SET content_hash = NULL WHERE id = 1`);
      }
    });
  }

  /** Inserts documents and their postings, numbering them in order (the embedded index's tie-break). */
  async #insert(client: pg.PoolClient, rows: DocumentRow[]): Promise<void> {
    if (rows.length === 0) return;
    const reserved = await client.query<{ next_ord: string }>(
      `UPDATE ${this.#table('state')} SET next_ord = next_ord + $1 WHERE id = 1 RETURNING next_ord`,
      [rows.length],
    );
    let ord = Number(reserved.rows[0]?.next_ord) - rows.length;
    for (const row of rows) row.ord = ord++;
    for (let at = 0; at < rows.length; at += BATCH) {
      const batch = rows.slice(at, at + BATCH);
      await client.query(
        `INSERT INTO ${this.#table('documents')}
           (ord, key, kind, id, parent_id, parent_key, taxonomy, post_type, grp, in_stock, rank_base, hash, title_keys)
         SELECT ord, key, kind, id, parent_id, parent_key, taxonomy, post_type, grp, in_stock, rank_base, hash,
           coalesce((SELECT array_agg(k) FROM jsonb_array_elements_text(title_keys) k), '{}')
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::text[],
           $8::text[], $9::smallint[], $10::boolean[], $11::bigint[], $12::text[], $13::jsonb[])
           AS u(ord, key, kind, id, parent_id, parent_key, taxonomy, post_type, grp, in_stock, rank_base, hash, title_keys)`,
        [
          batch.map((row) => row.ord),
          batch.map((row) => row.key),
          batch.map((row) => row.kind),
          batch.map((row) => row.id),
          batch.map((row) => row.parentId),
          batch.map((row) => row.parentKey),
          batch.map((row) => row.taxonomy),
          batch.map((row) => row.postType),
          batch.map((row) => row.grp),
          batch.map((row) => row.inStock),
          batch.map((row) => row.rankBase),
          batch.map((row) => row.hash),
          // A document has a list of title keys: sent as JSON, since unnest flattens nested arrays.
          batch.map((row) => JSON.stringify(row.titleKeys)),
        ],
      );
    }
    let terms: string[] = [];
    let docs: number[] = [];
    let masks: number[] = [];
    const flush = async () => {
      if (terms.length === 0) return;
      await client.query(
        `INSERT INTO ${this.#table('postings')} (term, doc, mask)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::smallint[])`,
        [terms, docs, masks],
      );
      terms = [];
      docs = [];
      masks = [];
    };
    for (const row of rows) {
      for (const [term, mask] of row.terms) {
        terms.push(term);
        docs.push(row.ord);
        masks.push(mask);
        if (terms.length >= BATCH * 4) await flush();
      }
    }
    await flush();
  }

  async search(request: SearchRequest): Promise<SearchResult> {
    await this.ensureSchema();
    const limits = SEARCH_GROUPS.map((group) => request.limits[group] ?? 0);
    const hide = this.#rules.outOfStock === 'hide';
    const pins = await this.#pins(request.text);
    const typos = request.typos !== false;
    let plan = await this.#plan(request.text, false, typos);
    const hits: SearchResult['hits'] = {};
    let totalProducts = 0;
    const top = new Map<number, SearchHit[]>();
    const pinScores = new Map<string, number>();
    const query = async (plan: MatchPlan) => {
      const params = [...plan.params];
      const p = (value: unknown) => `$${params.push(value)}`;
      const pinOrds = p(pins.map((pin) => pin.ord));
      const hideParam = p(hide);
      const rankParam = this.#rankSql(p, request.text);
      return this.#read<HitRow>(
        `${plan.sql},
        found AS (
          SELECT d.ord, d.key, d.kind, d.id, d.parent_id, d.taxonomy, d.post_type, d.grp, d.in_stock, m.score,
            ${rankParam} AS rank,
            parent.ord AS parent_ord,
            (parent.ord IS NOT NULL AND EXISTS (SELECT 1 FROM matched pm WHERE pm.doc = parent.ord)) AS parent_matched
          FROM matched m
          JOIN ${this.#table('documents')} d ON d.ord = m.doc
          LEFT JOIN ${this.#table('documents')} parent ON d.kind = 'variation' AND parent.key = d.parent_key
        ),
        visible AS (SELECT * FROM found WHERE NOT (${hideParam}::boolean AND NOT in_stock) AND grp IS NOT NULL),
        ranked AS (
          SELECT *, row_number() OVER (PARTITION BY grp ORDER BY rank DESC, ord) AS place
          FROM visible
          WHERE NOT (grp = 0 AND parent_ord IS NOT NULL AND NOT ${p(request.variations === true)}::boolean)
            AND NOT (grp = 0 AND ord = ANY(${pinOrds}::bigint[]))
        )
        SELECT 'top' AS section, ord::text, key, kind, id, parent_id, taxonomy, post_type, grp, score,
          NULL::bigint AS total, place
        FROM ranked WHERE place <= (${p(limits)}::int[])[grp + 1]
        UNION ALL
        SELECT 'pin', ord::text, NULL, NULL, NULL, NULL, NULL, NULL, NULL, score, NULL, NULL
        FROM found WHERE ord = ANY(${pinOrds}::bigint[])
        UNION ALL
        SELECT 'total', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
          -- Here the score column says whether anything matched (before filters): the short-typo fallback's test.
          (CASE WHEN EXISTS (SELECT 1 FROM matched) THEN 1 ELSE 0 END)::float8,
          (SELECT count(*) FROM visible WHERE grp = 0 AND parent_ord IS NULL)
          + (SELECT count(DISTINCT parent_ord) FROM visible
             WHERE grp = 0 AND parent_ord IS NOT NULL AND NOT parent_matched),
          NULL
        ORDER BY section, grp, place`,
        params,
      );
    };
    if (plan) {
      let rows = await query(plan);
      // Nothing as typed: three-letter words may then have one typo (as MemorySearchIndex#match).
      if (typos && plan.shortTypoWords && rows.find((row) => row.section === 'total')?.score === 0) {
        plan = await this.#plan(request.text, true);
        if (plan) rows = await query(plan);
      }
      for (const row of rows) {
        if (row.section === 'total') totalProducts = Number(row.total);
        else if (row.section === 'pin') pinScores.set(row.ord as string, row.score ?? 0);
        else {
          const list = top.get(row.grp as number) ?? [];
          list.push(toHit(row));
          top.set(row.grp as number, list);
        }
      }
    }
    for (const [index, group] of SEARCH_GROUPS.entries()) {
      const limit = limits[index] as number;
      if (limit === 0) continue;
      let list = top.get(index) ?? [];
      if (group === 'products' && pins.length > 0) {
        const shown = pins.filter((pin) => !(hide && !pin.inStock));
        totalProducts += shown.filter((pin) => !pinScores.has(pin.ord)).length;
        const pinned = shown.map((pin) => ({ ...pin.hit, score: pinScores.get(pin.ord) ?? 0 }));
        list = [...pinned, ...list].slice(0, limit);
      }
      hits[group] = list;
    }
    return { hits, totalProducts };
  }

  async searchProductIds(text: string, options: { typos?: boolean } = {}): Promise<number[]> {
    await this.ensureSchema();
    const hide = this.#rules.outOfStock === 'hide';
    const pins = await this.#pins(text);
    const typos = options.typos !== false;
    const plan = await this.#plan(text, false, typos);
    const shownPins = pins.filter((pin) => !(hide && !pin.inStock)).map((pin) => pin.hit.id);
    if (!plan) return shownPins;
    let rows = await this.#productIdRows(plan, text, pins, hide);
    // Nothing as typed: three-letter words may then have one typo (as MemorySearchIndex#match). No product rows
    // may still mean something matched (a pin, a category): one more statement tells, only on this path.
    if (typos && rows.length === 0 && plan.shortTypoWords) {
      const [found] = await this.#read<{ any: boolean }>(
        `${plan.sql} SELECT EXISTS (SELECT 1 FROM matched) AS any`,
        plan.params,
      );
      const fallback = found?.any ? null : await this.#plan(text, true);
      if (fallback) rows = await this.#productIdRows(fallback, text, pins, hide);
    }
    return [...shownPins, ...rows.map((row) => row.id)];
  }

  async #productIdRows(
    plan: MatchPlan,
    text: string,
    pins: { ord: string }[],
    hide: boolean,
  ): Promise<{ id: number }[]> {
    const params = [...plan.params];
    const p = (value: unknown) => `$${params.push(value)}`;
    const pinOrds = p(pins.map((pin) => pin.ord));
    const rank = this.#rankSql(p, text);
    return this.#read<{ id: number }>(
      `${plan.sql},
      products AS (
        SELECT CASE WHEN d.kind = 'variation' THEN parent.ord ELSE d.ord END AS product_ord, ${rank} AS rank
        FROM matched m
        JOIN ${this.#table('documents')} d ON d.ord = m.doc
        LEFT JOIN ${this.#table('documents')} parent ON d.kind = 'variation' AND parent.key = d.parent_key
        WHERE d.grp = 0 AND NOT (${p(hide)}::boolean AND NOT d.in_stock) AND d.ord <> ALL(${pinOrds}::bigint[])
      ),
      best AS (
        SELECT product_ord, max(rank) AS rank FROM products
        WHERE product_ord IS NOT NULL AND product_ord <> ALL(${pinOrds}::bigint[])
        GROUP BY product_ord
      )
      SELECT product.id FROM best JOIN ${this.#table('documents')} product ON product.ord = best.product_ord
      ORDER BY best.rank DESC, best.product_ord`,
      params,
    );
  }

  /** queryRank (ranking.ts) in SQL: (stock tier, score) above whole title, featured, in stock, sales. */
  #rankSql(p: (value: unknown) => string, text: string): string {
    const tier = p(this.#rules.outOfStock === 'last');
    const wholeTitle = `(CASE WHEN ${p(titleKey(text))}::text = ANY(d.title_keys) THEN ${WHOLE_TITLE} ELSE 0 END)`;
    return `(((CASE WHEN ${tier}::boolean AND d.in_stock THEN 1 ELSE 0 END) * ${SCORE_LIMIT}
      + least(floor(m.score * 100 + 0.5), ${SCORE_LIMIT - 1})::bigint) * ${RANK_BASE_LIMIT} + d.rank_base
      + ${wholeTitle})`;
  }

  /** The pinned products of a query that are in the index, in the owner's order. */
  async #pins(text: string): Promise<{ ord: string; inStock: boolean; hit: SearchHit }[]> {
    const query = normalizeQuery(text);
    // Own keys only: a query such as "constructor" must not read Object.prototype.
    const ids = Object.hasOwn(this.#rules.pins, query) ? (this.#rules.pins[query] ?? []) : [];
    if (ids.length === 0) return [];
    const keys = [...new Set(ids)].map((id) => suggestionObjectId({ type: 'product', postId: id }));
    const { rows } = await this.#pool.query<HitRow & { in_stock: boolean }>(
      `SELECT ord::text, key, kind, id, parent_id, taxonomy, post_type, in_stock, 0 AS score
       FROM ${this.#table('documents')} WHERE key = ANY($1::text[])`,
      [keys],
    );
    const byKey = new Map(rows.map((row) => [row.key as string, row]));
    return keys.flatMap((key) => {
      const row = byKey.get(key);
      return row ? [{ ord: row.ord as string, inStock: row.in_stock, hit: toHit(row) }] : [];
    });
  }

  /**
   * What each word of each reading of the query matches, as SQL: `matched(doc, score)` holds every document
   * matching all the words of some reading, with the embedded index's score. Null when nothing can match.
   */
  async #plan(text: string, shortTypos: boolean, withTypos = true): Promise<MatchPlan | null> {
    const readings = parseSearchQuery(text, this.#compiled.stopWords);
    if (readings.length === 0) return null;
    const shortTypoWords = readings.some((words) =>
      words.some((word) => word.text.length === SHORT_TYPO_LENGTH),
    );
    const singles = {
      r: [] as number[],
      w: [] as number[],
      term: [] as string[],
      factor: [] as number[],
      lead: [] as boolean[],
    };
    const singleFields: number[] = [];
    const ranges = {
      r: [] as number[],
      w: [] as number[],
      prefix: [] as string[],
      length: [] as number[],
      lead: [] as boolean[],
    };
    const rangeFields: number[] = [];
    const typoCache = new Map<string, Promise<{ postings: number; typos: Map<string, number> }>>();
    const words: { reading: number; position: number; word: QueryWord }[] = [];
    for (const [reading, list] of readings.entries()) {
      for (const [position, word] of list.entries()) words.push({ reading: reading + 1, position, word });
    }
    const typos = await Promise.all(
      words.map(({ word }) => {
        const cacheKey = `${word.prefix ? 1 : 0}${word.text}`;
        let pending = typoCache.get(cacheKey);
        if (!pending) {
          pending = this.#typos(word, shortTypos, withTypos);
          typoCache.set(cacheKey, pending);
        }
        return pending;
      }),
    );
    // Each reading is matched from its rarest word: the other words are looked up in those documents only.
    const leads = readings.map((_, reading) => {
      let best = -1;
      for (const [index, word] of words.entries()) {
        if (word.reading !== reading + 1) continue;
        if (best === -1 || (typos[index]?.postings ?? 0) < (typos[best]?.postings ?? 0)) best = index;
      }
      return best;
    });
    for (const [index, { reading, position, word }] of words.entries()) {
      const lead = leads[reading - 1] === index;
      const short = word.text.length <= SHORT_WORD;
      const factors = new Map<string, number>([[word.text, EXACT]]);
      for (const synonym of this.#compiled.synonyms.get(word.text) ?? []) {
        if (!factors.has(synonym)) factors.set(synonym, SYNONYM);
      }
      for (const [term, factor] of (typos[index] as { typos: Map<string, number> }).typos) {
        if (!factors.has(term)) factors.set(term, factor);
      }
      for (const [term, factor] of factors) {
        singles.r.push(reading);
        singles.w.push(position);
        singles.term.push(term);
        singles.factor.push(factor);
        singles.lead.push(lead);
        // Typos count outside the descriptions only, and so does a one- or two-letter word.
        singleFields.push(short || factor < PREFIX_BASE ? SHORT_FIELDS : 0xff);
      }
      if (word.prefix) {
        ranges.r.push(reading);
        ranges.w.push(position);
        ranges.prefix.push(word.text);
        ranges.length.push(word.text.length);
        ranges.lead.push(lead);
        rangeFields.push(short ? SHORT_FIELDS : 0xff);
      }
    }
    const params: unknown[] = [];
    const p = (value: unknown) => `$${params.push(value)}`;
    const weights = p([...this.#compiled.fieldWeights]);
    const postings = this.#table('postings');
    const range = (alias: string) =>
      `${alias}.term >= g.prefix COLLATE "C" AND ${alias}.term < (g.prefix || ${p(MAX_CHAR)}) COLLATE "C"`;
    const prefixScore = (alias: string) =>
      `(${PREFIX_BASE}::float8 + (${PREFIX_SPAN}::float8 * g.length) / least(length(${alias}.term), 255))
        * (${weights}::float8[])[(${alias}.mask & g.fields) + 1]`;
    const sql = `WITH singles AS (
        SELECT * FROM unnest(${p(singles.r)}::int[], ${p(singles.w)}::int[], ${p(singles.term)}::text[],
          ${p(singles.factor)}::float8[], ${p(singleFields)}::int[], ${p(singles.lead)}::boolean[])
          AS s(r, w, term, factor, fields, lead)
      ),
      ranges AS (
        SELECT * FROM unnest(${p(ranges.r)}::int[], ${p(ranges.w)}::int[], ${p(ranges.prefix)}::text[],
          ${p(ranges.length)}::int[], ${p(rangeFields)}::int[], ${p(ranges.lead)}::boolean[])
          AS g(r, w, prefix, length, fields, lead)
      ),
      lead_hits AS MATERIALIZED (
        SELECT s.r, s.w, x.doc, s.factor * (${weights}::float8[])[(x.mask & s.fields) + 1] AS score
        FROM singles s JOIN ${postings} x ON x.term = s.term COLLATE "C"
        WHERE s.lead AND x.mask & s.fields <> 0
        UNION ALL
        SELECT g.r, g.w, x.doc, ${prefixScore('x')}
        FROM ranges g JOIN ${postings} x ON ${range('x')}
        WHERE g.lead AND x.mask & g.fields <> 0
      ),
      candidates AS MATERIALIZED (SELECT DISTINCT r, doc FROM lead_hits),
      hits AS (
        SELECT * FROM lead_hits
        UNION ALL
        SELECT s.r, s.w, x.doc, s.factor * (${weights}::float8[])[(x.mask & s.fields) + 1]
        FROM singles s JOIN candidates c ON c.r = s.r
        JOIN ${postings} x ON x.doc = c.doc AND x.term = s.term COLLATE "C"
        WHERE NOT s.lead AND x.mask & s.fields <> 0
        UNION ALL
        SELECT g.r, g.w, x.doc, ${prefixScore('x')}
        FROM ranges g JOIN candidates c ON c.r = g.r
        JOIN ${postings} x ON x.doc = c.doc AND ${range('x')}
        WHERE NOT g.lead AND x.mask & g.fields <> 0
      ),
      per_word AS (SELECT r, w, doc, max(score) AS score FROM hits GROUP BY r, w, doc),
      per_reading AS (
        SELECT r, doc, sum(score) * (${p(readings.map((list, index) => (index === 0 ? 1 : 0.9) / list.length))}::float8[])[r] AS score
        FROM per_word GROUP BY r, doc
        HAVING count(*) = (${p(readings.map((list) => list.length))}::int[])[r]
      ),
      matched AS (SELECT doc, max(score) AS score FROM per_reading GROUP BY doc)`;
    return { params, sql, shortTypoWords };
  }

  /**
   * The typo neighbours of a word (4+ letters: one edit, 8+: two, 3 letters in the fallback) with their factors,
   * looked for only when the word as typed reaches fewer than TYPO_THRESHOLD postings, as in the embedded index.
   */
  async #typos(
    word: QueryWord,
    shortTypos: boolean,
    typos: boolean,
  ): Promise<{ postings: number; typos: Map<string, number> }> {
    const found = new Map<string, number>();
    const maxEdits = typos ? maxEditsOf(word.text.length, shortTypos) : 0;
    // A three-letter word's typos are whole terms (SHORT_TYPO_LENGTH), and few enough (first letter, 2–4
    // letters) to check without the trigram filter, which misses most of them ("cxp" and "cup" share one).
    const short = word.text.length <= SHORT_TYPO_LENGTH;
    const typoPrefix = word.prefix && !short;
    const exact = [word.text, ...(this.#compiled.synonyms.get(word.text) ?? [])];
    const first = word.text.charAt(0);
    const terms = this.#table('terms');
    // How many postings the word reaches as typed (for the typo rule and to intersect rarest first), and the
    // typo candidates when it reaches few.
    const { rows } = await this.#pool.query<{ n: string; term: string | null; docs: number | null }>(
      `WITH stats AS (
         SELECT coalesce(sum(c.docs), 0) AS n FROM ${terms} c
         WHERE c.term = ANY($8::text[])
            OR ($3::boolean AND c.term > $6 COLLATE "C" AND c.term < ($6 || $2) COLLATE "C")
       )
       SELECT stats.n::text AS n, t.term, t.docs FROM stats LEFT JOIN LATERAL (
         SELECT t.term, t.docs FROM ${terms} t
         WHERE $5::int > 0
           -- Few documents, or weak: in descriptions only (ranking.ts TYPO_THRESHOLD), as in memory.
           AND (CASE WHEN stats.n < $9 THEN true ELSE NOT EXISTS (
             SELECT 1 FROM ${this.#table('postings')} x
             WHERE (x.term = ANY($8::text[])
               OR ($3::boolean AND x.term > $6 COLLATE "C" AND x.term < ($6 || $2) COLLATE "C"))
               AND x.mask & $12 <> 0) END)
           AND t.term >= $1 COLLATE "C" AND t.term < ($1 || $2) COLLATE "C"
           AND ($10::boolean OR length(t.term) BETWEEN $4::int - $5::int AND $4::int + $5::int)
           AND ($11::boolean
             OR (CASE WHEN $10::boolean THEN word_similarity($6, t.term) ELSE similarity($6, t.term) END) >= $7)
       ) t ON true`,
      [
        first,
        MAX_CHAR,
        word.prefix,
        word.text.length,
        maxEdits,
        word.text,
        TRIGRAM_FLOOR,
        exact,
        TYPO_THRESHOLD,
        typoPrefix,
        short,
        SHORT_FIELDS,
      ],
    );
    let postings = Number(rows[0]?.n ?? 0);
    for (const { term, docs } of rows) {
      if (term === null) continue;
      const distance = typoDistance(word.text, term, typoPrefix);
      if (distance > 0 && distance <= maxEdits) {
        found.set(term, TYPO[distance] as number);
        postings += docs ?? 0;
      }
    }
    return { postings, typos: found };
  }

  /**
   * Did you mean (`SearchIndex.vocabulary`): one statement for all the words. Near terms, only for a word the
   * dictionary does not know, are narrowed as typos are (first letter, length, trigram similarity, none for
   * three letters) and decided by the same Damerau distance as the embedded index's dictionary walk.
   */
  async vocabulary(words: readonly VocabularyWord[]): Promise<WordVocabulary[]> {
    await this.ensureSchema();
    if (words.length === 0) return [];
    const exactWord: number[] = [];
    const exactTerm: string[] = [];
    for (const [index, word] of words.entries()) {
      for (const term of [word.text, ...(this.#compiled.synonyms.get(word.text) ?? [])]) {
        exactWord.push(index + 1);
        exactTerm.push(term);
      }
    }
    const terms = this.#table('terms');
    const rows = await this.#read<{ i: string; n: string; term: string | null; docs: number | null }>(
      `WITH w AS (
         SELECT * FROM unnest($1::text[], $2::boolean[], $3::int[], $4::boolean[]) WITH ORDINALITY
           AS w(text, prefix, max_edits, near_prefix, i)
       ),
       e AS (SELECT * FROM unnest($5::int[], $6::text[]) AS e(i, term)),
       stats AS (
         SELECT w.*,
           coalesce((SELECT sum(t.docs) FROM e JOIN ${terms} t ON t.term = e.term COLLATE "C" WHERE e.i = w.i), 0)
           + CASE WHEN w.prefix THEN coalesce((SELECT sum(t.docs) FROM ${terms} t
               WHERE t.term > w.text COLLATE "C" AND t.term < (w.text || $7) COLLATE "C"), 0) ELSE 0 END AS n
         FROM w
       )
       SELECT s.i::text AS i, s.n::text AS n, t.term, t.docs FROM stats s LEFT JOIN LATERAL (
         SELECT t.term, t.docs FROM ${terms} t
         WHERE s.max_edits > 0 AND s.n = 0
           AND t.term >= left(s.text, 1) COLLATE "C" AND t.term < (left(s.text, 1) || $7) COLLATE "C"
           AND (s.near_prefix OR length(t.term) BETWEEN length(s.text) - s.max_edits AND length(s.text) + s.max_edits)
           AND (length(s.text) <= $9
             OR (CASE WHEN s.near_prefix THEN word_similarity(s.text, t.term) ELSE similarity(s.text, t.term) END) >= $8)
           -- A one- or two-letter word joined to the next by the index ("an oak" → anoak) is no word to offer.
           AND NOT EXISTS (SELECT 1 FROM generate_series(1, 2) AS cut(n)
             WHERE length(t.term) >= cut.n + 3
               AND EXISTS (SELECT 1 FROM ${terms} a WHERE a.term = left(t.term, cut.n) COLLATE "C")
               AND EXISTS (SELECT 1 FROM ${terms} b WHERE b.term = substr(t.term, cut.n + 1) COLLATE "C"))
       ) t ON true
       ORDER BY s.i`,
      [
        words.map((word) => word.text),
        words.map((word) => word.prefix),
        words.map((word) => word.maxEdits),
        words.map((word) => word.nearByPrefix),
        exactWord,
        exactTerm,
        MAX_CHAR,
        TRIGRAM_FLOOR,
        SHORT_TYPO_LENGTH,
      ],
    );
    const answers: WordVocabulary[] = words.map((word) => ({
      documents: 0,
      stopWord: this.#compiled.stopWords.has(word.text),
      near: [],
    }));
    for (const row of rows) {
      const index = Number(row.i) - 1;
      const word = words[index] as VocabularyWord;
      const answer = answers[index] as WordVocabulary;
      answer.documents = Number(row.n);
      if (row.term === null) continue;
      const distance = typoDistance(word.text, row.term, word.nearByPrefix);
      if (distance > 0 && distance <= word.maxEdits) {
        answer.near.push({ term: row.term, distance, documents: row.docs ?? 0 });
      }
    }
    return answers;
  }
}

/** A hit row (or a pin) as the interface's SearchHit. */
function toHit(row: Pick<HitRow, 'key' | 'kind' | 'id' | 'parent_id' | 'taxonomy' | 'post_type' | 'score'>) {
  return {
    key: row.key as string,
    kind: row.kind as SearchHit['kind'],
    id: row.id as number,
    parentId: row.parent_id,
    taxonomy: row.taxonomy,
    postType: row.post_type,
    score: row.score ?? 0,
  } satisfies SearchHit;
}

function toRow(document: SearchDocument): DocumentRow {
  const group = groupOf(document);
  // Analyzed only when written: a process bringing the shared index up to date after its start compares every
  // document by hash, and most are unchanged (another process wrote them already).
  let terms: Map<string, number> | undefined;
  return {
    ord: 0,
    key: document.key,
    kind: document.kind,
    id: document.id,
    parentId: document.parentId,
    parentKey:
      document.kind === 'variation' && document.parentId !== null
        ? suggestionObjectId({ type: 'product', postId: document.parentId })
        : null,
    taxonomy: document.taxonomy,
    postType: document.postType,
    grp: group === GROUP_NONE ? null : group,
    inStock: document.inStock,
    rankBase: rankBase(document),
    titleKeys: titleKeysOf(document),
    hash: createHash('sha1').update(INDEX_FORMAT).update(JSON.stringify(document)).digest('hex'),
    get terms() {
      terms ??= termsOf(document);
      return terms;
    },
  };
}

/** A PostgresSearchIndex over the shop's pool, its tables created: what createSearch takes on PostgreSQL. */
export async function createPostgresSearchIndex(
  pool: pg.Pool,
  options: PostgresSearchIndexOptions = {},
): Promise<PostgresSearchIndex> {
  const index = new PostgresSearchIndex(pool, options);
  await index.ensureSchema();
  return index;
}
