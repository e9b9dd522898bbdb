import { createHmac, timingSafeEqual } from 'node:crypto';
import type { HitParams } from '../../shared/stats/statsPayload';

/*
 * The server-supplied hit parameters are signed (docs/contract.md "Tracker hit"): a hit names the page it was rendered
 * for, and only the server could have written that name. HMAC-SHA256 with the app secret, so any process verifies.
 */

interface PageIdentity {
  sourceType: string;
  sourceId: number;
  searchQuery: string;
}

function sign(secret: string, page: PageIdentity): string {
  return createHmac('sha256', secret)
    .update(JSON.stringify(['stats-hit', page.sourceType, page.sourceId, page.searchQuery]))
    .digest('hex');
}

export function signHitParams(secret: string, page: PageIdentity): HitParams {
  return {
    source_type: page.sourceType,
    source_id: String(page.sourceId),
    search_query: page.searchQuery,
    signature: sign(secret, page),
  };
}

export function verifyHitSignature(secret: string, page: PageIdentity, signature: string): boolean {
  const expected = Buffer.from(sign(secret, page), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** What kind of page a URL is, as the hit names it (WP Statistics' source types). */
export function pageIdentityOf(url: string, status: number): PageIdentity {
  const parsed = new URL(url, 'http://shop.invalid');
  const path = parsed.pathname;
  const search = parsed.searchParams.get('s');
  const sourceType =
    status === 404
      ? '404'
      : search !== null
        ? 'search'
        : path === '/'
          ? 'home'
          : path.startsWith('/product/')
            ? 'product'
            : path.startsWith('/product-category/')
              ? 'product_cat'
              : path.startsWith('/product-tag/')
                ? 'product_tag'
                : path.startsWith('/shop/') || path.startsWith('/brand/') || path.startsWith('/vendor/')
                  ? 'archive'
                  : 'page';
  return { sourceType, sourceId: 0, searchQuery: (search ?? '').slice(0, 200) };
}
