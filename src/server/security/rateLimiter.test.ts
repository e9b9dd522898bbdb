import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestEngine, testRepositories } from '../../../test-support/testRepositories';
import { openDatabase } from '../db/openDatabase';
import { createSqliteRepositories } from '../db/sqlite/createSqliteRepositories';
import { RateLimiter } from './rateLimiter';

const LIMIT = { name: 'test-tries', limit: 5, windowMs: 60_000 };
const NOW = 1_700_000_000_000; // a window boundary: 1_700_000_000_000 % 60_000 === 20_000

describe('RateLimiter (on the engine the suite runs on)', () => {
  let dataDir: string;
  let engine: TestEngine;
  let limiter: RateLimiter;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rate-limit-'));
    engine = await testRepositories(() => {
      const db = openDatabase(dataDir);
      return { db, repositories: createSqliteRepositories(db) };
    });
    limiter = new RateLimiter(engine.repositories.rateLimits, 'secret-'.repeat(6));
  });
  afterAll(async () => {
    await engine.repositories.close();
    await engine.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('allows the limit, then refuses until the window ends, with the seconds left', async () => {
    const verdicts = [];
    for (let i = 0; i < 7; i++) verdicts.push(await limiter.take(LIMIT, '203.0.113.1', NOW));
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(verdicts[6]?.count).toBe(7);
    // The window started 20 s before NOW, so 40 s remain.
    expect(verdicts[6]?.retryAfterSeconds).toBe(40);
    expect((await limiter.take(LIMIT, '203.0.113.1', NOW + 40_000)).allowed).toBe(true);
  });

  it('takeMany counts a batch of several clients at once, and shares the count with take()', async () => {
    await limiter.take(LIMIT, '203.0.113.20', NOW);
    const allowed = await limiter.takeMany(
      LIMIT,
      new Map([
        ['203.0.113.20', 7],
        ['203.0.113.21', 3],
      ]),
      NOW,
    );
    // 1 taken before: 4 of 7 fit; the other client's 3 all do.
    expect(Object.fromEntries(allowed)).toEqual({ '203.0.113.20': 4, '203.0.113.21': 3 });
    const next = await limiter.takeMany(LIMIT, new Map([['203.0.113.21', 5]]), NOW);
    expect(next.get('203.0.113.21')).toBe(2);
    expect((await limiter.take(LIMIT, '203.0.113.21', NOW)).count).toBe(9);
    expect(
      (await limiter.takeMany(LIMIT, new Map([['203.0.113.21', 1]]), NOW + 60_000)).get('203.0.113.21'),
    ).toBe(1);
  });

  it('counts each client and each limit apart', async () => {
    for (let i = 0; i < 5; i++) await limiter.take(LIMIT, '203.0.113.2', NOW);
    expect((await limiter.take(LIMIT, '203.0.113.2', NOW)).allowed).toBe(false);
    expect((await limiter.take(LIMIT, '203.0.113.3', NOW)).allowed).toBe(true);
    expect((await limiter.take({ ...LIMIT, name: 'other' }, '203.0.113.2', NOW)).allowed).toBe(true);
  });

  it('check() looks without counting; reset() forgets the client', async () => {
    for (let i = 0; i < 5; i++) await limiter.take(LIMIT, '203.0.113.4', NOW);
    expect((await limiter.check(LIMIT, '203.0.113.4', NOW)).allowed).toBe(false);
    await limiter.reset(LIMIT, '203.0.113.4');
    expect((await limiter.check(LIMIT, '203.0.113.4', NOW)).allowed).toBe(true);
    expect((await limiter.check(LIMIT, '203.0.113.4', NOW)).count).toBe(0);
  });

  it('never stores the client as given', async () => {
    await limiter.take(LIMIT, '198.51.100.77', NOW);
    const rows = await engine.query<{ bucket: string }>('SELECT bucket FROM rate_limits');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((row) => row.bucket.includes('198.51.100.77'))).toBe(false);
  });

  it('lets exactly the limit through when tries arrive at once', async () => {
    const verdicts = await Promise.all(
      Array.from({ length: 30 }, () => limiter.take(LIMIT, '203.0.113.9', NOW)),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(5);
    expect(verdicts.map((v) => v.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
  });

  it('deletes the windows that have ended', async () => {
    await limiter.take(LIMIT, '203.0.113.10', NOW);
    const before = await engine.query<{ n: number }>('SELECT COUNT(*) AS n FROM rate_limits');
    expect(await limiter.deleteExpired(NOW + 24 * 60 * 60_000)).toBe(Number(before[0]?.n));
    expect(await engine.query('SELECT * FROM rate_limits')).toEqual([]);
  });
});
