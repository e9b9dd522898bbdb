import type { MediaAttachment, MediaSize } from './ports';

/* A media row read back as an attachment, the same way on both engines. */

export interface MediaRow {
  id: number;
  slug: string;
  title: string;
  alt_text: string;
  mime_type: string;
  file: string;
  filesize: number;
  width: number;
  height: number;
  sizes: string;
  subsizes_done: number;
  created_at: string;
}

export function toAttachment(row: MediaRow): MediaAttachment {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    altText: row.alt_text,
    mimeType: row.mime_type,
    file: row.file,
    filesize: row.filesize,
    width: row.width,
    height: row.height,
    sizes: JSON.parse(row.sizes) as Record<string, MediaSize>,
    subsizesDone: row.subsizes_done === 1,
    createdAt: row.created_at,
  };
}
