/* Where a stored catalog image's files are, and how a page names them: one place for the widths and the path. */

/** Widths an imported image is stored at (never enlarged: a smaller original keeps its own width in each). */
export const STORED_IMAGE_WIDTHS = [300, 600, 1200] as const;

/** URL path of the stored images, served from `{DATA_DIR}/catalog-images/`. */
export const STORED_IMAGE_BASE = '/images/catalog/';
export const STORED_IMAGE_DIR = 'catalog-images';

export const storedImageFile = (key: string, width: number) => `${key}-${width}.webp`;

/** `src` (the middle size) and `srcset` (every size) of a stored image. */
export function storedImageSources(key: string): { src: string; srcSet: string } {
  return {
    src: `${STORED_IMAGE_BASE}${storedImageFile(key, 600)}`,
    srcSet: STORED_IMAGE_WIDTHS.map(
      (width) => `${STORED_IMAGE_BASE}${storedImageFile(key, width)} ${width}w`,
    ).join(', '),
  };
}
