/**
 * Keeps crawlers out of pages that are per visitor or private (cart, checkout, account, the owner's pages) and out
 * of search results, whose query strings are endless; points them at the sitemap instead.
 */
const DISALLOWED = [
  '/cart/',
  '/checkout/',
  '/my-account/',
  '/admin/',
  '/wp-admin/',
  '/insights/',
  '/*?s=',
  '/*&s=',
  '/*?wc-ajax=',
  '/*add-to-cart=',
];

export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    ...DISALLOWED.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}
