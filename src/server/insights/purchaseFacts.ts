import type { FastifyRequest } from 'fastify';
import type { WriteRetryQueue } from '../db/durableWrites/createWriteRetryQueue';
import type { Repositories, SearchCartAdd } from '../db/ports';
import type { SearchService } from '../search/SearchService';
import { createDaySalts } from '../stats/daySalts';
import { visitorHashOf } from '../stats/visitorHash';

/** Searches older than this before an add-to-cart do not count as leading to it. */
const SEARCH_LOOKBACK_MS = 24 * 60 * 60 * 1000;
/**
 * The latest searches of the session an add-to-cart is matched against. A person's last day holds far fewer; without
 * a bound, a flood of searches from one address, browser and day (a crawler, which then adds to its cart) made each
 * of its add-to-carts search again thousands of times and write thousands of rows.
 */
export const SEARCHES_PER_CART_ADD = 50;

export interface PurchaseFacts {
  /** Products were added to the cart: each one an earlier search of the session found is recorded with it. */
  cartAdded(request: FastifyRequest, productIds: readonly number[]): Promise<void>;
  /** An order was placed: its visit (if the statistics recorded one) and its session's search cart adds. */
  orderPlaced(
    request: FastifyRequest,
    order: { id: number; createdAt: string; sessionId: string },
  ): Promise<void>;
}

/**
 * The facts the owner's figures join a purchase by, recorded as they happen (nothing here is private: keyed or
 * salted hashes, product and order ids, times). A failure here never fails the shopper's add or order: the plugins
 * log it and go on.
 */
export function createPurchaseFacts({
  repositories,
  search,
  durableWrites,
  now = Date.now,
}: {
  repositories: Repositories;
  /** The writes go through it: a busy database (an import) is waited out there, not by the shopper's request. */
  durableWrites: Pick<WriteRetryQueue, 'submit'>;
  search: Pick<SearchService, 'productIds' | 'sessionHash' | 'visitorSessionHashes'>;
  now?: () => number;
}): PurchaseFacts {
  const daySalt = createDaySalts(repositories.stats);
  return {
    async cartAdded(request, productIds) {
      const sessionId = request.visitor.id;
      if (!sessionId || productIds.length === 0) return;
      const at = now();
      const visitor = { sessionId, ip: request.ip, userAgent: request.headers['user-agent'] ?? '' };
      const searches = await repositories.insights.sessionSearches(
        search.visitorSessionHashes(visitor, at),
        at - SEARCH_LOOKBACK_MS,
        at,
        SEARCHES_PER_CART_ADD,
      );
      const sessionHash = search.sessionHash(sessionId);
      const adds: SearchCartAdd[] = [];
      // Each query is searched once, however often the session made it.
      const foundBy = new Map<string, Promise<Set<number>>>();
      for (const each of searches) {
        if (!foundBy.has(each.query))
          foundBy.set(
            each.query,
            search.productIds(each.query).then((ids) => new Set(ids)),
          );
        const found = (await foundBy.get(each.query)) as Set<number>;
        for (const productId of productIds)
          if (found.has(productId)) adds.push({ queryId: each.id, sessionHash, productId, createdAt: at });
      }
      if (adds.length > 0)
        await durableWrites.submit('searchCartAdds', () => repositories.insights.recordCartAdds(adds));
    },
    async orderPlaced(request, order) {
      const day = order.createdAt.slice(0, 10);
      const link = {
        orderId: order.id,
        day,
        visitorHash: visitorHashOf(await daySalt(day), request),
        sessionHash: search.sessionHash(order.sessionId),
      };
      await durableWrites.submit('orderLinks', () => repositories.insights.linkOrder(link));
    },
  };
}
