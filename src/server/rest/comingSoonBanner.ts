import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Repositories } from '../db/ports';
import type { VisitorSession } from '../session/VisitorSession';
import { parseRestInput } from './parseRestInput';
import { restRoute } from './restRoute';

/** WooCommerce's user meta key for the dismissed coming-soon banner (CONTRACT.md "Payloads"). */
export const COMING_SOON_DISMISSED_META = 'woocommerce_coming_soon_banner_dismissed';

const meBody = z.object({
  meta: z.strictObject({ [COMING_SOON_DISMISSED_META]: z.enum(['yes', 'no']) }),
});

/** Whether this visitor dismissed the coming-soon banner; the page renderer asks so the banner stays hidden. */
export async function isComingSoonBannerDismissed(
  request: { visitor: VisitorSession },
  repositories: Pick<Repositories, 'visitorMeta'>,
): Promise<boolean> {
  const session = await request.visitor.load();
  if (!session) return false;
  return (await repositories.visitorMeta.get(session.id, COMING_SOON_DISMISSED_META)) === 'yes';
}

/**
 * `wp/v2/users/me` for anonymous visitors: only the coming-soon meta, kept with the visitor's session (created
 * here if the visitor has none yet, as adding to the cart would).
 */
export function registerComingSoonRoute(app: FastifyInstance, repositories: Repositories) {
  async function me(request: FastifyRequest) {
    return {
      id: 0,
      name: '',
      meta: {
        [COMING_SOON_DISMISSED_META]: (await isComingSoonBannerDismissed(request, repositories)) ? 'yes' : '',
      },
    };
  }
  async function update(request: FastifyRequest) {
    const { meta } = parseRestInput(meBody, request.body ?? {});
    const visitor = request.visitor;
    // Touching the cart is how a session comes to exist; its contents stay as they are.
    if (!(await visitor.load())) await visitor.saveCart(await visitor.cart());
    await repositories.visitorMeta.set(
      visitor.id as string,
      COMING_SOON_DISMISSED_META,
      meta[COMING_SOON_DISMISSED_META],
    );
    return me(request);
  }
  restRoute(app, '/wp-json/wp/v2/users/me', { GET: me, POST: update, PUT: update, PATCH: update });
}
