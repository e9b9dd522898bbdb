import type { FastifyInstance } from 'fastify';
import { Window } from 'happy-dom';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { openShopProcesses, type ShopProcesses } from '../../../../test-support/shopProcesses';

/*
 * Each server process counts from its own in-memory facet index: two processes on one database (SQLite, or one
 * PostgreSQL database under `node scripts/ensure-postgres.mjs -- npx vitest run`) show the same counts, and a
 * catalog write committed through one is counted by the other: on SQLite at its next listing (each listing reads
 * the change log), on PostgreSQL once the commit's notification has woken it (within a second).
 */

/** How long the other PostgreSQL process may take to hear of a commit: its periodic check is once a second. */
const WAKE_UP = { timeout: 5_000, interval: 50 };

let shop: ShopProcesses;
beforeAll(async () => {
  shop = await openShopProcesses(2);
}, 60_000);
afterAll(async () => {
  await shop?.close();
});

async function counts(app: FastifyInstance, url: string): Promise<Record<string, number>> {
  const response = await app.inject({ method: 'GET', url });
  expect(response.statusCode).toBe(200);
  const window = new Window();
  window.document.write(response.body);
  const out: Record<string, number> = {};
  for (const input of window.document.querySelectorAll('form.facet-filters input')) {
    const label = window.document.querySelector(`label[for="${input.id}"] [aria-hidden="true"]`);
    if (label) out[input.id] = Number(label.textContent?.replace(/[()]/g, ''));
  }
  window.close();
  return out;
}

it('two processes count alike, and a write through one is counted by the other', async () => {
  const [first, second] = shop.apps as [FastifyInstance, FastifyInstance];
  const url = '/?s=&post_type=product&filter_product_cat=apparel';
  const before = await counts(first, url);
  expect(Object.keys(before).length).toBeGreaterThan(5);
  expect(await counts(second, url)).toEqual(before);

  const [row] = await shop.query<{ id: number }>(
    `SELECT p.id FROM products p JOIN product_terms x ON x.product_id = p.id JOIN terms t ON t.id = x.term_id
     WHERE t.slug = 'hoodies' AND p.type <> 'variation' AND p.status = 'publish' AND p.visibility = 'visible'
       AND p.stock_status = 'instock' ORDER BY p.id LIMIT 1`,
  );
  await shop.query("UPDATE products SET stock_status = 'outofstock' WHERE id = ?", [row?.id]);

  let after: Record<string, number> = {};
  await vi.waitFor(async () => {
    after = await counts(second, url);
    expect(after['facet-stock_status-instock']).toBe((before['facet-stock_status-instock'] ?? 0) - 1);
    expect(after['facet-stock_status-outofstock'] ?? 0).toBe(
      (before['facet-stock_status-outofstock'] ?? 0) + 1,
    );
  }, WAKE_UP);
  await vi.waitFor(async () => expect(await counts(first, url)).toEqual(after), WAKE_UP);
});

/** Each attribute facet's legend, with its values' labels by value (the count left out), as a shopper reads them. */
async function facetLabels(
  app: FastifyInstance,
  url: string,
): Promise<Record<string, Record<string, string>>> {
  const response = await app.inject({ method: 'GET', url });
  expect(response.statusCode).toBe(200);
  const window = new Window();
  window.document.write(response.body);
  const out: Record<string, Record<string, string>> = {};
  for (const fieldset of window.document.querySelectorAll('form.facet-filters fieldset.facet')) {
    const legend = fieldset.querySelector('legend')?.textContent ?? '';
    const values: Record<string, string> = {};
    for (const input of fieldset.querySelectorAll('input[type="checkbox"]')) {
      const label = fieldset.querySelector(`label[for="${input.id}"]`);
      values[input.getAttribute('value') ?? ''] = label?.childNodes[0]?.textContent?.trim() ?? '';
    }
    out[legend] = values;
  }
  window.close();
  return out;
}

it('renaming an attribute or one of its terms shows in both processes’ filters, and the new name is searched', async () => {
  const [first, second] = shop.apps as [FastifyInstance, FastifyInstance];
  const url = '/?s=&post_type=product';
  const [term] = await shop.query<{
    id: number;
    slug: string;
    name: string;
    attribute_id: number;
    attribute: string;
  }>(
    `SELECT t.id, t.slug, t.name, a.id AS attribute_id, a.name AS attribute FROM attribute_terms t
     JOIN attributes a ON a.id = t.attribute_id
     WHERE a.slug = 'color' AND t.id IN (SELECT term_id FROM product_attribute_terms) ORDER BY t.id LIMIT 1`,
  );
  if (!term) throw new Error('the demo catalog has no colour in use');
  for (const app of [first, second])
    expect((await facetLabels(app, url))[term.attribute]?.[term.slug]).toBe(term.name);

  // A term renamed by another writer (nothing else in the catalog changes).
  await shop.query('UPDATE attribute_terms SET name = ? WHERE id = ?', ['Zanzibar Ochre', term.id]);
  for (const app of [second, first]) {
    await vi.waitFor(
      async () => expect((await facetLabels(app, url))[term.attribute]?.[term.slug]).toBe('Zanzibar Ochre'),
      WAKE_UP,
    );
  }
  // The products carrying it were indexed again: the new name finds them, as it is (not corrected to another word).
  const carriers = await shop.query<{ name: string }>(
    `SELECT p.name FROM products p JOIN product_attribute_terms x ON x.product_id = p.id
     WHERE x.term_id = ? AND p.status = 'publish' ORDER BY p.id`,
    [term.id],
  );
  const found = (await second.inject({ method: 'GET', url: '/?s=zanzibar+ochre&post_type=product' })).body;
  expect(found).not.toContain('No products were found');
  expect(found).not.toContain('Showing results for');
  expect(carriers.some((carrier) => found.includes(carrier.name))).toBe(true);

  // The attribute renamed: the filter's legend follows.
  await shop.query('UPDATE attributes SET name = ? WHERE id = ?', ['Shade', term.attribute_id]);
  for (const app of [first, second]) {
    await vi.waitFor(async () => {
      const facets = await facetLabels(app, url);
      expect(facets[term.attribute]).toBeUndefined();
      expect(facets.Shade?.[term.slug]).toBe('Zanzibar Ochre');
    }, WAKE_UP);
  }
}, 30_000);
