import type { MerchandisingRepository } from '../ports';
import type { SqlRead } from '../sql/adminProductSql';
import {
  alsoBoughtIds,
  linkedProductIds,
  productPageListIds,
  relatedProductIds,
} from '../sql/merchandisingSql';
import { queryNamed } from './namedQuery';
import type { PgPool } from './openPostgres';

export class PgMerchandisingRepository implements MerchandisingRepository {
  #read: SqlRead;

  constructor(pool: PgPool) {
    // Every product page runs these lists: prepared statements. Their texts vary only with how many ids a list
    // leaves out or starts from (a few products, a cart's lines), a bounded set.
    this.#read = <T>(sql: string, params: Record<string, unknown> = {}) =>
      queryNamed(pool, sql, params, { prepare: true }) as Promise<T[]>;
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
