import type { FacetRepository } from '../ports';
import {
  FACET_PRODUCT_PAGE_SQL,
  FACET_VOCABULARY_SQL,
  type FacetProductRow,
  facetProductSql,
  idsParam,
  removedIds,
  toFacetProducts,
  toFacetVocabulary,
} from '../sql/facetSql';
import { queryNamed } from './namedQuery';
import type { PgPool } from './openPostgres';

export class PgFacetRepository implements FacetRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async loadFacetProducts(ids?: readonly number[]) {
    const sql = facetProductSql(ids !== undefined, 'postgres');
    const params = ids !== undefined ? { ids: idsParam(ids, 'postgres') } : {};
    // One snapshot for the three reads, so they see the same committed catalog.
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const rows = await queryNamed<FacetProductRow>(client, sql.products, params);
      const categories = await queryNamed<{ product_id: number; term_id: number }>(
        client,
        sql.categories,
        params,
      );
      const attributeTerms = await queryNamed<{ product_id: number; term_id: number }>(
        client,
        sql.attributeTerms,
        params,
      );
      await client.query('COMMIT');
      const products = toFacetProducts(rows, categories, attributeTerms);
      return { products, removedIds: removedIds(ids, products) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async loadFacetProductPage(after: number, limit: number) {
    const sql = FACET_PRODUCT_PAGE_SQL;
    // One snapshot for the page's three reads, as loadFacetProducts.
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const rows = await queryNamed<FacetProductRow>(client, sql.products, { after, limit });
      const last = Number(rows.at(-1)?.id ?? after);
      const links = (statement: string) =>
        queryNamed<{ product_id: number; term_id: number }>(client, statement, { after, last });
      const categories = await links(sql.categories);
      const attributeTerms = await links(sql.attributeTerms);
      await client.query('COMMIT');
      return toFacetProducts(rows, categories, attributeTerms);
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
