import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { seedDemoCatalog } from '../catalog/import/seedDemoCatalog';
import { checkDatabaseIdentity, DATABASE_ID_FILE } from './databaseIdentity';
import { openDatabase } from './openDatabase';
import { createSqliteRepositories } from './sqlite/createSqliteRepositories';

/*
 * A shop's database is its orders: a running shop whose SQLite file disappears must say so on /healthz instead of
 * taking orders into a file nobody will see again, and a restart must not quietly start a new, empty shop.
 */

let shop: TestApp | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await shop?.close();
  shop = null;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'first-start-'));
  dirs.push(dir);
  return dir;
}

describe('/healthz', () => {
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'answers 503 once the SQLite file was deleted under the running shop',
    async () => {
      shop = await createTestApp({ seed: false });
      expect((await shop.app.inject('/healthz')).statusCode).toBe(200);
      unlinkSync(join(shop.dataDir, 'shop.sqlite'));
      const response = await shop.app.inject('/healthz');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ status: 'unavailable', droppedWrites: { searchQueries: 0 } });
    },
  );

  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'answers 503 when another file took the database’s place',
    async () => {
      shop = await createTestApp({ seed: false });
      const path = join(shop.dataDir, 'shop.sqlite');
      unlinkSync(path);
      writeFileSync(path, '');
      expect((await shop.app.inject('/healthz')).statusCode).toBe(503);
    },
  );
});

describe('first start', () => {
  it('never seeds the demo catalog into a database that holds orders', async () => {
    const dir = dataDir();
    const db = openDatabase(dir);
    const repositories = createSqliteRepositories(db);
    db.prepare(
      `INSERT INTO orders (order_key, status, currency, subtotal, total, payment_method, billing)
       VALUES ('wc_order_kept', 'processing', 'USD', 100, 100, 'cod', '{}')`,
    ).run();
    expect(await seedDemoCatalog(repositories)).toBe(false);
    expect(await repositories.catalog.countProducts()).toBe(0);
    await repositories.close();
  });

  it('seeds a new database once', async () => {
    const repositories = createSqliteRepositories(openDatabase(dataDir()));
    expect(await seedDemoCatalog(repositories)).toBe(true);
    expect(await seedDemoCatalog(repositories)).toBe(false);
    await repositories.close();
  });

  it('remembers its database in the data dir and refuses to start on another one', async () => {
    const dir = dataDir();
    const first = createSqliteRepositories(openDatabase(dir));
    await checkDatabaseIdentity(first.options, dir);
    await checkDatabaseIdentity(first.options, dir); // a restart on the same database
    await first.close();
    // The file is deleted while the shop is down: the next start would find an empty database.
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, `shop.sqlite${suffix}`), { force: true });
    const replaced = createSqliteRepositories(openDatabase(dir));
    await expect(checkDatabaseIdentity(replaced.options, dir)).rejects.toThrow(
      /not the one this shop's data dir .* was used with.*Restore the database from a backup.*database-id/s,
    );
    // Deleting the marker is the owner's deliberate way to start afresh.
    rmSync(join(dir, DATABASE_ID_FILE));
    await checkDatabaseIdentity(replaced.options, dir);
    await replaced.close();
  });
});
