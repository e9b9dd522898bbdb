import type { WriteRetryQueue } from '../../db/durableWrites/createWriteRetryQueue';
import type { SearchQueryRecord, SearchRepository } from '../../db/ports';
import type { RateLimit, RateLimiter } from '../../security/rateLimiter';
import { clientNetworkOf } from '../../stats/clientAddress';
import { createGroupCommit } from '../../stats/createGroupCommit';

/*
 * Search analytics, written after the answer: in batches, and at most `perMinute` searches per client.
 *
 * Batches: records gather for up to BATCH_DELAY_MS (or BATCH_SIZE of them) through the statistics' group commit and
 * are written as one transaction by the retry queue (db/durableWrites), which tries a batch again while the database
 * is busy and counts on /healthz whatever it has to give up. A flood of searches (a crawler of results pages, each
 * answered from the render cache in microseconds) costs the database one transaction per batch, not one per search,
 * so the writes behind it (orders) are not starved of SQLite's one writer.
 *
 * The cap: a client (an address; an IPv6 address by its /64, as the statistics count clients) gets `perMinute`
 * searches recorded per minute, counted in the shared rate limiter so every process adds to one count; beyond it the
 * search is still answered but not recorded, and counted as capped (not as dropped: nothing acknowledged was lost).
 * A typing burst is one search: a suggestions query that extends or shortens the same session's previous one within
 * its burst is merged into that row by the repository, so it takes no place of its own and shares its burst's fate —
 * a person typing is never capped by the keystrokes. The limiter is asked once per batch for all of its clients, and
 * a client found past the cap is remembered until its window ends, so its further searches cost no write at all.
 */

const BATCH_DELAY_MS = 50;
const BATCH_SIZE = 500;
const WINDOW_MS = 60_000;
/** Sessions whose last suggestions query is remembered for the burst rule; the oldest are forgotten past this. */
const MAX_REMEMBERED_SESSIONS = 50_000;

export interface SearchRecorderOptions {
  repository: Pick<SearchRepository, 'recordQueries'>;
  rateLimiter: Pick<RateLimiter, 'takeMany'>;
  durableWrites: Pick<WriteRetryQueue, 'submit'>;
  /** Searches recorded per client per minute (`server.stats.recordedSearchesPerMinute`). */
  perMinute: number;
  now?: () => number;
}

export interface SearchRecorder {
  /** Queues a search for recording (null: a query that normalizes to nothing); `ip` names the client. */
  record(record: SearchQueryRecord | null, ip: string): void;
  /** Searches answered but not recorded because their client was past the cap, since the start. */
  capped(): number;
  /** Hands what is gathering to the retry queue (on shutdown, and for tests). */
  flush(): Promise<void>;
}

/** One search, or one typing burst: recorded or capped as a whole. */
interface Burst {
  state: 'pending' | 'recorded' | 'capped';
}

interface Queued {
  record: SearchQueryRecord;
  client: string;
  burst: Burst;
  /** The burst's first query, the one that counts against the cap. */
  first: boolean;
}

export function createSearchRecorder({
  repository,
  rateLimiter,
  durableWrites,
  perMinute,
  now = Date.now,
}: SearchRecorderOptions): SearchRecorder {
  const limit: RateLimit = { name: 'recorded-searches', limit: perMinute, windowMs: WINDOW_MS };
  /** Per session hash, its last suggestions query (insertion order = oldest first). */
  const lastTyped = new Map<string, { query: string; at: number; burst: Burst }>();
  /** Clients past the cap, until their window ends. */
  const pastCap = new Map<string, number>();
  let capped = 0;

  const batches = createGroupCommit<Queued>((batch) => writeBatch(batch), {
    maxDelayMs: BATCH_DELAY_MS,
    maxBatch: BATCH_SIZE,
    // The retry queue owns retries: its submit never fails.
    retryForMs: 0,
  });

  function writeBatch(batch: Queued[]): Promise<void> {
    let kept: SearchQueryRecord[] | null = null;
    return durableWrites.submit(
      'searchQueries',
      async () => {
        // Decided once: a batch tried again after a busy failure does not count its searches twice.
        kept ??= await keepWithinCap(batch);
        if (kept.length > 0) await repository.recordQueries(kept);
      },
      batch.length,
    );
  }

  async function keepWithinCap(batch: Queued[]): Promise<SearchQueryRecord[]> {
    const at = now();
    const windowEnd = at - (at % WINDOW_MS) + WINDOW_MS;
    for (const [client, until] of pastCap) if (until <= at) pastCap.delete(client);
    const wanted = new Map<string, number>();
    for (const each of batch)
      if (each.first && each.burst.state === 'pending')
        wanted.set(each.client, (wanted.get(each.client) ?? 0) + 1);
    const allowed =
      wanted.size > 0 ? await rateLimiter.takeMany(limit, wanted, at) : new Map<string, number>();
    for (const [client, count] of allowed)
      if (count < (wanted.get(client) ?? 0)) pastCap.set(client, windowEnd);
    const kept: SearchQueryRecord[] = [];
    for (const each of batch) {
      if (each.first && each.burst.state === 'pending') {
        const left = allowed.get(each.client) ?? 0;
        allowed.set(each.client, left - 1);
        each.burst.state = left > 0 ? 'recorded' : 'capped';
      }
      if (each.burst.state === 'capped') capped += 1;
      // A burst still pending here lost its first query to a dropped batch (counted there): its next ones are kept.
      else kept.push(each.record);
    }
    return kept;
  }

  /** The burst a query belongs to: its session's last suggestions query's when it extends or shortens it in time. */
  function burstOf(record: SearchQueryRecord): { burst: Burst; first: boolean } {
    if (record.source !== 'suggestions') return { burst: { state: 'pending' }, first: true };
    const last = lastTyped.get(record.sessionHash);
    const joins =
      last !== undefined &&
      last.at >= record.now - record.burstMs &&
      (record.query.startsWith(last.query) || last.query.startsWith(record.query));
    const burst: Burst = joins ? last.burst : { state: 'pending' };
    lastTyped.delete(record.sessionHash);
    lastTyped.set(record.sessionHash, { query: record.query, at: record.now, burst });
    for (const [hash, entry] of lastTyped) {
      if (lastTyped.size <= MAX_REMEMBERED_SESSIONS && entry.at >= record.now - record.burstMs) break;
      lastTyped.delete(hash);
    }
    return { burst, first: !joins };
  }

  return {
    record(record, ip) {
      if (!record) return;
      const client = clientNetworkOf(ip);
      const { burst, first } = burstOf(record);
      if (first && (pastCap.get(client) ?? 0) > now()) burst.state = 'capped';
      if (burst.state === 'capped') {
        capped += 1;
        return;
      }
      void batches.submit({ record, client, burst, first }).catch(() => undefined);
    },
    capped: () => capped,
    flush: () => batches.flush(),
  };
}
