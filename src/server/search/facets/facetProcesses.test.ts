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
