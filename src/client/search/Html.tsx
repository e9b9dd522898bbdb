import type { ElementType } from 'react';

/**
 * Markup that arrives in suggestion and details data (thumbnails, prices, the third-party slots). The server
 * sanitizes it before it leaves; this is the one place the box renders it.
 */
export function Html({
  html,
  as: Tag = 'span',
  className,
}: {
  html: string | undefined;
  as?: ElementType;
  className?: string;
}) {
  if (!html) return null;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: server-sanitized markup from the search endpoints
  return <Tag className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
