import type { SqliteDatabase } from '../openDatabase';
import type { MerchandisingRepository } from '../ports';
import type { SqlRead } from '../sql/adminProductSql';
import {
  alsoBoughtIds,
  linkedProductIds,
  productPageListIdsInSteps,
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

  // Three statements in a row, not productPageListIds' one: in process they cost less (productPageListIdsInSteps).
  productPageListIds(productId: number, limit: number, alsoBoughtMinimum: number) {
    return productPageListIdsInSteps(this.#read, productId, limit, alsoBoughtMinimum);
  }

  linkedProductIds(productIds: readonly number[], kind: 'upsell' | 'cross_sell', limit: number) {
    return linkedProductIds(this.#read, productIds, kind, limit);
  }
}
