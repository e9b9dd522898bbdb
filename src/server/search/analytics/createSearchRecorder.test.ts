import { describe, expect, it, vi } from 'vitest';
import { createWriteRetryQueue } from '../../db/durableWrites/createWriteRetryQueue';
import type { RateLimitRepository, SearchQueryRecord } from '../../db/ports';
import { RateLimiter } from '../../security/rateLimiter';
import { createSearchRecorder } from './createSearchRecorder';

/** The limiter's counts in memory: one store shared by several recorders plays the database several processes share. */
function memoryLimits(): RateLimitRepository & { hitManyCalls: string[][] } {
  const counts = new Map<string, number>();
  const hitManyCalls: string[][] = [];
  const add = (bucket: string, windowStart: number, tries: number) => {
    const key = `${bucket}@${windowStart}`;
    counts.set(key, (counts.get(key) ?? 0) + tries);
    return counts.get(key) as number;
  };
  return {
    hitManyCalls,
    hit: async (bucket, windowStart) => add(bucket, windowStart, 1),
    hitMany: async (hits, windowStart) => {
      hitManyCalls.push(hits.map((each) => each.bucket));
      return hits.map(({ bucket, tries }) => add(bucket, windowStart, tries));
    },
    peek: async (bucket, windowStart) => counts.get(`${bucket}@${windowStart}`) ?? 0,
    clear: async () => {},
    deleteExpired: async () => 0,
  };
}

/** A search repository that keeps the batches it was given, and can answer busy a number of times first. */
function batchStore() {
  const batches: SearchQueryRecord[][] = [];
  let busyAnswers = 0;
  return {
    batches,
    rows: () => batches.flat(),
    answerBusy(times: number) {
      busyAnswers = times;
    },
    recordQueries: vi.fn(async (records: readonly SearchQueryRecord[]) => {
      if (busyAnswers > 0) {
        busyAnswers -= 1;
        throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      }
      batches.push([...records]);
    }),
  };
}

const NOW = Date.UTC(2026, 10, 27, 12, 0, 10);

function setUp(perMinute: number, limits = memoryLimits()) {
  const store = batchStore();
  const durableWrites = createWriteRetryQueue({
    maxPending: 10_000,
    baseDelayMs: 1,
    maxDelayMs: 2,
    giveUpAfterMs: 60_000,
  });
  const recorder = createSearchRecorder({
    repository: store,
    rateLimiter: new RateLimiter(limits, 's'.repeat(40)),
    durableWrites,
    perMinute,
    now: () => NOW,
  });
  const settle = async () => {
    await recorder.flush();
    await durableWrites.idle();
  };
  return { store, recorder, limits, durableWrites, settle };
}

const search = (query: string, session: string, source: 'results' | 'suggestions' = 'results') =>
  ({
    query,
    results: 3,
    source,
    sessionHash: session,
    now: NOW,
    burstMs: 30_000,
  }) satisfies SearchQueryRecord;

describe('search analytics: batched, capped per client', () => {
  it('writes a flood as one transaction and records only the cap of its client; another client is recorded whole', async () => {
    const { store, recorder, limits, settle } = setUp(60);
    for (let i = 0; i < 300; i++) recorder.record(search(`crawl ${i}`, 'crawler'), '198.51.100.9');
    for (let i = 0; i < 5; i++) recorder.record(search(`linen ${i}`, 'person'), '203.0.113.4');
    await settle();
    // One transaction for the searches, one for the limiter's counts of both clients.
    expect(store.recordQueries).toHaveBeenCalledTimes(1);
    expect(limits.hitManyCalls).toHaveLength(1);
    expect(limits.hitManyCalls[0]).toHaveLength(2);
    const rows = store.rows();
    expect(rows.filter((row) => row.sessionHash === 'crawler').map((row) => row.query)).toEqual(
      Array.from({ length: 60 }, (_, i) => `crawl ${i}`),
    );
    expect(rows.filter((row) => row.sessionHash === 'person')).toHaveLength(5);
    expect(recorder.capped()).toBe(240);
  });

  it('asks the limiter nothing more for a client already past the cap in this window', async () => {
    const { store, recorder, limits, settle } = setUp(10);
    for (let i = 0; i < 20; i++) recorder.record(search(`a ${i}`, 'crawler'), '198.51.100.9');
    await settle();
    expect(limits.hitManyCalls).toHaveLength(1);
    for (let i = 0; i < 50; i++) recorder.record(search(`b ${i}`, 'crawler'), '198.51.100.9');
    await settle();
    expect(limits.hitManyCalls).toHaveLength(1);
    expect(store.rows()).toHaveLength(10);
    expect(recorder.capped()).toBe(60);
  });

  it('counts an IPv6 client by its /64, so rotating addresses inside it is one client', async () => {
    const { store, recorder, settle } = setUp(5);
    for (let i = 0; i < 20; i++) recorder.record(search(`q ${i}`, `s${i}`), `2001:db8:1:2::${i + 1}`);
    await settle();
    expect(store.rows()).toHaveLength(5);
    expect(recorder.capped()).toBe(15);
  });

  it('never caps a person typing: a typing burst counts once, however many keystrokes it sends', async () => {
    const { store, recorder, settle } = setUp(2);
    const typed = 'washed linen shirt with long sleeves';
    for (let length = 1; length <= typed.length; length++)
      recorder.record(search(typed.slice(0, length), 'typist', 'suggestions'), '203.0.113.4');
    // Deleting back and typing on is the same burst too.
    for (const query of ['washed linen', 'washed linen dress'])
      recorder.record(search(query, 'typist', 'suggestions'), '203.0.113.4');
    // The second search of the minute (a new burst) still fits in a cap of 2.
    recorder.record(search('mug', 'typist', 'suggestions'), '203.0.113.4');
    await settle();
    expect(recorder.capped()).toBe(0);
    expect(store.rows()).toHaveLength(typed.length + 3);
  });

  it('caps a burst whole: the keystrokes after a capped first query are not recorded either', async () => {
    const { store, recorder, settle } = setUp(1);
    recorder.record(search('tote', 'first'), '198.51.100.9');
    for (const query of ['m', 'mu', 'mug'])
      recorder.record(search(query, 'typist', 'suggestions'), '198.51.100.9');
    await settle();
    expect(store.rows().map((row) => row.query)).toEqual(['tote']);
    expect(recorder.capped()).toBe(3);
  });

  it('tries a batch again while the database is busy, counting its searches against the cap once', async () => {
    const { store, recorder, limits, durableWrites, settle } = setUp(3);
    store.answerBusy(4);
    for (let i = 0; i < 5; i++) recorder.record(search(`q ${i}`, 'shopper'), '203.0.113.4');
    await settle();
    expect(store.recordQueries).toHaveBeenCalledTimes(5);
    expect(limits.hitManyCalls).toHaveLength(1);
    expect(store.rows()).toHaveLength(3);
    expect(recorder.capped()).toBe(2);
    expect(durableWrites.dropped().searchQueries).toBe(0);
  });

  it('shares one cap between processes through the shared limiter', async () => {
    const limits = memoryLimits();
    const one = setUp(60, limits);
    const two = setUp(60, limits);
    for (let i = 0; i < 150; i++) {
      one.recorder.record(search(`one ${i}`, 'crawler'), '198.51.100.9');
      two.recorder.record(search(`two ${i}`, 'crawler'), '198.51.100.9');
    }
    await Promise.all([one.settle(), two.settle()]);
    expect(one.store.rows().length + two.store.rows().length).toBe(60);
    expect(one.recorder.capped() + two.recorder.capped()).toBe(240);
  });
});
