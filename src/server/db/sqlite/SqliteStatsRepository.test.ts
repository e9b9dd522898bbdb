import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewHit } from '../../../shared/stats/statsTypes';
import { openDatabase, type SqliteDatabase } from '../openDatabase';
import { SqliteStatsRepository } from './SqliteStatsRepository';

let dir: string;
let db: SqliteDatabase;
let stats: SqliteStatsRepository;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stats-repo-'));
  db = openDatabase(dir);
  stats = new SqliteStatsRepository(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const hit = (day: string, visitorHash: string | null = 'v1'): NewHit => ({
  kind: 'hit',
  createdAt: Date.parse(`${day}T12:00:00Z`),
  day,
  visitorHash,
  page: '/',
  pageType: 'home',
  pageId: 0,
  searchQuery: '',
  referrer: '',
  referrerHost: '',
  sourceType: 'typein',
  source: '(direct)',
  browser: 'Chrome',
  os: 'Linux',
  deviceType: 'Desktop',
});
const count = (table: string) => db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;

describe('SqliteStatsRepository', () => {
  it('keeps one random salt per day, the same for every caller', async () => {
    const first = await stats.daySalt('2026-11-22');
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await new SqliteStatsRepository(db).daySalt('2026-11-22')).toBe(first);
    expect(await stats.daySalt('2026-11-23')).not.toBe(first);
  });

  it('writes a batch in one transaction: a bad record leaves nothing of it', async () => {
    await expect(
      stats.writeBatch([hit('2026-11-22'), { ...hit('2026-11-22'), page: null as unknown as string }]),
    ).rejects.toThrow();
    expect(count('stats_hits')).toBe(0);
    await stats.writeBatch([hit('2026-11-22'), hit('2026-11-22'), hit('2026-11-22', null)]);
    expect(count('stats_hits')).toBe(3);
    // The anonymous hit has no visitor; the two others are one visitor with two hits.
    expect(db.prepare('SELECT hits FROM stats_visitors').all()).toEqual([{ hits: 2 }]);
  });

  it('retention deletes old days, old salts and stale presence, and keeps the rest', async () => {
    await stats.writeBatch([hit('2026-01-01'), hit('2026-11-22')]);
    await stats.writeBatch([{ kind: 'exclusion', day: '2026-01-01', reason: 'bot', agent: 'curl' }]);
    await stats.daySalt('2026-11-20');
    await stats.daySalt('2026-11-22');
    await stats.writeOnline([
      { visitorHash: 'old', addressHash: 'a', page: '/', firstSeen: 1, lastSeen: 1000 },
      { visitorHash: 'new', addressHash: 'a', page: '/', firstSeen: 1, lastSeen: 5000 },
    ]);
    await stats.deleteBefore('2026-06-01', { saltsBefore: '2026-11-21', onlineBefore: 2000 });
    expect(db.prepare('SELECT day FROM stats_hits').pluck().all()).toEqual(['2026-11-22']);
    expect(db.prepare('SELECT day FROM stats_visitors').pluck().all()).toEqual(['2026-11-22']);
    // The daily excluded-hit counts are a summary: they stay.
    expect(count('stats_exclusion_days')).toBe(1);
    expect(db.prepare('SELECT day FROM stats_salts').pluck().all()).toEqual(['2026-11-22']);
    expect(db.prepare('SELECT visitor_hash FROM stats_online').pluck().all()).toEqual(['new']);
  });
});
