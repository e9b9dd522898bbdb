import type { SqliteDatabase } from '../openDatabase';
import type { MerchandisingRepository } from '../ports';
import type { SqlRead } from '../sql/adminProductSql';
import {
  alsoBoughtIds,
  linkedProductIds,
  productPageListIds,
  relatedProductIds,
} from '../sql/merchandisingSql';

export class SqliteMerchandisingRepository implements MerchandisingRepository {
  #read: SqlRead;

  constructor(db: SqliteDatabase) {
    this.#read = async <T>(sql: string, params: Record<string, unknown> = {}) =>
      db.prepare(sql).all(params) as T[];
  }

  relatedProductIds(productId: number, limit: number, exclude: readonly number[] = []) {
    return relatedProductIds(this.#read, productId, limit, exclude);
  }

  alsoBoughtIds(productId: number, limit: number) {
    return alsoBoughtIds(this.#read, productId, limit);
  }

  productPageListIds(
    productId: number,
    limit: number,
    alsoBoughtMinimum: number,
    options?: { related?: boolean },
  ) {
    return productPageListIds(this.#read, productId, limit, alsoBoughtMinimum, options);
  }

  linkedProductIds(productIds: readonly number[], kind: 'upsell' | 'cross_sell', limit: number) {
    return linkedProductIds(this.#read, productIds, kind, limit);
  }
}
