import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { shopPerSpecFile } from './support/startShop';

/*
 * The search box in real Chromium against the real shop. The three search endpoints belong to the search engine
 * (another issue); here they are fulfilled from fixtures in the exact response format of SPEC.md §3/§7 and
 * CONTRACT.md "Payloads", so these tests pin the browser side.
 */

const FIXTURES = join(import.meta.dirname, 'fixtures', 'search');
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

interface SearchTraffic {
  suggestions: string[];
  details: { objectID: string }[][];
  prices: number[][];
}

async function routeSearch(page: Page): Promise<SearchTraffic> {
  const traffic: SearchTraffic = { suggestions: [], details: [], prices: [] };
  const details = fixture('details.json') as { items: { objectID: string }[] };
  await page.route(
    (url) => url.searchParams.has('wc-ajax'),
    async (route) => {
      const url = new URL(route.request().url());
      const name = url.searchParams.get('wc-ajax');
      if (name === 'search_suggestions') {
        const query = url.searchParams.get('s') ?? '';
        traffic.suggestions.push(query);
        let body: unknown;
        try {
          body = fixture(join('suggestions', `${query.toLowerCase()}.json`));
        } catch {
          body = fixture('no-results.json');
        }
        return route.fulfill({ json: body });
      }
      if (name === 'search_details') {
        const { items } = route.request().postDataJSON() as { items: { objectID: string }[] };
        traffic.details.push(items);
        const wanted = new Set(items.map((item) => item.objectID));
        return route.fulfill({ json: { items: details.items.filter((item) => wanted.has(item.objectID)) } });
      }
      if (name === 'search_prices') {
        traffic.prices.push((route.request().postDataJSON() as { items: number[] }).items);
        return route.fulfill({ json: fixture('prices.json') });
      }
      return route.continue();
    },
  );
  return traffic;
}

const shop = shopPerSpecFile({ search: { show: { detailsPanel: true, sku: true, vendor: true } } });

async function openHome(page: Page) {
  const traffic = await routeSearch(page);
  await page.goto(`${shop().url}/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  return traffic;
}

const searchInput = (page: Page) => page.getByRole('combobox', { name: 'Search products' });

test('typing shows every suggestion type with its fields, highlighted and announced', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const traffic = await openHome(page);
  await searchInput(page).fill('linen');
  const listbox = page.getByRole('listbox', { name: 'Search suggestions' });
  await expect(listbox).toBeVisible();
  await expect(searchInput(page)).toHaveAttribute('aria-expanded', 'true');
  expect(traffic.suggestions).toEqual(['linen']);
  const options = listbox.getByRole('option');
  await expect(options).toHaveCount(5);
  await expect(options.nth(0)).toContainText('Apparel › Shirts');
  const shirt = options.nth(1);
  await expect(shirt.locator('.shop-search__title mark')).toHaveText('Linen');
  await expect(shirt).toContainText('SKU: DEMO-LINEN-SHIRT');
  await expect(shirt).toContainText('$68.00');
  await expect(shirt).toContainText('featured');
  await expect(shirt).toContainText('Ships in 2 days');
  await expect(options.nth(2)).toContainText('sale');
  await expect(options.nth(2)).toContainText('Sold by: Tidewater Mill, Whitby');
  await expect(options.nth(4)).toHaveText('See all products... (5)');
  await expect(listbox.getByText('Categories')).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(/4 results available/);
  await page.screenshot({ path: 'test-results/search-open.png' });
});
