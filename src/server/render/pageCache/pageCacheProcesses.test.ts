import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ownerBrowser } from '../../../../test-support/ownerBrowser';
import { productFormFields } from '../../../../test-support/productEditForm';
import { openShopProcesses, type ShopProcesses } from '../../../../test-support/shopProcesses';
import { testOwnerServer } from '../../../../test-support/testOwner';
import { formValuesOf } from '../../admin/products/productForm';

/*
 * Two server processes on one database (SQLite under `npm test`, PostgreSQL under `npm run test:postgres`), each
 * with its own render cache: a price the owner edits through one is on the product page, its category and the home
 * page of the other within a second, though that one had them cached.
 */

const MUG = 1021;
const PAGES = ['/product/cafe-au-lait-mug/', '/product-category/home/kitchen/', '/'];
/** Pages that do not show the mug: the other process keeps answering them from its cache. */
const OTHER_PAGES = ['/product/fisherman-rib-jumper/', '/product-category/apparel/knitwear/'];

let shop: ShopProcesses;
beforeAll(async () => {
  shop = await openShopProcesses(2, {
    server: { ...testOwnerServer, pageCache: { maxBytes: 64 * 1024 * 1024 } },
  });
});
afterAll(async () => shop?.close());

describe('the render cache across processes', () => {
  it('shows a price edited through one process on the other’s product, category and home pages within 1 s', async () => {
    const [editing, reading] = shop.apps as [(typeof shop.apps)[0], (typeof shop.apps)[0]];
    const get = (url: string) => reading.inject({ method: 'GET', url, headers: { host: 'shop.test' } });
    for (const url of [...PAGES, ...OTHER_PAGES]) {
      await get(url);
      const cached = await get(url);
      expect(cached.headers['x-shop-cache'], url).toBe('hit');
      expect(cached.body, url).not.toContain('$61.23');
    }

    const owner = await ownerBrowser(editing);
    const values = formValuesOf(
      await (shop.repositories[0] as (typeof shop.repositories)[0]).catalog.getAdminProduct(MUG),
      2,
    );
    const saved = await owner.postForm(`/admin/products/${MUG}/`, `/admin/products/${MUG}/`, {
      ...productFormFields(values),
      regular_price: '61.23',
    });
    expect(saved.statusCode).toBe(303);

    // Every page of the other process must show the new price before a second has passed since the edit's answer.
    await vi.waitFor(
      async () => {
        for (const url of PAGES) expect((await get(url)).body, url).toContain('$61.23');
      },
      { timeout: 1_000, interval: 20 },
    );
    // Exactly those: the other pages of the reading process are still its cached ones.
    for (const url of OTHER_PAGES) expect((await get(url)).headers['x-shop-cache'], url).toBe('hit');
  });
});
