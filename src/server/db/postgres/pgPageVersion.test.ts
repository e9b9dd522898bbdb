import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test-support/createTestApp';
import { openPostgres, type PgPool } from './openPostgres';
import { PgPageVersionRepository } from './PgPageVersionRepository';

/*
 * PostgreSQL hands out the change feed's seq before commit: a long write can commit a seq below one already visible.
 * The pages' version must still move when it commits, or every process would keep that write's pages stale.
 */

let shop: TestApp;
let slow: PgPool;
let quick: PgPool;
beforeAll(async () => {
  shop = await createTestApp({ seed: true });
  if (!shop.databaseUrl) return;
  slow = await openPostgres(shop.databaseUrl, { max: 1 });
  quick = await openPostgres(shop.databaseUrl, { max: 1 });
});
afterAll(async () => {
  await slow?.end();
  await quick?.end();
  await shop?.close();
});

describe.runIf(process.env.TEST_DATABASE_URL)('the pages’ version on PostgreSQL', () => {
  it('moves when a write commits a feed seq below the newest one already visible', async () => {
    const versions = new PgPageVersionRepository(quick);
    const client = await slow.connect();
    try {
      await client.query('BEGIN');
      // The long write takes its seq first…
      await client.query('UPDATE products SET regular_price = 71 WHERE id = 1021');
      // …a quick one takes a higher seq and commits before it.
      await quick.query('UPDATE products SET regular_price = 72 WHERE id = 1022');
      const [{ max: visibleMax } = { max: 0 }] = (
        await quick.query<{ max: number }>('SELECT max(seq)::int AS max FROM search_changes')
      ).rows;
      const before = await versions.catalogVersion();
      await client.query('COMMIT');
      const [{ seq: lateSeq } = { seq: 0 }] = (
        await quick.query<{ seq: number }>(
          "SELECT seq::int AS seq FROM search_changes WHERE kind = 'product' AND ref_id = 1021",
        )
      ).rows;
      // The situation this guards against: the committed write's seq is below the newest already seen.
      expect(lateSeq).toBeLessThan(visibleMax);
      expect(await versions.catalogVersion()).not.toBe(before);
    } finally {
      client.release();
    }
  });
});
