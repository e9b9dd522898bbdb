import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type PreloadedResponses, REST_PRELOAD_SCRIPT_ID } from '../../shared/rest/preloadedResponses';
import { serializeJsonForScript } from '../render/renderPage';

const KEPT_HEADERS = ['x-wp-total', 'x-wp-totalpages', 'link'];

/**
 * Answers REST GET paths in-process, as the visitor (their cookies and host), for a page to render with
 * `RestPreloadScript`: WordPress's `rest_preload_api_request`. A path that does not answer 200 is left out, so
 * the client asks the server for it as usual.
 */
export async function preloadRestResponses(
  app: FastifyInstance,
  request: FastifyRequest,
  paths: readonly string[],
): Promise<PreloadedResponses> {
  const entries = await Promise.all(
    paths.map(async (path) => {
      const response = await app.inject({
        method: 'GET',
        url: `/wp-json${path.startsWith('/') ? path : `/${path}`}`,
        headers: { host: request.headers.host ?? 'localhost', cookie: request.headers.cookie ?? '' },
      });
      if (response.statusCode !== 200) return null;
      const headers = Object.fromEntries(
        KEPT_HEADERS.flatMap((name) => {
          const value = response.headers[name];
          return value === undefined ? [] : [[name, String(value)]];
        }),
      );
      return [path, { body: response.json(), headers }] as const;
    }),
  );
  return Object.fromEntries(entries.filter((entry) => entry !== null));
}

/** The preloaded answers as the page's `#shop-rest-preload` JSON script, read by `readPreloadedResponses`. */
export function RestPreloadScript({ responses }: { responses: PreloadedResponses }) {
  return (
    <script
      id={REST_PRELOAD_SCRIPT_ID}
      type="application/json"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: serialized JSON with `<` escaped
      dangerouslySetInnerHTML={{ __html: serializeJsonForScript(responses) }}
    />
  );
}
