/** Where `guardUndecodableUrl` sends a request: one route answers it as a bad request in the usual formats. */
export const UNDECODABLE_URL_PATH = '/__undecodable-url/';

/**
 * The router cannot match a path whose percent-encoding does not decode (`/%`, `/product/%E0%A4%A/`) and would
 * answer with Fastify's own JSON. Rewriting such a URL to one route lets the shop's error handler answer it
 * like any other bad request: a page for pages, `{code, message}` for the ajax endpoints.
 */
export function guardUndecodableUrl(url: string): string {
  const path = url.split('?', 1)[0] ?? '';
  if (!path.includes('%')) return url;
  try {
    decodeURIComponent(path);
    return url;
  } catch {
    return UNDECODABLE_URL_PATH;
  }
}
