import type { PageChanges, PageVersionRepository } from '../../db/ports';
import type { ChangeNotifications } from '../../db/postgres/changeNotifications';
import type { PageCache } from './PageCache';
import { type Invalidation, invalidationOf } from './pageTags';

/** How stale a process's cache may be when nothing in the process wrote: well under 1 s. */
export const CHANGE_CHECK_INTERVAL_MS = 200;

/**
 * With PostgreSQL's notifications a commit wakes the cache at once, so the log's version (a scan of the log there)
 * is read on a slower timer, which only covers a notification lost while the listening connection was down.
 */
export const NOTIFIED_CHECK_INTERVAL_MS = 1_000;

/**
 * Changes read from one backlog (in parts, CHANGE_PART); a longer one (a process that slept through several huge
 * imports) drops every page instead. As many as the search index takes at once: an import of 26,000 new products
 * then keeps every page it does not change (the other products' pages), where a bound of 5,000 dropped them all and
 * shoppers met cold pages while the search index caught up. Reading 26,000 rows and their products' terms takes
 * ~50 ms on SQLite and ~80 ms on PostgreSQL (52,000 products), once per process and import.
 */
const CHANGE_BATCH = 50_000;

/**
 * Changes per read of a longer backlog (an import's), which is read in parts with the event loop's other work between
 * them: read in one go, an import of 26,000 products held every request for 60–120 ms on SQLite (its reads are
 * synchronous) right when the import ended, for each process. A part, with the cache's drops after it, takes a few ms.
 */
const CHANGE_PART = 2_000;

export interface PageChangeFollower {
  /**
   * Brings the cache up to the change log (at most one read per interval, shared by every caller) and answers the
   * position it reflects, or null before the log could be read once (nothing is cached until then).
   */
  sync(): Promise<number | null>;
  /** A write went through this process: the next request reads the log, and waits for all of it. */
  markStale(): void;
  /** Stops listening to notifications. */
  close(): void;
}

/**
 * Follows the catalog change log from this process's own position and drops exactly the cached pages each change
 * affects (pageTags.ts). Every process does the same from its own position, so every process's cache follows every
 * write: SQLite's by a cheap check of the log's newest seq at most every `intervalMs`, PostgreSQL's by the same
 * check plus the `shop_changes` notification, which marks the cache stale at once.
 */
export function createPageChangeFollower(
  pageVersions: PageVersionRepository,
  cache: Pick<PageCache<unknown>, 'invalidate'>,
  {
    wakeUps,
    intervalMs = wakeUps ? NOTIFIED_CHECK_INTERVAL_MS : CHANGE_CHECK_INTERVAL_MS,
    now = () => Date.now(),
  }: {
    /** PostgreSQL's `shop_changes` notifications: each one makes the next request read the log. */
    wakeUps?: Pick<ChangeNotifications, 'subscribe'>;
    intervalMs?: number;
    now?: () => number;
  } = {},
): PageChangeFollower {
  let position: number | null = null;
  let rules: string | null = null;
  let seenVersion: string | null = null;
  let checkedAt = Number.NEGATIVE_INFINITY;
  /** Counts stale marks: one that arrives while a read is in flight makes the next request read again. */
  let staleMarks = 0;
  /**
   * This process's own writes (markStale), and how many of them the last whole read began after: a request after one
   * not yet covered waits for a whole read, however long (the write must show on the writer's next page).
   */
  let ownWrites = 0;
  let ownWritesRead = 0;
  /**
   * The read in flight: `done` once it has read everything; `answered` then too, or as soon as its first part showed a
   * longer backlog, whose rest other requests need not wait for (they are answered from the cache as it is meanwhile,
   * as they would have been a moment earlier).
   */
  let reading: { done: Promise<number | null>; answered: Promise<number | null> } | null = null;

  const follow = async (onLongBacklog: (at: number) => void): Promise<number | null> => {
    const startedAt = now();
    const marks = staleMarks;
    const writes = ownWrites;
    const version = await pageVersions.catalogVersion();
    if (position === null) {
      // The first read starts at the log's newest change: nothing is cached yet, so nothing older matters.
      const start = await pageVersions.pageChangesSince(0, 0);
      if (start.rules === null) return null;
      position = start.seq;
      rules = start.rules;
      seenVersion = version;
    } else if (version !== seenVersion) {
      // Read in parts, each change counted wide by where the whole read started; past CHANGE_BATCH changes, the
      // rest is not read: the cache is dropped and follows from the log's newest position. The parts' drops are
      // applied together once all are read: dropped part by part, a page asked for between two parts was rendered
      // and then dropped by the next part, or not kept at all (after an import of 26,000 products, each category
      // page was rendered four times in 3 s). Until then requests are answered from the cache as it was before the
      // backlog, as they would have been a moment earlier.
      const from = position;
      let drops: Invalidation = { all: false, tags: new Set() };
      let readRules = rules;
      /** Applies what the read gathered: the drops, then the position and rules they bring the cache to. */
      const applyRead = (at: number) => {
        cache.invalidate(drops, at);
        position = at;
        rules = readRules;
      };
      for (let read = 0, at = position; ; ) {
        const changes: PageChanges =
          read >= CHANGE_BATCH
            ? await pageVersions.pageChangesSince(at, 0)
            : await pageVersions.pageChangesSince(at, CHANGE_PART, { wideAfter: from });
        if (changes.rules === null) {
          // Not read (a long write holds the log): what was read is applied, and the next request asks again.
          if (at !== position) applyRead(at);
          return position;
        }
        drops = withDrops(drops, invalidationOf(changes, changes.rules !== readRules));
        at = changes.seq;
        readRules = changes.rules;
        if (!changes.more) {
          applyRead(at);
          break;
        }
        read += CHANGE_PART;
        onLongBacklog(position);
        await new Promise((resolve) => setImmediate(resolve));
      }
      seenVersion = version;
    }
    ownWritesRead = Math.max(ownWritesRead, writes);
    if (marks === staleMarks) checkedAt = startedAt;
    return position;
  };

  const stale = () => {
    staleMarks++;
    checkedAt = Number.NEGATIVE_INFINITY;
  };
  const markStale = () => {
    ownWrites++;
    stale();
  };
  // Another process's commit: read at the next request, which need not wait for a long backlog's every part.
  const stop = wakeUps?.subscribe(stale);

  return {
    async sync() {
      if (position !== null && now() - checkedAt < intervalMs) return position;
      if (!reading) {
        let answer: (at: number | null) => void = () => {};
        let fail: (error: unknown) => void = () => {};
        const answered = new Promise<number | null>((resolve, reject) => {
          answer = resolve;
          fail = reject;
        });
        const done = follow(answer).finally(() => {
          reading = null;
        });
        done.then(answer, fail);
        reading = { done, answered };
      }
      return ownWritesRead === ownWrites ? reading.answered : reading.done;
    },
    markStale,
    close() {
      stop?.();
    },
  };
}

/** Both invalidations' drops (`drops` added to); everything once one drops everything (the tags are then moot). */
function withDrops(drops: Invalidation, more: Invalidation): Invalidation {
  if (drops.all || more.all) return { all: true, tags: new Set() };
  if (drops.tags.size === 0) return more;
  for (const tag of more.tags) drops.tags.add(tag);
  return drops;
}
