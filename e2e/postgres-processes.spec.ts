import { expect, test } from '@playwright/test';
import { BILLING_FORM } from '../scripts/lib/billingForm.mjs';
import { TEST_DATABASE_URL } from '../src/server/db/postgres/testDatabase';
import { type ScriptedClient, scriptedClient } from './support/scriptedClient';
import { readShopDatabase } from './support/shopDatabase';
import { type RunningShop, startShop } from './support/startShop';
import { readHitParams, sendHitsUntil } from './support/statsHits';

/*
 * Two server processes on one PostgreSQL database (npm run test:e2e:postgres only; no browser): shoppers check
 * out and visitors send hits through the round-robin proxy while one process is killed with SIGKILL. Every
 * order and hit acknowledged before the kill is in the database, and the surviving process keeps serving and
 * takes orders. (crash-safety.spec.ts is the same check for the whole shop on either engine.)
 */

test.skip(!TEST_DATABASE_URL, 'needs PostgreSQL: npm run test:e2e:postgres');

const SHOPPERS = 12;
const HITTERS = 6;
const KILL_AFTER_ORDERS = 12;
const KILL_AFTER_HITS = 30;

const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** Adds a tote to the cart and checks out; resolves to the acknowledged order id (the 303 after the commit). */
async function order(send: ScriptedClient): Promise<number> {
  await send('/?wc-ajax=add_to_cart', { method: 'POST', headers: form, body: 'product_id=1033&quantity=1' });
  const checkout = await (await send('/checkout/')).text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(checkout)?.[1] ?? '';
  const placed = await send('/checkout/', {
    method: 'POST',
    headers: form,
    body: new URLSearchParams({
      ...BILLING_FORM,
      _wpnonce: field('_wpnonce'),
      cart_hash: field('cart_hash'),
    }),
  });
  const match = /^\/checkout\/order-received\/(\d+)\//.exec(placed.headers.get('location') ?? '');
  if (placed.status !== 303 || !match) throw new Error(`checkout answered ${placed.status}`);
  return Number(match[1]);
}

let shop: RunningShop | undefined;
test.afterAll(async () => {
  await shop?.stop();
});

test('killing one of two processes loses no acknowledged order or hit, and the other keeps serving', async () => {
  test.setTimeout(120_000);
  shop = await startShop({ server: { newSessionsPerHour: 100_000, stats: { rateLimitPerMinute: 100_000 } } });
  const running = shop;
  const [victim, survivor] = running.processes ?? [];
  if (!victim || !survivor) throw new Error('expected two processes');
  const hitParams = await readHitParams(running.url);

  let killed = false;
  const orders: number[] = [];
  const hits: string[] = [];
  const shoppers = Array.from({ length: SHOPPERS }, async () => {
    const send = scriptedClient(running.url);
    try {
      while (!killed) orders.push(await order(send));
    } catch {
      // A request reached the killed process: whatever was in flight was never acknowledged.
    }
  });
  const hitters = sendHitsUntil(() => killed, running.url, hitParams, HITTERS, hits);
  await expect
    .poll(() => orders.length >= KILL_AFTER_ORDERS && hits.length >= KILL_AFTER_HITS, { timeout: 60_000 })
    .toBe(true);
  await victim.kill();
  const ordersAtKill = orders.length;
  const hitsAtKill = hits.length;
  killed = true;
  await Promise.all([...shoppers, hitters]);

  // The survivor serves pages and takes a new order on its own.
  expect((await fetch(`${survivor.url}/product/cafe-au-lait-mug/`)).status).toBe(200);
  const afterKill = await order(scriptedClient(survivor.url));

  const stored = readShopDatabase(running.dataDir, (db) => ({
    orders: new Set(db.prepare('SELECT id FROM orders').pluck().all() as number[]),
    pages: new Set(db.prepare('SELECT page FROM stats_hits').pluck().all() as string[]),
    badOrders: db
      .prepare(
        `SELECT COUNT(*) FROM orders o WHERE o.subtotal <> (SELECT COALESCE(SUM(line_total), -1) FROM order_items
         WHERE order_id = o.id)`,
      )
      .pluck()
      .get() as number,
  }));
  test.info().annotations.push({
    type: 'acknowledged',
    description: `${ordersAtKill} orders and ${hitsAtKill} hits before the kill; ${orders.length} and ${hits.length} in all`,
  });
  for (const id of [...orders, afterKill]) expect(stored.orders.has(id), `order ${id}`).toBe(true);
  for (const page of hits) expect(stored.pages.has(page), `hit ${page}`).toBe(true);
  expect(stored.badOrders).toBe(0);
});
