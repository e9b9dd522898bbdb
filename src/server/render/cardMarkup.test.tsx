import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { ownerBrowser } from '../../../test-support/ownerBrowser';
import { productFormFields } from '../../../test-support/productEditForm';
import { testOwnerServer } from '../../../test-support/testOwner';
import { type CardMarkup, CardMarkupContext, ProductGrid } from '../../client/catalog/ProductCard';
import { Island } from '../../client/Island';
import { ShopSettingsContext } from '../../client/ShopSettingsContext';
import SearchBox from '../../client/search/SearchBox';
import type { ProductSummary } from '../../shared/catalog/types';
import { parseSettings, toPageSettings } from '../../shared/settings/parseSettings';
import { formValuesOf } from '../admin/products/productForm';
import { withArchiveSwatches } from '../swatches/buildArchiveSwatches';
import { createCardMarkup } from './cardMarkup';

/*
 * Product cards are rendered once per product version and reused by every page listing them, also with the
 * render cache off. A card rendered ahead must be the bytes the card renders inside the page (ids drawn after it
 * included), and a changed product must show on the very next page.
 */

describe('product cards rendered ahead', () => {
  let shop: TestApp;
  let products: ProductSummary[];
  // Swatches on the cards too: each such card holds an island of its own.
  const settings = toPageSettings(parseSettings({ swatches: { showOnArchive: true } }));
  beforeAll(async () => {
    shop = await createTestApp();
    const { catalog } = shop.repositories;
    const all = await catalog.listProducts({ context: 'shop', orderby: 'menu_order', page: 1, perPage: 500 });
    products = await withArchiveSwatches(catalog, all.items);
  });
  afterAll(async () => shop?.close());

  /** A page around the grid, with ids drawn before and after it (the header's search box, a second box after). */
  const page = (cardMarkup: CardMarkup | null, titleLevel: 2 | 3) =>
    renderToString(
      <ShopSettingsContext value={settings}>
        <CardMarkupContext value={cardMarkup}>
          <header>
            <Island name="searchBox" component={SearchBox} props={{ initialQuery: '' }} />
          </header>
          <main>
            <ProductGrid products={products} titleLevel={titleLevel} />
          </main>
          <footer>
            <SearchBox initialQuery="after" />
          </footer>
        </CardMarkupContext>
      </ShopSettingsContext>,
    );

  it('are the bytes the cards render in the page, for every demo product, when rendered and when reused', () => {
    expect(products.some((product) => product.archiveSwatches)).toBe(true);
    expect(products.some((product) => product.price.onSale)).toBe(true);
    const cards = createCardMarkup(settings);
    const used = vi.fn(cards.markup);
    for (const titleLevel of [2, 3] as const) {
      const rendered = page(null, titleLevel);
      expect(rendered).toContain('data-island="cardSwatches"');
      expect(page(used, titleLevel), `rendered ahead, h${titleLevel}`).toBe(rendered);
      expect(page(used, titleLevel), `reused, h${titleLevel}`).toBe(rendered);
    }
    expect(used).toHaveBeenCalledTimes(products.length * 4);
    expect(cards.size()).toBe(products.length * 2);
  });

  it('keeps at most its bound, the least recently used dropped first', () => {
    const cards = createCardMarkup(settings, 3);
    const [a, b, c, d] = products as [ProductSummary, ProductSummary, ProductSummary, ProductSummary];
    for (const product of [a, b, c]) cards.markup(product, 3);
    cards.markup(a, 3);
    cards.markup(d, 3);
    expect(cards.size()).toBe(3);
    // `b` went (least recently used); `a` was used again and stays: asking it again adds nothing.
    cards.markup(a, 3);
    expect(cards.size()).toBe(3);
    // `b` is rendered again, another drops out.
    expect(cards.markup(b, 3)).toContain(`>${b.name}</h3>`);
    expect(cards.size()).toBe(3);
  });
});

describe('a changed product on pages whose cards were rendered before', () => {
  let shop: TestApp;
  beforeAll(async () => {
    // The render cache off: every page is rendered, its cards from the card memo.
    shop = await createTestApp({ settings: { server: testOwnerServer } });
  });
  afterAll(async () => shop?.close());

  const MUG = 1021;
  const pages = ['/product-category/home/kitchen/', '/', '/product/espresso-cup-pair/'];

  it('a price edit shows on the next visit of each page listing it', async () => {
    const get = async (url: string) => (await shop.app.inject({ method: 'GET', url })).body;
    for (const url of pages) {
      // Twice: the second visit takes the card rendered at the first.
      await get(url);
      expect(await get(url), url).toContain('Café au Lait Mug');
      expect(await get(url), url).not.toContain('$77.77');
    }
    const owner = await ownerBrowser(shop.app);
    const values = formValuesOf(await shop.repositories.catalog.getAdminProduct(MUG), 2);
    const path = `/admin/products/${MUG}/`;
    const saved = await owner.postForm(path, path, { ...productFormFields(values), regular_price: '77.77' });
    expect(saved.statusCode).toBe(303);
    for (const url of pages) expect(await get(url), url).toContain('$77.77');
  });
});
