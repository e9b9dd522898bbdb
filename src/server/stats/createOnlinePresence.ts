import type { OnlineEntry } from '../../shared/stats/statsTypes';

/*
 * Cheap online presence (issue 7): a ping only updates a map in memory and is answered at once; the map's changes
 * are written in one batch every `flushMs`, so thousands of open tabs cost no write per ping. With several
 * processes, each flushes its own visitors to the same table, and "online now" is read from there.
 */

export interface OnlinePresence {
  ping(visitorHash: string, page: string, now: number): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createOnlinePresence(
  write: (entries: OnlineEntry[]) => Promise<void>,
  { flushMs, forgetAfterMs }: { flushMs: number; forgetAfterMs: number },
): OnlinePresence {
  const entries = new Map<string, OnlineEntry>();
  const dirty = new Set<string>();
  let writing: Promise<void> = Promise.resolve();

  function flush(): Promise<void> {
    if (dirty.size > 0) {
      const batch = [...dirty].flatMap((key) => entries.get(key) ?? []).map((entry) => ({ ...entry }));
      dirty.clear();
      writing = writing.then(() => write(batch)).catch(() => undefined);
    }
    return writing;
  }

  const timer = setInterval(() => {
    void flush();
    const cutoff = Date.now() - forgetAfterMs;
    for (const [key, entry] of entries) if (entry.lastSeen < cutoff && !dirty.has(key)) entries.delete(key);
  }, flushMs);
  timer.unref();

  return {
    ping(visitorHash, page, now) {
      const known = entries.get(visitorHash);
      if (known) {
        known.lastSeen = now;
        known.page = page;
      } else entries.set(visitorHash, { visitorHash, page, firstSeen: now, lastSeen: now });
      dirty.add(visitorHash);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
