/**
 * Whether a state-changing request comes from our own pages. WooCommerce leaves add-to-cart open to anonymous
 * visitors, so there is no nonce to check there; browsers send Origin (or at least Sec-Fetch-Site) on every
 * cross-site POST, which is what a forged request would be. A client that sends neither is not a browser being
 * tricked, so it is let through.
 */
export function isSameOrigin(headers: Record<string, string | string[] | undefined>, host: string): boolean {
  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite === 'cross-site') return false;
  const origin = headers.origin ?? headers.referer;
  if (typeof origin !== 'string' || origin === '' || origin === 'null') return fetchSite !== 'cross-site';
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
