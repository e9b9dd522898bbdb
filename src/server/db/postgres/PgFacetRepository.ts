import type { FacetRepository } from '../ports';
import {
  FACET_PRODUCT_PAGE_SQL,
  FACET_VOCABULARY_SQL,
  type FacetLink,
  type FacetProductRow,
  facetProductSql,
  idsParam,
  removedIds,
  toFacetProducts,
  toFacetVocabulary,
} from '../sql/facetSql';
import { queryNamed } from './namedQuery';
import type { PgClient, PgPool } from './openPostgres';

export class PgFacetRepository implements FacetRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async loadFacetProducts(ids?: readonly number[]) {
    const sql = facetProductSql(ids !== undefined, 'postgres');
    const params = ids !== undefined ? { ids: idsParam(ids, 'postgres') } : {};
    const products = toFacetProducts(
      await this.#inSnapshot(async (client) => {
        const links = (statement: string) => queryNamed<FacetLink>(client, statement, params);
        return {
          rows: await queryNamed<FacetProductRow>(client, sql.products, params),
          categories: await links(sql.categories),
          attributeTerms: await links(sql.attributeTerms),
          tags: await links(sql.tags),
        };
      }),
    );
    return { products, removedIds: removedIds(ids, products) };
  }

  async loadFacetProductPage(after: number, limit: number) {
    const sql = FACET_PRODUCT_PAGE_SQL;
    return toFacetProducts(
      await this.#inSnapshot(async (client) => {
        const rows = await queryNamed<FacetProductRow>(client, sql.products, { after, limit });
        const last = Number(rows.at(-1)?.id ?? after);
        const links = (statement: string) => queryNamed<FacetLink>(client, statement, { after, last });
        return {
          rows,
          categories: await links(sql.categories),
          attributeTerms: await links(sql.attributeTerms),
          tags: await links(sql.tags),
        };
      }),
    );
  }

  /** Runs the reads in one snapshot, so they see the same committed catalog. */
  async #inSnapshot<T>(reads: (client: PgClient) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const result = await reads(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async loadFacetVocabulary() {
    const [categories, attributes, terms] = await Promise.all([
      queryNamed<{ id: number; slug: string; name: string; parent_id: number | null }>(
        this.#pool,
        FACET_VOCABULARY_SQL.categories,
        {},
      ),
      queryNamed<{ id: number; slug: string; name: string }>(this.#pool, FACET_VOCABULARY_SQL.attributes, {}),
      queryNamed<{ id: number; attribute_id: number; slug: string; name: string }>(
        this.#pool,
        FACET_VOCABULARY_SQL.attributeTerms,
        {},
      ),
    ]);
    return toFacetVocabulary(categories, attributes, terms);
  }
}
