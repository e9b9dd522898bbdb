import type Database from 'better-sqlite3';
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

export class SqliteFacetRepository implements FacetRepository {
  #db: Database.Database;
  constructor(db: Database.Database) {
    this.#db = db;
  }

  async loadFacetProducts(ids?: readonly number[]) {
    const sql = facetProductSql(ids !== undefined, 'sqlite');
    const params = ids !== undefined ? { ids: idsParam(ids, 'sqlite') } : {};
    // One read transaction: the three reads see the same committed catalog.
    const read = this.#db.transaction(() => ({
      rows: this.#db.prepare(sql.products).all(params) as FacetProductRow[],
      categories: this.#db.prepare(sql.categories).all(params) as { product_id: number; term_id: number }[],
      attributeTerms: this.#db.prepare(sql.attributeTerms).all(params) as {
        product_id: number;
        term_id: number;
      }[],
    }));
    const { rows, categories, attributeTerms } = read();
    const products = toFacetProducts(rows, categories, attributeTerms);
    return { products, removedIds: removedIds(ids, products) };
  }

  async loadFacetProductPage(after: number, limit: number) {
    const sql = FACET_PRODUCT_PAGE_SQL;
    const read = this.#db.transaction(() => {
      const rows = this.#db.prepare(sql.products).all({ after, limit }) as FacetProductRow[];
      const last = rows.at(-1)?.id ?? after;
      const links = (statement: string) =>
        this.#db.prepare(statement).all({ after, last }) as { product_id: number; term_id: number }[];
      return { rows, categories: links(sql.categories), attributeTerms: links(sql.attributeTerms) };
    });
    const { rows, categories, attributeTerms } = read();
    return toFacetProducts(rows, categories, attributeTerms);
  }

  async loadFacetVocabulary() {
    const all = <R>(sql: string) => this.#db.prepare(sql).all() as R[];
    return toFacetVocabulary(
      all(FACET_VOCABULARY_SQL.categories),
      all(FACET_VOCABULARY_SQL.attributes),
      all(FACET_VOCABULARY_SQL.attributeTerms),
    );
  }
}
