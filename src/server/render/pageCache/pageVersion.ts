import type { PageVersionRepository } from '../../db/ports';

/** How stale a process's idea of the catalog version may be when nothing in the process wrote: well under 1 s. */
export const VERSION_CHECK_INTERVAL_MS = 200;

export interface PageVersion {
  /** The version cached pages must carry: settings, catalog change feed position and search rules revision. */
  current(): Promise<string>;
  /** A write went through this process: the next request reads the version again instead of waiting. */
  markStale(): void;
}

/**
 * The version of everything an anonymous page shows: the settings' and the catalog's. Every catalog write
 * (products, stock, prices, ratings, terms, vendors, posts, imports) appends to the change feed the search index
 * follows (db/ports/pageVersions.ts), so one cheap read tells every process that its pages are stale. The read is shared: at most one every
 * `intervalMs` whatever the traffic, so a request costs no database round trip.
 */
export function createPageVersion(
  pageVersions: PageVersionRepository,
  settingsVersion: string,
  {
    intervalMs = VERSION_CHECK_INTERVAL_MS,
    now = Date.now,
  }: { intervalMs?: number; now?: () => number } = {},
): PageVersion {
  let known: string | null = null;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<string> | null = null;

  const read = () => {
    reading ??= (async () => {
      const startedAt = now();
      known = `${settingsVersion}.${await pageVersions.catalogVersion()}`;
      checkedAt = startedAt;
      return known;
    })().finally(() => {
      reading = null;
    });
    return reading;
  };

  return {
    async current() {
      if (known !== null && now() - checkedAt < intervalMs) return known;
      return read();
    },
    markStale() {
      checkedAt = Number.NEGATIVE_INFINITY;
    },
  };
}
