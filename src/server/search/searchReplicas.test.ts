import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ownerBrowser } from '../../../test-support/ownerBrowser';
import { productFormFields } from '../../../test-support/productEditForm';
import { openShopProcesses, type ShopProcesses } from '../../../test-support/shopProcesses';
import { testOwnerServer } from '../../../test-support/testOwner';
import type { SuggestionsResponse } from '../../shared/search/suggestionTypes';
import { formValuesOf } from '../admin/products/productForm';
import { seedDemoCatalog } from '../catalog/import/seedDemoCatalog';
import { CHANGE_CHANNEL, pgChangeNotifications } from '../db/postgres/changeNotifications';
import { createPgRepositories } from '../db/postgres/createPgRepositories';
import { openPostgres } from '../db/postgres/openPostgres';
import { createTestDatabase, TEST_DATABASE_URL } from '../db/postgres/testDatabase';
import { MemorySearchIndex } from './MemorySearchIndex';
import { DEFAULT_RULES } from './SearchIndex';
import { SearchService } from './SearchService';

/*
 * PostgreSQL mode (`node scripts/ensure-postgres.mjs -- npx vitest run src/server/search/searchReplicas.test.ts`):
 * each server process answers from its own in-memory replica, woken by LISTEN/NOTIFY on `shop_changes` when another
 * process commits a catalog change, and catching up by the change log's sequence when a notification was missed.
 */

// Waits below are generous, since the machine running the tests may be busy: no speed is asserted here.
vi.setConfig({ testTimeout: 20_000 });

/** Waits for a condition (polling), up to 8 s. */
function waitUntil<T>(check: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(check, { timeout: 8_000, interval: 10 });
}

const HOUR = 3_600_000;

