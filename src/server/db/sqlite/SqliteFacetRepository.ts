import type Database from 'better-sqlite3';
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

export class SqliteFacetRepository implements FacetRepository {
  #db: Database.Database;
  constructor(db: Database.Database) {
    this.#db = db;
  }

  async loadFacetProducts(ids?: readonly number[]) {
    const sql = facetProductSql(ids !== undefined, 'sqlite');
    const params = ids !== undefined ? { ids: idsParam(ids, 'sqlite') } : {};
    const links = (statement: string) => this.#db.prepare(statement).all(params) as FacetLink[];
    // One read transaction: the reads see the same committed catalog.
    const read = this.#db.transaction(() => ({
      rows: this.#db.prepare(sql.products).all(params) as FacetProductRow[],
      categories: links(sql.categories),
      attributeTerms: links(sql.attributeTerms),
      tags: links(sql.tags),
    }));
    const products = toFacetProducts(read());
    return { products, removedIds: removedIds(ids, products) };
  }

  async loadFacetProductPage(after: number, limit: number) {
    const sql = FACET_PRODUCT_PAGE_SQL;
    const read = this.#db.transaction(() => {
      const rows = this.#db.prepare(sql.products).all({ after, limit }) as FacetProductRow[];
      const last = rows.at(-1)?.id ?? after;
      const links = (statement: string) => this.#db.prepare(statement).all({ after, last }) as FacetLink[];
      return {
        rows,
        categories: links(sql.categories),
        attributeTerms: links(sql.attributeTerms),
        tags: links(sql.tags),
      };
    });
    return toFacetProducts(read());
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
