import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { Island, PrerenderedIsland } from '../../client/Island';
import { ShopSettingsContext } from '../../client/ShopSettingsContext';
import HeaderMenu from '../../client/theme/HeaderMenu';
import { menuItems } from '../../client/theme/menuItems';
import type { Term } from '../../shared/catalog/types';
import { parseSettings, toPageSettings } from '../../shared/settings/parseSettings';
import { readCatalogFiles } from '../catalog/import/readCatalogFiles';
import { DEMO_CATALOG } from '../catalog/import/seedDemoCatalog';
import { headerMenuMarkup } from './islandMarkup';
import { serializeJsonForScript, serializeSettingsForScript } from './renderPage';

/*
 * What every page shares is made once, not on each page: the header menu (its categories read, its island
 * rendered) once per catalog version, the shop's settings serialized once per settings section. Made once, it
 * must still be what rendering it on the page would give, and must follow the catalog and the settings.
 */

const category = (id: number, name: string, parentId: number | null, path: string[]): Term => ({
  id,
  taxonomy: 'product_cat',
  slug: path.at(-1) as string,
  name,
  parentId,
  description: '',
  path,
});

describe('parts made once', () => {
  const settings = toPageSettings(parseSettings({ i18n: { menu: 'Browse <all>' } }));
  const categories = [
    category(1, 'Home & <Garden>', null, ['home']),
    category(2, 'Kitchen', 1, ['home', 'kitchen']),
    category(3, 'Apparel', null, ['apparel']),
  ];

  it('a prerendered header menu is the bytes the island renders inside a page', () => {
    const inPage = (island: React.ReactNode) =>
      renderToString(
        <ShopSettingsContext value={settings}>
          <header>
            <a href="/">Shop</a>
            {island}
            <span>after</span>
          </header>
        </ShopSettingsContext>,
      );
    const rendered = inPage(
      <Island name="headerMenu" component={HeaderMenu} props={{ items: menuItems(categories) }} />,
    );
    expect(rendered).toContain('Browse &lt;all&gt;');
    expect(rendered).toContain('Home &amp; &lt;Garden&gt;');
    expect(inPage(<PrerenderedIsland markup={headerMenuMarkup(categories, settings)} />)).toBe(rendered);
  });

  it('serializes settings to the same bytes as the whole, and follows a section replaced', () => {
    const page = {
      ...settings,
      rest: { ...settings.rest, nonce: 'n</script>1' },
      shop: { ...settings.shop, name: 'A </script> shop' },
    };
    expect(serializeSettingsForScript(page)).toBe(serializeJsonForScript(page));
    expect(serializeSettingsForScript(page)).not.toContain('</script>');
    const next = { ...page, rest: { ...page.rest, nonce: 'n2' }, shop: { ...page.shop, name: 'B' } };
    expect(serializeSettingsForScript(next)).toBe(serializeJsonForScript(next));
    expect(JSON.parse(serializeSettingsForScript(next))).toEqual(next);
  });
});

describe('the header menu follows the catalog', () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await createTestApp();
  });
  afterAll(async () => shop?.close());

  /** The category links of the home page's header menu. */
  const menuLinks = async () => {
    const body = (await shop.app.inject({ method: 'GET', url: '/' })).body;
    const menu = /<nav id="site-navigation"[\s\S]*?<\/nav>/.exec(body)?.[0] ?? '';
    return [...menu.matchAll(/href="(\/product-category\/[^"]+)"/g)].map((match) => match[1]);
  };

  /** The names of a category page's breadcrumb trail (its schema.org BreadcrumbList). */
  const trailNames = async (url: string) => {
    const page = await shop.app.inject({ method: 'GET', url });
    expect(page.statusCode, url).toBe(200);
    const lists = [...page.body.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (match) => JSON.parse(match[1] as string) as { '@type': string; itemListElement: { name: string }[] },
    );
    return lists.find((list) => list['@type'] === 'BreadcrumbList')?.itemListElement.map((item) => item.name);
  };

  /** Imports the demo catalog with the kitchen products moved to a new category, as `npm run import` would. */
  async function importWithCategory(name: string) {
    const csv = readFileSync(DEMO_CATALOG.csv, 'utf8').replaceAll('"Home > Kitchen"', `"Home > ${name}"`);
    expect(csv).toContain(`Home > ${name}`);
    const path = join(shop.dataDir, `${name}.csv`);
    writeFileSync(path, csv);
    await shop.repositories.catalog.importCatalog(await readCatalogFiles(path, DEMO_CATALOG.sidecar));
  }

  it('shows a category an import added, within the catalog version check', async () => {
    expect(await menuLinks()).toContain('/product-category/home/kitchen/');
    expect(await menuLinks()).not.toContain('/product-category/home/pantry/');
    await importWithCategory('Pantry');
    await vi.waitFor(async () => expect(await menuLinks()).toContain('/product-category/home/pantry/'), {
      timeout: 3_000,
      interval: 20,
    });
  });

  it('shows it on the very next page after a write through this process', async () => {
    // The clock stands still, so only the write can make the shop read the catalog version again.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect(await menuLinks()).not.toContain('/product-category/home/larder/');
      await importWithCategory('Larder');
      expect(await menuLinks()).not.toContain('/product-category/home/larder/');
      const added = await shop.app.inject({
        method: 'POST',
        url: '/?wc-ajax=add_to_cart',
        payload: { product_id: '1021', quantity: '1' },
      });
      expect(added.statusCode).toBe(200);
      expect(await menuLinks()).toContain('/product-category/home/larder/');
      // The category page's trail names its categories from the same read.
      expect(await trailNames('/product-category/home/larder/')).toEqual(['Home', 'Shop', 'Home', 'Larder']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('each shop its own settings', () => {
  it('renders every page with its own menu label and settings, two shops in one process', async () => {
    const [first, second] = await Promise.all([
      createTestApp({ settings: { i18n: { menu: 'First menu' }, shop: { name: 'First shop' } } }),
      createTestApp({ settings: { i18n: { menu: 'Second menu' }, shop: { name: 'Second shop' } } }),
    ]);
    try {
      for (const [shop, own, other] of [
        [first, 'First', 'Second'],
        [second, 'Second', 'First'],
      ] as const) {
        const body = (await shop.app.inject({ method: 'GET', url: '/product/washed-linen-shirt/' })).body;
        const settings = JSON.parse(
          /<script id="shop-settings" type="application\/json">([\s\S]*?)<\/script>/.exec(body)?.[1] ?? '{}',
        ) as { shop: { name: string }; i18n: { menu: string } };
        expect(settings.shop.name).toBe(`${own} shop`);
        expect(settings.i18n.menu).toBe(`${own} menu`);
        expect(body).toContain(`${own} menu`);
        expect(body).not.toContain(`${other} menu`);
      }
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  }, 60_000);
});
