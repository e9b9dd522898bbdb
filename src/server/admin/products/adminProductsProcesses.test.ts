import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ownerBrowser } from '../../../../test-support/ownerBrowser';
import { productFormFields } from '../../../../test-support/productEditForm';
import { openShopProcesses, type ShopProcesses } from '../../../../test-support/shopProcesses';
import { testOwnerServer } from '../../../../test-support/testOwner';
import type { SuggestionsResponse } from '../../../shared/search/suggestionTypes';
import { formValuesOf } from './productForm';

/*
 * The owner's product edits on a scaled-out shop: two server processes on one database (SQLite under `npm test`,
 * PostgreSQL under `npm run test:postgres`). A change saved through one process shows in the other's search
 * suggestions (on SQLite at the next request, on PostgreSQL once the commit's notification woke its replica), and
 * two owners adding products with one SKU at once get one product and a message, never two products or a crash.
 */

/** How long to wait for the other process's replica: generous, the machine may be busy (no speed is asserted). */
const WAKE_UP = { timeout: 4_000, interval: 10 };

let shop: ShopProcesses;
/** The owner logged in once per process, one after the other (the login limiter would slow a burst of logins). */
let owners: Awaited<ReturnType<typeof ownerBrowser>>[] = [];
beforeAll(async () => {
  shop = await openShopProcesses(2, { server: testOwnerServer });
  owners = [];
  for (const app of shop.apps) owners.push(await ownerBrowser(app));
});
afterAll(async () => shop?.close());

async function suggestionNames(processIndex: number, query: string): Promise<string[]> {
  const response = await shop.apps[processIndex]?.inject({
    method: 'GET',
    url: `/?wc-ajax=search_suggestions&s=${encodeURIComponent(query)}`,
  });
  const body = response?.json() as SuggestionsResponse;
  return body.suggestions.filter((each) => each.type === 'product').map((each) => each.value);
}

describe('product edits across processes', () => {
  it('a rename and a draft saved through one process show in the other’s suggestions', async () => {
    const [first, second] = shop.apps;
    if (!first || !second) throw new Error('two processes');
    // The second process's index is warm before the change.
    expect(await suggestionNames(1, 'tea towel')).toContain('Linen Tea Towel');
    const owner = owners[0];
    if (!owner) throw new Error('logged in');
    const stored = await shop.repositories[0]?.catalog.getAdminProduct(1025);
    const renamed = await owner.postForm('/admin/products/1025/', '/admin/products/1025/', {
      ...productFormFields(formValuesOf(stored ?? null, 2)),
      name: 'Striped Linen Tea Towel',
    });
    expect(renamed.statusCode).toBe(303);
    // At once on SQLite (each search reads the change log); on PostgreSQL when the commit's notification wakes
    // the other process's replica, within a second.
    await vi.waitFor(async () => {
      const names = await suggestionNames(1, 'tea towel');
      expect(names).toContain('Striped Linen Tea Towel');
      expect(names).not.toContain('Linen Tea Towel');
    }, WAKE_UP);

    const drafted = await owner.postForm('/admin/products/1025/', '/admin/products/1025/', {
      ...productFormFields(
        formValuesOf((await shop.repositories[0]?.catalog.getAdminProduct(1025)) ?? null, 2),
      ),
      status: 'draft',
    });
    expect(drafted.statusCode).toBe(303);
    await vi.waitFor(
      async () => expect(await suggestionNames(1, 'tea towel')).not.toContain('Striped Linen Tea Towel'),
      WAKE_UP,
    );
    const page = await second.inject({ method: 'GET', url: '/product/linen-tea-towel/' });
    expect(page.statusCode).toBe(404);
  });

  it('two owners adding a product with the same SKU at once: one is created, the other told why', async () => {
    const responses = await Promise.all(
      owners.map((owner, index) =>
        owner.postForm('/admin/products/new', '/admin/products/new', {
          ...productFormFields(formValuesOf(null, 2)),
          name: `Twin Lamp ${index}`,
          sku: 'TWIN-LAMP',
          regular_price: '20',
          status: 'publish',
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([303, 422]);
    const refused = responses.find((response) => response.statusCode === 422);
    expect(refused?.body).toMatch(/already has (SKU TWIN-LAMP|this SKU)/);
    const rows = await shop.query("SELECT name FROM products WHERE sku = 'TWIN-LAMP'");
    expect(rows).toHaveLength(1);
  });
});
