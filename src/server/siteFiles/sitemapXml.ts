export interface SitemapUrl {
  /** The page's path, already percent-encoded (as the shop's URL builders return it). */
  path: string;
  /** ISO date-time of the page's last change, when known. */
  lastModified?: string;
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char);

/** An XML sitemap (sitemaps.org protocol 0.9) of absolute addresses on this origin. */
export function sitemapXml(origin: string, urls: readonly SitemapUrl[]): string {
  const entries = urls.map(({ path, lastModified }) => {
    const date = lastModified ? toW3cDate(lastModified) : '';
    const lastmod = date ? `<lastmod>${date}</lastmod>` : '';
    return `<url><loc>${escapeXml(origin + path)}</loc>${lastmod}</url>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}

/** The protocol wants W3C datetime; a stored date that does not parse is left out rather than sent malformed. */
function toW3cDate(value: string): string {
  const time = Date.parse(value);
  return Number.isNaN(time) ? '' : new Date(time).toISOString();
}
