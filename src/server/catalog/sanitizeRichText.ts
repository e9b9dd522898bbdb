import sanitizeHtml from 'sanitize-html';

/**
 * Product descriptions and post content arrive as HTML from imports. They are cleaned once, on write, to the
 * tags a shop description needs, so a page can render them as they are.
 */
export function sanitizeRichText(html: string): string {
  // Most variations have no description: nothing to parse (an import cleans two texts per row).
  if (html === '') return '';
  return sanitizeHtml(html, {
    allowedTags: [
      'p',
      'br',
      'strong',
      'b',
      'em',
      'i',
      'u',
      's',
      'ul',
      'ol',
      'li',
      'a',
      'h2',
      'h3',
      'h4',
      'blockquote',
      'code',
      'pre',
      'span',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
      'hr',
    ],
    allowedAttributes: { a: ['href', 'title', 'rel'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener' }) },
  });
}

/** Plain text of a description, for meta tags and short listings. */
export function toPlainText(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/\s+/g, ' ').trim();
}