describe.skipIf(!TEST_DATABASE_URL)('search replicas on PostgreSQL: two processes', () => {
  let shop: ShopProcesses;
  let owner: Awaited<ReturnType<typeof ownerBrowser>>;
  beforeAll(async () => {
    shop = await openShopProcesses(2, { server: testOwnerServer });
    owner = await ownerBrowser(shop.apps[0] as NonNullable<(typeof shop.apps)[0]>);
    // Two servers, each building its replica and the shared index's tables, on a machine that may be busy.
  }, 60_000);
  afterAll(async () => shop?.close());

  async function suggestionNames(processIndex: number, query: string): Promise<string[]> {
    const response = await shop.apps[processIndex]?.inject({
      method: 'GET',
      url: `/?wc-ajax=search_suggestions&s=${encodeURIComponent(query)}`,
    });
    const body = response?.json() as SuggestionsResponse;
    return body.suggestions.filter((each) => each.type === 'product').map((each) => each.value);
  }

  it('each process answers from its replica once built (/healthz says so)', async () => {
    for (const app of shop.apps) {
      await waitUntil(async () => expect((await app.inject('/healthz')).json().searchIndex).toBe('ready'));
    }
  });

  it('a rename saved through one process shows in the other’s suggestions, its replica woken by the commit', async () => {
    expect(await suggestionNames(1, 'tea towel')).toContain('Linen Tea Towel');
    const stored = await shop.repositories[0]?.catalog.getAdminProduct(1025);
    const saved = await owner.postForm('/admin/products/1025/', '/admin/products/1025/', {
      ...productFormFields(formValuesOf(stored ?? null, 2)),
      name: 'Replicated Linen Tea Towel',
    });
    expect(saved.statusCode).toBe(303);
    await waitUntil(async () =>
      expect(await suggestionNames(1, 'replicated')).toEqual(['Replicated Linen Tea Towel']),
    );
    expect(await suggestionNames(1, 'tea towel')).not.toContain('Linen Tea Towel');
  });

  it('keeps the shared table index current in the background, for the next process that starts', async () => {
    await waitUntil(async () => {
      const rows = await shop.query<{ term: string }>(
        `SELECT p.term FROM search_index_postings p JOIN search_index_documents d ON d.ord = p.doc
         WHERE d.key = 'product__1025' AND p.term = 'replicated'`,
      );
      expect(rows).toHaveLength(1);
    });
    const catalog = await shop.repositories[0]?.search.loadDocuments();
    const rows = await shop.query<{ n: number }>('SELECT count(*)::int AS n FROM search_index_documents');
    expect(rows[0]?.n).toBe(catalog?.documents.length);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('search replicas on PostgreSQL: the wake-up', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let writer: ReturnType<typeof createPgRepositories>;
  beforeAll(async () => {
    database = await createTestDatabase();
    writer = createPgRepositories(await openPostgres(database.url, { max: 2 }));
    await seedDemoCatalog(writer);
  });
  afterAll(async () => {
    await writer?.close();
    await database?.drop();
  });

  async function replica(checkMs: number, notifications = pgChangeNotifications(database.url)) {
    const repositories = createPgRepositories(await openPostgres(database.url, { max: 2 }));
    const service = new SearchService({
      repository: repositories.search,
      index: new MemorySearchIndex(),
      createIndex: () => new MemorySearchIndex(),
      wakeUps: notifications,
      checkMs,
      secret: 'test',
    });
    await service.start(DEFAULT_RULES);
    return {
      service,
      notifications,
      async productIds(text: string) {
        return service.productIds(text);
      },
      async close() {
        await service.close();
        await notifications.close();
        await repositories.close();
      },
    };
  }

  async function rename(id: number, name: string) {
    const pool = await openPostgres(database.url, { max: 1 });
    try {
      await pool.query('UPDATE products SET name = $1 WHERE id = $2', [name, id]);
    } finally {
      await pool.end();
    }
  }

  it('a committed change notifies `shop_changes` with the table written', async () => {
    const notifications = pgChangeNotifications(database.url);
    const heard: (string | null)[] = [];
    notifications.subscribe((table) => heard.push(table));
    try {
      // Connected: told to catch up once (null), then the commit's notification.
      await waitUntil(() => expect(heard).toContain(null));
      await rename(1025, 'Notified Tea Towel');
      await waitUntil(() => expect(heard).toContain('search_changes'));
      expect(CHANGE_CHANNEL).toBe('shop_changes');
    } finally {
      await notifications.close();
    }
  });

  it('a notification alone brings a change into the replica (no periodic check, no request)', async () => {
    const shop = await replica(HOUR);
    try {
      // Up to date and nothing pending: from here only a notification refreshes.
      expect(await shop.productIds('woken')).toEqual([]);
      const seen = shop.service.revision;
      await rename(1025, 'Woken Tea Towel');
      await waitUntil(() => expect(shop.service.revision).not.toBe(seen));
      expect(await shop.productIds('woken')).toEqual([1025]);
    } finally {
      await shop.close();
    }
  });

  it('with notifications lost, the periodic check catches up by sequence', async () => {
    const silent = { subscribe: () => () => {}, close: async () => {} };
    const shop = await replica(50, silent);
    try {
      await rename(1025, 'Polled Tea Towel');
      await waitUntil(async () =>
        expect(await shop.service.index.searchProductIds('polled')).toEqual([1025]),
      );
    } finally {
      await shop.close();
    }
  });

  it('a dropped LISTEN connection reconnects and catches up what was committed meanwhile', async () => {
    const shop = await replica(HOUR, pgChangeNotifications(database.url, { retryMs: 50 }));
    try {
      // Up to date and nothing pending: from here only a notification or a reconnection's catch-up refreshes.
      expect(await shop.productIds('reconnected')).toEqual([]);
      const admin = await openPostgres(database.url, { max: 1 });
      try {
        await waitUntil(async () => {
          const { rowCount } = await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE datname = current_database() AND query = 'LISTEN ${CHANGE_CHANNEL}'`,
          );
          expect(rowCount).toBe(1);
        });
        // Committed while nobody listens: only the reconnection's catch-up can bring it.
        await admin.query('UPDATE products SET name = $1 WHERE id = $2', ['Reconnected Tea Towel', 1025]);
      } finally {
        await admin.end();
      }
      await waitUntil(async () => expect(await shop.productIds('reconnected')).toEqual([1025]));
    } finally {
      await shop.close();
    }
  });
});
