import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import { ANY_CHANGE, type Invalidation } from './pageTags';

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
  /** What the page shows (pageTags.ts): a change dropping one of them drops the page. */
  tags: readonly string[];
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
  /** The keys of the stored entries carrying each tag. */
  readonly #tagged = new Map<string, Set<string>>();
  /**
   * The change-feed position at which each tag was last dropped, and everything: a page rendered from an earlier
   * position may show what that change replaced, so it is not stored (it is still sent to its visitor).
   */
  readonly #droppedAt = new Map<string, number>();
  #clearedAt = Number.NEGATIVE_INFINITY;
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

  /** The stored entry for `key`, marked as used lately. */
  get(key: string): CachedPage<Request> | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    // Compressed when asked for a second time: a page a crawler sees once, or one a catalog change replaces
    // before anyone asks again, costs no compression.
    if (entry.br === null && !this.#uncompressed.has(key)) {
      this.#uncompressed.add(key);
      void this.#compressQueued();
    }
    return entry;
  }

  /**
   * Stores the page rendered from change-feed position `renderedFrom`, showing what `tags` name. A page larger than
   * the whole cache is not kept, nor one a change dropping its tags overtook while it was rendered.
   */
  set(
    key: string,
    html: string,
    {
      tags,
      renderedFrom,
      onHit,
      keep = true,
    }: {
      tags: readonly string[];
      renderedFrom: number;
      onHit?: CachedPage<Request>['onHit'];
      /** False: only made ready to send (a page known stale already), not kept. */
      keep?: boolean;
    },
  ): CachedPage<Request> {
    const body = Buffer.from(html);
    const entry: CachedPage<Request> = {
      html: body,
      etag: etagOf(body),
      br: null,
      gzip: null,
      tags,
      onHit,
    };
    this.delete(key);
    if (!keep || sizeOf(key, entry) > this.#maxBytes || this.#overtaken(tags, renderedFrom)) return entry;
    this.#entries.set(key, entry);
    for (const tag of tags) {
      const keys = this.#tagged.get(tag);
      if (keys) keys.add(key);
      else this.#tagged.set(tag, new Set([key]));
    }
    this.#bytes += sizeOf(key, entry);
    this.#evict();
    return entry;
  }

  /** Drops what the changes read up to position `at` made stale: the entries carrying one of their tags, or all. */
  invalidate(invalidation: Invalidation, at: number): number {
    if (invalidation.all) {
      const dropped = this.#entries.size;
      this.clear();
      this.#clearedAt = at;
      return dropped;
    }
    let dropped = 0;
    for (const tag of invalidation.tags) {
      this.#droppedAt.set(tag, at);
      for (const key of this.#tagged.get(tag) ?? []) {
        if (this.#entries.has(key)) dropped++;
        this.delete(key);
      }
    }
    return dropped;
  }

  /** Drops the entries carrying one of `tags` (pages made stale by something other than the change log). */
  dropTagged(tags: Iterable<string>): void {
    for (const tag of tags) {
      for (const key of this.#tagged.get(tag) ?? []) this.delete(key);
    }
  }

  #overtaken(tags: readonly string[], renderedFrom: number): boolean {
    if (this.#clearedAt > renderedFrom) return true;
    if ((this.#droppedAt.get(ANY_CHANGE) ?? Number.NEGATIVE_INFINITY) <= renderedFrom) return false;
    return tags.some((tag) => (this.#droppedAt.get(tag) ?? Number.NEGATIVE_INFINITY) > renderedFrom);
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#forget(key, entry);
  }

  clear(): void {
    this.#entries.clear();
    this.#tagged.clear();
    this.#uncompressed.clear();
    this.#bytes = 0;
  }

  #forget(key: string, entry: CachedPage<Request>): void {
    this.#entries.delete(key);
    this.#uncompressed.delete(key);
    this.#bytes -= sizeOf(key, entry);
    for (const tag of entry.tags) {
      const keys = this.#tagged.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.#tagged.delete(tag);
    }
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
      this.#forget(key, entry);
    }
  }
}

function sizeOf(key: string, entry: Pick<CachedPage, 'html' | 'br' | 'gzip' | 'tags'>): number {
  let tagBytes = 0;
  // Each tag costs its string and its key's slot in the tag index.
  for (const tag of entry.tags) tagBytes += tag.length * 2 + 16;
  return (
    ENTRY_OVERHEAD_BYTES +
    key.length * 2 +
    tagBytes +
    entry.html.length +
    (entry.br?.length ?? 0) +
    (entry.gzip?.length ?? 0)
  );
}

function etagOf(body: Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`;
}
