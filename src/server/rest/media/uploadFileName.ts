import { cleanForSlug } from '../../../shared/validation/cleanForSlug';

/**
 * The stored base name of an upload: the client's name without any directory part (either slash, so
 * `../../etc/passwd` or `C:\\x\\y.jpg` cannot climb out of the uploads folder), without its extension, through
 * `cleanForSlug` (docs/contract.md "Library checks"); the extension is the sniffed type's, never the client's.
 */
export function uploadBaseName(clientName: string | undefined): string {
  const last = (clientName ?? '').split(/[\\/]/).pop() ?? '';
  const withoutExtension = last.includes('.') ? last.slice(0, last.lastIndexOf('.')) : last;
  return cleanForSlug(withoutExtension).slice(0, 100) || 'image';
}

/** The title WordPress gives an attachment: the file name without its extension, as the visitor wrote it. */
export function uploadTitle(clientName: string | undefined): string {
  const last = (clientName ?? '').split(/[\\/]/).pop() ?? '';
  const title = (last.includes('.') ? last.slice(0, last.lastIndexOf('.')) : last).trim();
  return title.slice(0, 200) || 'image';
}

/**
 * The file name from a `Content-Disposition` header (`attachment; filename="x.jpg"` or RFC 5987's
 * `filename*=UTF-8''x.jpg`), as WordPress reads raw-body uploads.
 */
export function fileNameFromContentDisposition(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      return undefined;
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/.exec(header);
  const value = plain?.[1] ?? plain?.[2];
  return value?.replace(/\\(.)/g, '$1').trim();
}
