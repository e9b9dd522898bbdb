import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCatalog } from '../../catalog/import/seedDemoCatalog';
import { createPgRepositories } from './createPgRepositories';
import { openPostgres, type PgPool } from './openPostgres';
import { PRODUCT_CARDS_SQL } from './PgSearchRepository';
import { createTestDatabase, TEST_DATABASE_URL } from './testDatabase';

/*
 * While an import writes, PostgreSQL plans the shoppers' statements with the statistics of the catalog before it
 * (the import runs ANALYZE once it is done; a new shop's first import finds none yet): a plan that was cheap for the
 * small catalog must not read every row the import adds.
 */

interface PlanNode {
  'Node Type': string;
  Alias?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

describe.skipIf(!TEST_DATABASE_URL)(
  'PostgreSQL plans with statistics from before an import',
  { timeout: 60_000 },
  () => {
    let pool: PgPool;
    let drop: () => Promise<void>;

    beforeAll(async () => {
      const database = await createTestDatabase();
      drop = database.drop;
      pool = await openPostgres(database.url, { max: 4 });
      await seedDemoCatalog(createPgRepositories(pool));
    });

    afterAll(async () => {
      await pool?.end();
      await drop?.();
    });

    it('compiles no statement just in time (a shop’s statements are short; compiling one took longer than running it)', async () => {
      const { rows } = await pool.query<{ jit: string }>('SHOW jit');
      expect(rows[0]?.jit).toBe('off');
    });

    it('reads a suggestion’s product cards by their ids and their variations by parent, not every product', async () => {
      const [variable] = (
        await pool.query<{ id: number; variation: number }>(
          `SELECT p.id, (SELECT v.id FROM products v WHERE v.parent_id = p.id LIMIT 1) AS variation
         FROM products p WHERE p.type = 'variable' ORDER BY p.id LIMIT 1`,
        )
      ).rows;
      if (!variable) throw new Error('the demo catalog has no variable product');
      // As many cards as a suggestion shows, the variable product's among them.
      const cards = (
        await pool.query<{ id: number }>(
          `SELECT id FROM products WHERE type <> 'variation' ORDER BY id = $1 DESC, id LIMIT 8`,
          [variable.id],
        )
      ).rows.map((row) => row.id);
      const importing = await pool.connect();
      try {
        // An import in flight: 20,000 published variations on sale (of one card's product), not yet committed.
        await importing.query('BEGIN');
        // Its triggers off (the change capture is not what this looks at): 20,000 rows in seconds.
        await importing.query('SET LOCAL session_replication_role = replica');
        await importing.query(
          `INSERT INTO products SELECT (jsonb_populate_record(v, jsonb_build_object(
           'id', 1000000 + g, 'slug', v.slug || '-' || g, 'sku', NULL, 'parent_id', $2::bigint,
           'status', 'publish', 'regular_price', 20, 'sale_price', 10))).*
         FROM products v, generate_series(1, 20000) g WHERE v.id = $1`,
          [variable.variation, variable.id],
        );
        const [explained] = (
          await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
            `EXPLAIN (FORMAT JSON) ${PRODUCT_CARDS_SQL}`,
            [cards],
          )
        ).rows;
        if (!explained) throw new Error('EXPLAIN returned no plan');
        const variationReads = nodes(explained['QUERY PLAN'][0].Plan).filter((node) => node.Alias === 'v');
        expect(variationReads.length).toBeGreaterThan(0);
        for (const read of variationReads) {
          expect(`${read['Node Type']}: ${read['Index Cond'] ?? read['Recheck Cond'] ?? ''}`).toMatch(
            /parent_id = p\.id/,
          );
        }
      } finally {
        await importing.query('ROLLBACK');
        importing.release();
      }
    });
  },
);
