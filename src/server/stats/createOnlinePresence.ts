import type { OnlineEntry } from '../../shared/stats/statsTypes';

/*
 * Cheap online presence: a repeat ping only updates a map in memory and is answered at once; the map's
 * changes are written in one batch every `flushMs`, so thousands of open tabs cost no write per ping. A visitor this
 * process does not know yet goes to the database at once: "online now" is read from the table alone, so
 * with several processes each one counts a visitor from their first ping wherever it landed, and all answer the same.
 * That first write is also where the database may refuse a visitor (too many online from one address): a refused
 * visitor is not remembered, so their next ping asks again. Later pings only move `last_seen`, which the flush
 * writes well within the online window (at least 2 minutes).
 */

interface OnlinePresenceStore {
  /** A visitor new to this process: stored unless refused; answers whether they are online. */
  admit(entry: OnlineEntry): Promise<boolean>;
  /** Known visitors' changes, in one batch. */
  write(entries: OnlineEntry[]): Promise<void>;
}

export interface OnlinePresence {
  /** Resolves at once for a known visitor; for a new one, once they are stored or refused (false). */
  ping(visitor: { visitorHash: string; addressHash: string }, page: string, now: number): Promise<boolean>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createOnlinePresence(
  { admit, write }: OnlinePresenceStore,
  { flushMs, forgetAfterMs }: { flushMs: number; forgetAfterMs: number },
): OnlinePresence {
  const entries = new Map<string, OnlineEntry>();
  const dirty = new Set<string>();
  let writing: Promise<void> = Promise.resolve();

  function flush(): Promise<void> {
    if (dirty.size > 0) {
      const batch = [...dirty].flatMap((key) => entries.get(key) ?? []).map((entry) => ({ ...entry }));
      dirty.clear();
      // A failed batch (the database busy with an import) is not lost: its visitors are marked again, so the
      // next flush writes their latest state. Nothing grows: the map holds one entry per visitor either way.
      writing = writing
        .then(() => write(batch))
        .catch(() => {
          for (const entry of batch) if (entries.has(entry.visitorHash)) dirty.add(entry.visitorHash);
        });
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
    async ping({ visitorHash, addressHash }, page, now) {
      const known = entries.get(visitorHash);
      if (known) {
        known.lastSeen = now;
        known.page = page;
        dirty.add(visitorHash);
        return true;
      }
      const entry = { visitorHash, addressHash, page, firstSeen: now, lastSeen: now };
      entries.set(visitorHash, entry);
      let admitted: boolean;
      try {
        admitted = await admit({ ...entry });
      } catch (error) {
        dirty.add(visitorHash); // the next flush tries again
        throw error;
      }
      if (!admitted && entries.get(visitorHash) === entry) entries.delete(visitorHash);
      return admitted;
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
