import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { checkpointAfterImport } from './checkpointAfterImport';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A WAL database and a second connection (the server's) reading it; the first writes about 4 MB. */
function importWhileServerReads() {
  dir = mkdtempSync(join(tmpdir(), 'shop-checkpoint-'));
  const file = join(dir, 'shop.sqlite');
  const importer = new Database(file);
  importer.pragma('journal_mode = WAL');
  importer.exec('CREATE TABLE products (id INTEGER PRIMARY KEY, body BLOB)');
  const server = new Database(file);
  // A shopper's request in flight: its read began before the import committed.
  server.exec('BEGIN');
  server.prepare('SELECT count(*) FROM products').get();
  const insert = importer.prepare('INSERT INTO products (body) VALUES (?)');
  importer.transaction(() => {
    for (let i = 0; i < 1000; i++) insert.run(Buffer.alloc(4096, i % 251));
  })();
  return { file, importer, server };
}

describe('checkpointAfterImport', () => {
  it('copies the import into the database file once the reader from before it has moved on', async () => {
    const { file, importer, server } = importWhileServerReads();
    try {
      // The commit's own checkpoint could not copy the import: the reader's snapshot still needs the file as it was.
      expect(statSync(file).size).toBeLessThan(100_000);
      setTimeout(() => server.exec('COMMIT'), 100);
      expect(await checkpointAfterImport(importer)).toBe(true);
      expect(statSync(file).size).toBeGreaterThan(4_000_000);
    } finally {
      server.close();
      importer.close();
    }
  });

  it('gives up after its wait while a reader keeps the old snapshot, leaving the rest to SQLite', async () => {
    const { file, importer, server } = importWhileServerReads();
    try {
      expect(await checkpointAfterImport(importer, { waitMs: 60, everyMs: 10 })).toBe(false);
      expect(statSync(file).size).toBeLessThan(100_000);
    } finally {
      server.exec('COMMIT');
      server.close();
      importer.close();
    }
  });
});
