import type { FastifyRequest } from 'fastify';

/**
 * Query parameters that only carry a campaign's or an ad click's identity: the page is the same with or without
 * them (attribution reads them in the browser), so they do not split the cache. A unique click id per visitor
 * would otherwise make every campaign visit a miss.
 */
const TRACKING_PARAM =
  /^(utm_[a-z_]+|gclid|gbraid|wbraid|fbclid|msclkid|dclid|yclid|twclid|ttclid|mc_cid|mc_eid|_ga|_gl)$/;

/**
 * The cache key of an anonymous page: the origin it was asked at (a page names its own origin in structured data
 * and storage keys), the path, and every other query parameter, sorted, since any of them may change the page.
 */
export function pageCacheKey(
  request: Pick<FastifyRequest, 'protocol' | 'host' | 'url'>,
  variant: string,
): string {
  const url = new URL(request.url, 'http://key.invalid');
  const params = [...url.searchParams].filter(([name]) => !TRACKING_PARAM.test(name));
  params.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const query = new URLSearchParams(params).toString();
  return `${request.protocol}://${request.host}${url.pathname}${query ? `?${query}` : ''}${variant ? `#${variant}` : ''}`;
}

/** The encoding to send: brotli, else gzip, else none, as the client's Accept-Encoding allows (`;q=0` refuses). */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return null;
}

/** Whether If-None-Match names this entity (weak comparison, as GET allows; `*` matches any). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}
