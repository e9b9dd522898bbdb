import type { FastifyRequest } from 'fastify';
import type { WriteRetryQueue } from '../db/durableWrites/createWriteRetryQueue';
import type { Repositories, SearchCartAdd } from '../db/ports';
import type { SearchService } from '../search/SearchService';
import { createDaySalts } from '../stats/daySalts';
import { visitorHashOf } from '../stats/visitorHash';

/** Searches older than this before an add-to-cart do not count as leading to it. */
const SEARCH_LOOKBACK_MS = 24 * 60 * 60 * 1000;

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
      );
      const sessionHash = search.sessionHash(sessionId);
      const adds: SearchCartAdd[] = [];
      for (const each of searches) {
        const found = new Set(await search.productIds(each.query));
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
