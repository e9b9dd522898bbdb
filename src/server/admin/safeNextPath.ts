/** Where the back office goes after logging in when no (usable) `next` is given. */
export const DEFAULT_ADMIN_PATH = '/admin/orders/';

/**
 * The `next` of a login, kept only when it is a path on this shop: anything that could leave it (another origin,
 * `//host`, `/\host`, a scheme, control characters browsers strip) falls back to the back office, so the login
 * page can never be used to send the owner elsewhere.
 */
export function safeNextPath(next: string | undefined): string {
  if (!next || next.length > 2000 || !next.startsWith('/') || next.startsWith('//'))
    return DEFAULT_ADMIN_PATH;
  // Browsers treat `\` as `/` and drop tabs and newlines, so `/\evil.example` and `/\t/evil.example` leave the site.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses.
  if (/[\\\u0000-\u001f\u007f]/.test(next)) return DEFAULT_ADMIN_PATH;
  const base = 'http://shop.invalid';
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return DEFAULT_ADMIN_PATH;
  }
  if (url.origin !== base) return DEFAULT_ADMIN_PATH;
  return `${url.pathname}${url.search}${url.hash}`;
}
