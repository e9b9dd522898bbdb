import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** What an entry costs beyond its bytes (the key, the map slot, the object): counted so tiny pages are bounded too. */
const ENTRY_OVERHEAD_BYTES = 256;

export interface CachedPage<Request = never> {
  /** The page as rendered for every anonymous visitor. */
  html: Buffer;
  /** Weak validator of the HTML (the same for every encoding of it). */
  etag: string;
  /**
   * Filled once, off the request path, after the entry is first asked for again; until then the page is sent
   * uncompressed.
   */
  br: Buffer | null;
  gzip: Buffer | null;
  /** The catalog and settings version the page was rendered at; an entry of another version is never served. */
  version: string;
  /** Run when the entry answers a request (e.g. a search results page still records the search). */
  onHit?: (request: Request) => void;
}

export interface PageCacheStats {
  entries: number;
  bytes: number;
  maxBytes: number;
}

/**
 * The rendered pages of anonymous visitors, least recently used dropped first so the HTML and its compressed copies
 * never hold more than `maxBytes`. A Map keeps insertion order: a hit is deleted and set again, so the first key is
 * always the least recently used.
 */
export class PageCache<Request = never> {
  readonly #maxBytes: number;
  readonly #entries = new Map<string, CachedPage<Request>>();
  #bytes = 0;
  /**
   * Stored pages waiting for their compressed copies, compressed one at a time off the main thread. Only keys of
   * stored entries wait here (an evicted page leaves the queue), so a crawl neither holds dropped pages in memory
   * nor spends the CPU compressing them.
   */
  readonly #uncompressed = new Set<string>();
  #compressing = false;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get enabled(): boolean {
    return this.#maxBytes > 0;
  }

  /** The entry for `key` rendered at `version`; an entry of an older version is dropped. */
  get(key: string, version: string): CachedPage<Request> | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.version !== version) {
      this.#bytes -= sizeOf(key, entry);
      this.#uncompressed.delete(key);
      return undefined;
    }
    this.#entries.set(key, entry);
    // Compressed when asked for a second time: a page a crawler sees once, or one a catalog change replaces
    // before anyone asks again (every order changes stock), costs no compression.
    if (entry.br === null && !this.#uncompressed.has(key)) {
      this.#uncompressed.add(key);
      void this.#compressQueued();
    }
    return entry;
  }

  /** Stores the page; a page larger than the whole cache is not kept. */
  set(key: string, html: string, version: string, onHit?: CachedPage<Request>['onHit']): CachedPage<Request> {
    const body = Buffer.from(html);
    const entry: CachedPage<Request> = {
      html: body,
      etag: etagOf(body),
      br: null,
      gzip: null,
      version,
      onHit,
    };
    this.delete(key);
    if (sizeOf(key, entry) > this.#maxBytes) return entry;
    this.#entries.set(key, entry);
    this.#bytes += sizeOf(key, entry);
    this.#evict();
    return entry;
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#uncompressed.delete(key);
    this.#bytes -= sizeOf(key, entry);
  }

  clear(): void {
    this.#entries.clear();
    this.#uncompressed.clear();
    this.#bytes = 0;
  }

  stats(): PageCacheStats {
    return { entries: this.#entries.size, bytes: this.#bytes, maxBytes: this.#maxBytes };
  }

  async #compressQueued(): Promise<void> {
    if (this.#compressing) return;
    this.#compressing = true;
    try {
      for (const key of this.#uncompressed) {
        this.#uncompressed.delete(key);
        const entry = this.#entries.get(key);
        if (entry) await this.#compress(key, entry);
      }
    } finally {
      this.#compressing = false;
    }
  }

  async #compress(key: string, entry: CachedPage<Request>): Promise<void> {
    const [br, gz] = await Promise.all([
      brotli(entry.html, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: 6,
          [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: entry.html.length,
        },
      }),
      gzipAsync(entry.html, { level: 6 }),
    ]);
    // The entry may have been dropped or replaced meanwhile: only the one still stored grows.
    if (this.#entries.get(key) !== entry) return;
    this.#bytes -= sizeOf(key, entry);
    entry.br = br;
    entry.gzip = gz;
    this.#bytes += sizeOf(key, entry);
    this.#evict();
  }

  #evict(): void {
    for (const [key, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) return;
      this.#entries.delete(key);
      this.#uncompressed.delete(key);
      this.#bytes -= sizeOf(key, entry);
    }
  }
}

function sizeOf(key: string, entry: Pick<CachedPage, 'html' | 'br' | 'gzip'>): number {
  return (
    ENTRY_OVERHEAD_BYTES +
    key.length * 2 +
    entry.html.length +
    (entry.br?.length ?? 0) +
    (entry.gzip?.length ?? 0)
  );
}

function etagOf(body: Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`;
}
