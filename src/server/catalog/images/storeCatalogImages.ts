import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import sharp from 'sharp';
import type { CatalogImport } from '../import/catalogImport';
import { STORED_IMAGE_DIR, STORED_IMAGE_WIDTHS, storedImageFile } from './storedImageSources';

export interface StoreImagesOptions {
  dataDir: string;
  /** Relative `Images` paths are read from here (the CSV's folder). */
  baseDir: string;
  /** How long one remote image may take to arrive. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  onProgress?: (done: number, total: number) => void;
}

export interface StoreImagesResult {
  catalog: CatalogImport;
  stored: number;
  /** Sources that could not be read or decoded, with why: their products show the placeholder. */
  failed: { source: string; reason: string }[];
}

const MAX_IMAGE_BYTES = 25 * 1024 * 1024;
const CONCURRENCY = 4;

/**
 * Fetches every image the catalog's `Images` column names (a local file, relative to the CSV or absolute, or an
 * http(s) URL) and stores it resized into `STORED_IMAGE_WIDTHS` as WebP under `{dataDir}/catalog-images/`, named by a
 * hash of where it came from, so a re-import finds what it stored before instead of fetching again. An image that is
 * unreachable or not an image is reported and left to the placeholder; it never stops the import.
 */
export async function storeCatalogImages(
  catalog: CatalogImport,
  { dataDir, baseDir, timeoutMs = 15_000, fetch: fetchImage = fetch, onProgress }: StoreImagesOptions,
): Promise<StoreImagesResult> {
  const directory = join(dataDir, STORED_IMAGE_DIR);
  mkdirSync(directory, { recursive: true });
  const sources = [...new Set(catalog.products.flatMap((product) => product.images))];
  const storedImages = new Map<string, string>();
  const failed: StoreImagesResult['failed'] = [];
  let next = 0;
  let done = 0;

  async function storeOne(source: string) {
    storedImages.set(
      source,
      await storeCatalogImage(source, { dataDir, baseDir, timeoutMs, fetch: fetchImage }),
    );
  }

  async function worker() {
    while (next < sources.length) {
      const source = sources[next++] as string;
      try {
        await storeOne(source);
      } catch (error) {
        failed.push({ source, reason: error instanceof Error ? error.message : String(error) });
      }
      onProgress?.(++done, sources.length);
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, sources.length) }, worker));
  return { catalog: { ...catalog, storedImages }, stored: storedImages.size, failed };
}

/**
 * Stores one image (a local file or an http(s) URL) resized into `STORED_IMAGE_WIDTHS` as WebP, unless its files are
 * already there, and answers its key (what `product_images.stored_key` holds). Throws when it cannot be read or
 * decoded. The import calls it per source; the back office for an uploaded file.
 */
export async function storeCatalogImage(
  source: string,
  {
    dataDir,
    baseDir,
    timeoutMs = 15_000,
    fetch: fetchImage = fetch,
  }: Pick<StoreImagesOptions, 'dataDir' | 'baseDir' | 'timeoutMs' | 'fetch'>,
): Promise<string> {
  const directory = join(dataDir, STORED_IMAGE_DIR);
  mkdirSync(directory, { recursive: true });
  const key = imageKey(source, baseDir);
  const complete = STORED_IMAGE_WIDTHS.every((width) =>
    existsSync(join(directory, storedImageFile(key, width))),
  );
  if (!complete) {
    const original = await readImage(source, baseDir, timeoutMs, fetchImage);
    for (const width of STORED_IMAGE_WIDTHS) {
      const target = join(directory, storedImageFile(key, width));
      // Written aside and renamed, so a page never serves half a file.
      const partial = `${target}.${process.pid}.part`;
      await sharp(original, { limitInputPixels: 100_000_000 })
        .rotate()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: 80 })
        .toFile(partial);
      renameSync(partial, target);
    }
  }
  return key;
}

const isUrl = (source: string) => /^https?:\/\//i.test(source);

/** Names an image's files by where it came from: the URL, or the local file's absolute path. */
function imageKey(source: string, baseDir: string): string {
  const where = isUrl(source) ? source : localPath(source, baseDir);
  return createHash('sha256').update(where).digest('hex').slice(0, 32);
}

function localPath(source: string, baseDir: string): string {
  const path = source.startsWith('file://') ? new URL(source).pathname : source;
  return isAbsolute(path) ? path : resolve(baseDir, path);
}

async function readImage(
  source: string,
  baseDir: string,
  timeoutMs: number,
  fetchImage: typeof fetch,
): Promise<Buffer> {
  if (!isUrl(source)) return readFileSync(localPath(source, baseDir));
  const response = await fetchImage(source, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > MAX_IMAGE_BYTES) throw new Error(`larger than ${MAX_IMAGE_BYTES} bytes`);
  const body = Buffer.from(await response.arrayBuffer());
  if (body.length > MAX_IMAGE_BYTES) throw new Error(`larger than ${MAX_IMAGE_BYTES} bytes`);
  return body;
}
