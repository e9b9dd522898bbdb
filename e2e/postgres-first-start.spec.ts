import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { startBuiltShop } from '../scripts/lib/startBuiltShop.mjs';
import { createTestDatabase, TEST_DATABASE_URL } from '../src/server/db/postgres/testDatabase';

/*
 * Several processes started at the same instant on an empty PostgreSQL database (npm run test:e2e:postgres only; no
 * browser), as a deploy of a scaled-out shop does: the migrations, the demo catalog, the secret and the search
 * rules are written once, and every process comes up healthy. Repeated, because a race shows only sometimes.
 */

test.skip(!TEST_DATABASE_URL, 'needs PostgreSQL: npm run test:e2e:postgres');

const PROCESSES = 3;
const ROUNDS = 3;

test('three processes started together on an empty database all become healthy', async () => {
  test.setTimeout(180_000);
  for (let round = 1; round <= ROUNDS; round++) {
    const database = await createTestDatabase();
    const started = await Promise.allSettled(
      Array.from({ length: PROCESSES }, () => startBuiltShop({ env: { DATABASE_URL: database.url } })),
    );
    const shops = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    try {
      const failures = started.flatMap((result) =>
        result.status === 'rejected' ? [String(result.reason)] : [],
      );
      expect(failures, `round ${round}`).toEqual([]);
      for (const shop of shops) {
        const health = await fetch(`${shop.url}/healthz`);
        expect(health.status, `round ${round}`).toBe(200);
        // Each serves the catalog, seeded once: the demo catalog's products, not three times as many.
        const shopPage = await (await fetch(`${shop.url}/shop/`)).text();
        expect(shopPage).toContain('Café au Lait Mug');
      }
      const seeded = shops.flatMap((shop) =>
        shop.output().includes('Seeded the demo catalog') ? [shop.url] : [],
      );
      expect(seeded, `round ${round}: one process seeds`).toHaveLength(1);
    } finally {
      await Promise.all(shops.map((shop) => shop.stop()));
      for (const shop of shops) rmSync(shop.dataDir, { recursive: true, force: true });
      await database.drop();
    }
  }
});
