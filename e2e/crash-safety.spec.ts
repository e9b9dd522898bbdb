import { expect, test } from '@playwright/test';
import { BILLING_FORM } from '../scripts/lib/billingForm.mjs';
import { scriptedClient } from './support/scriptedClient';
import { readShopDatabase } from './support/shopDatabase';
import { type RunningShop, startShop } from './support/startShop';
import { readHitParams, sendHitsUntil } from './support/statsHits';

/*
 * Crash safety, no browser: shoppers check out and visitors send statistics hits concurrently against the built
 * server, which is killed with SIGKILL while orders and hits are in flight, then restarted on the same data dir.
 * Every order a shopper was told about (the 303 to order-received, sent only after the commit) must be there,
 * complete; every hit acknowledged (answered only after its group commit) must be stored; no order may be half
 * written; and the shop serves and takes orders again.
 */

const SHOPPERS = 24;
const HIT_SENDERS = 6;
const KILL_AFTER_ORDERS = 15;
const KILL_AFTER_HITS = 30;

interface Acknowledged {
  id: number;
  key: string;
}

/** One shopper with its own cookie jar, ordering until told to stop or the server goes away. */
async function shopUntil(done: () => boolean, base: string, acknowledged: Acknowledged[], shopper: number) {
  const send = scriptedClient(base);
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  try {
    while (!done()) {
      // Two lines per order (the tote and, for every other shopper, the bowl), neither with a stock limit.
      await send('/?wc-ajax=add_to_cart', {
        method: 'POST',
        headers: form,
        body: 'product_id=1033&quantity=2',
      });
      if (shopper % 2 === 0)
        await send('/?wc-ajax=add_to_cart', { method: 'POST', headers: form, body: 'product_id=1022' });
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
      const match = /^\/checkout\/order-received\/(\d+)\/\?key=(.+)$/.exec(
        placed.headers.get('location') ?? '',
      );
      if (placed.status !== 303 || !match) throw new Error(`checkout answered ${placed.status}`);
      acknowledged.push({ id: Number(match[1]), key: decodeURIComponent(match[2] ?? '') });
    }
  } catch {
    // The server was killed: whatever was in flight was never acknowledged.
  }
}

interface StoredOrder {
  id: number;
  order_key: string;
  subtotal: number;
  total: number;
  lines: number;
  line_sum: number | null;
  bad_lines: number;
}

let restarted: RunningShop | undefined;
test.afterAll(async () => {
  await restarted?.stop();
});

test('orders and hits acknowledged before a SIGKILL are all there, orders whole, after the restart', async () => {
  test.setTimeout(90_000);
  // Every hit comes from the same loopback visitor: lift the per-visitor rate limit so none is refused.
  const shop = await startShop({
    server: { newSessionsPerHour: 100_000, stats: { rateLimitPerMinute: 100_000 } },
  });
  const acknowledged: Acknowledged[] = [];
  const shoppers = Array.from({ length: SHOPPERS }, (_, index) =>
    shopUntil(() => false, shop.url, acknowledged, index),
  );
  const hitParams = await readHitParams(shop.url);
  const acknowledgedHits: string[] = [];
  const hitSenders = sendHitsUntil(() => false, shop.url, hitParams, HIT_SENDERS, acknowledgedHits);
  await expect
    .poll(() => acknowledged.length >= KILL_AFTER_ORDERS && acknowledgedHits.length >= KILL_AFTER_HITS, {
      timeout: 60_000,
      intervals: [50],
    })
    .toBe(true);
  await shop.kill();
  await Promise.all([...shoppers, hitSenders]);

  restarted = await startShop(undefined, shop.dataDir);
  // Read after the restart: the new process has replayed SQLite's write-ahead log, as a real recovery would.
  const stored = readShopDatabase(shop.dataDir, (db) => ({
    integrity: db.pragma('integrity_check', { simple: true }),
    foreignKeys: db.pragma('foreign_key_check'),
    orphanLines: db
      .prepare('SELECT COUNT(*) FROM order_items WHERE order_id NOT IN (SELECT id FROM orders)')
      .pluck()
      .get(),
    orders: db
      .prepare(
        `SELECT o.id, o.order_key, o.subtotal, o.total, COUNT(i.id) AS lines, SUM(i.line_total) AS line_sum,
                SUM(i.line_total != i.unit_price * i.quantity) AS bad_lines
         FROM orders o LEFT JOIN order_items i ON i.order_id = o.id GROUP BY o.id`,
      )
      .all() as StoredOrder[],
    hitPages: new Set(db.prepare('SELECT page FROM stats_hits').pluck().all() as string[]),
  }));

  test.info().annotations.push({
    type: 'orders',
    description: `${acknowledged.length} acknowledged before the kill, ${stored.orders.length} stored`,
  });
  test.info().annotations.push({
    type: 'hits',
    description: `${acknowledgedHits.length} acknowledged before the kill, ${stored.hitPages.size} stored`,
  });
  // Every acknowledged hit is there.
  for (const page of acknowledgedHits) expect(stored.hitPages.has(page), `hit ${page}`).toBe(true);
  expect(stored.integrity).toBe('ok');
  expect(stored.foreignKeys).toEqual([]);
  expect(stored.orphanLines).toBe(0);
  // Every acknowledged order is there with its key.
  const byId = new Map(stored.orders.map((order) => [order.id, order]));
  for (const order of acknowledged)
    expect(byId.get(order.id)?.order_key, `order ${order.id}`).toBe(order.key);
  // No order is half written: each has its lines, and its totals are the sum of them.
  for (const order of stored.orders) {
    expect(order.lines, `order ${order.id} lines`).toBeGreaterThan(0);
    expect(order.bad_lines, `order ${order.id} line totals`).toBe(0);
    expect(order.subtotal, `order ${order.id} subtotal`).toBe(order.line_sum);
    expect(order.total, `order ${order.id} total`).toBe(order.subtotal);
  }
  // At most the orders in flight at the kill were committed without their answer reaching the shopper.
  expect(stored.orders.length - acknowledged.length).toBeGreaterThanOrEqual(0);
  expect(stored.orders.length - acknowledged.length).toBeLessThanOrEqual(SHOPPERS);

  // The restarted shop serves pages, shows an acknowledged order, and takes new orders.
  const base = restarted.url;
  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  expect((await fetch(`${base}/shop/`)).status).toBe(200);
  const first = acknowledged[0] as Acknowledged;
  const received = await fetch(
    `${base}/checkout/order-received/${first.id}/?key=${encodeURIComponent(first.key)}`,
  );
  expect(received.status).toBe(200);
  expect(await received.text()).toContain('Waxed Canvas Tote');
  const after: Acknowledged[] = [];
  await shopUntil(() => after.length >= 2, base, after, 0);
  expect(after).toHaveLength(2);
  expect(after[0]?.id).toBeGreaterThan(Math.max(...stored.orders.map((order) => order.id)));
});
