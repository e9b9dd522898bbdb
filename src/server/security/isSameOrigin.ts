/**
 * Whether a state-changing request comes from our own pages. WooCommerce leaves add-to-cart open to anonymous
 * visitors, so there is no nonce to check there; browsers send Origin (or at least Sec-Fetch-Site) on every
 * cross-site POST, which is what a forged request would be. An opaque `Origin: null` (sandboxed frames, some
 * redirects) counts as foreign unless the Referer shows our host. A client that sends none of these is not a
 * browser being tricked, so it is let through.
 */
export function isSameOrigin(headers: Record<string, string | string[] | undefined>, host: string): boolean {
  if (headers['sec-fetch-site'] === 'cross-site') return false;
  const origin = typeof headers.origin === 'string' ? headers.origin.trim() : '';
  const referer = typeof headers.referer === 'string' ? headers.referer.trim() : '';
  const source = origin !== '' && origin !== 'null' ? origin : referer;
  if (source === '') return origin !== 'null';
  try {
    return new URL(source).host === host;
  } catch {
    return false;
  }
}
