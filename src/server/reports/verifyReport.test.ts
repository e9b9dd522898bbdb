import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDays, dayOf } from '../../shared/dates/dayRange';
import { openDatabase, type SqliteDatabase } from '../db/openDatabase';
import { openRepositories } from '../db/openRepositories';
import type { Repositories } from '../db/ports';
import { verifyReport } from './verifyReport';

/* `npm run report -- verify`: silent agreement when the page and the raw tables agree; each difference and exit 1 when not. */

let dataDir: string;
let repositories: Repositories;
let db: SqliteDatabase;
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'verify-'));
  repositories = await openRepositories({ dataDir, databaseUrl: undefined });
  db = openDatabase(dataDir);
  process.exitCode = undefined;
});
afterEach(async () => {
  process.exitCode = undefined;
  db.close();
  await repositories.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const yesterday = addDays(dayOf(Date.now()), -1);

async function verify() {
  let out = '';
  await verifyReport(['--from', yesterday, '--to', yesterday], {
    repositories,
    write: (text) => (out += text),
  });
  return { out, exitCode: process.exitCode };
}

describe('the verify report', () => {
  beforeEach(() => {
    for (const visitor of ['v1', 'v2'])
      db.prepare(
        `INSERT INTO stats_visitors (day, visitor_hash, first_seen, last_seen, hits, browser, os, device_type,
           source_type, source, entry_page) VALUES (?, ?, 0, 0, 1, 'Chrome', 'Linux', 'Desktop', 'typein', '(direct)', '/')`,
      ).run(yesterday, visitor);
    db.prepare(
      `INSERT INTO stats_hits (created_at, day, visitor_hash, page, page_type, page_id, search_query, referrer,
         referrer_host, source_type, source, browser, os, device_type)
       VALUES (0, ?, 'v1', '/', 'page', 0, '', '', '', 'typein', '(direct)', 'Chrome', 'Linux', 'Desktop')`,
    ).run(yesterday);
  });

  it('prints no difference when every figure equals its recount', async () => {
    const { out, exitCode } = await verify();
    expect(out).toContain('No difference');
    expect(exitCode).toBeUndefined();
  });

  it('prints the difference and exits 1 when a figure does not equal its recount', async () => {
    await verify();
    // A closed day's summary that no longer matches its raw rows (as a bug in the summaries would leave it).
    db.prepare('UPDATE insights_days SET visitors = 5 WHERE day = ?').run(yesterday);
    const { out, exitCode } = await verify();
    expect(out).toMatch(/visitors per day \[\d{4}-\d{2}-\d{2}\]\s+5\s+2/);
    expect(out).toMatch(/Visitors\s+5\s+2/);
    expect(exitCode).toBe(1);
  });
});
