import type { FastifyInstance } from 'fastify';
import { signHitParams } from '../src/server/stats/hitSignature';
import { encodeBase64Text } from '../src/shared/stats/base64Text';
import { TEST_SECRET } from './createTestApp';

export const DESKTOP_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

const params = signHitParams(TEST_SECRET, { sourceType: 'product', sourceId: 0, searchQuery: '' });

/** A statistics hit or online ping for `/shop/` as the tracker sends it, from `ip` with `userAgent`. */
export function sendStatsRequest(
  app: FastifyInstance,
  path: 'hit' | 'online',
  { ip, userAgent = DESKTOP_USER_AGENT }: { ip: string; userAgent?: string },
) {
  return app.inject({
    method: 'POST',
    url: `/wp-json/stats/v1/${path}`,
    remoteAddress: ip,
    headers: {
      host: 'shop.test',
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': userAgent,
      'x-wps-ts': encodeBase64Text(String(Math.floor(Date.now() / 1000))),
    },
    payload: new URLSearchParams({
      ...params,
      referred: '',
      page_uri: encodeBase64Text('/shop/'),
    }).toString(),
  });
}
